extension ClassDescription {
    /// `NSColorSpace`, the colour space an `NSColor` archives with its
    /// components (`NSID`, `NSModel`, `NSICC`); read as part of the colour.
    static let nsColorSpace = ClassDescription(["NSColorSpace"], framework: .appKit, secureCoding: .secureWhenNamed)
}
