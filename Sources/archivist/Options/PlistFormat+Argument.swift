import ArchivistCore
import ArgumentParser

/// `--to FORMAT` accepts every name `PlistFormat(name:)` knows (`xml1`,
/// `binary1` as plutil spells them); help lists the main four.
extension PlistFormat: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }

    /// Each format once, in help and the manual page.
    public static var allValueDescriptions: [String: String] { PlistFormat.descriptions }

    /// What each format is, for the value lists of options that take one.
    static let descriptions = [
        "xml": "XML, as Foundation writes it (plutil's xml1)",
        "binary": "binary, bplist00 (plutil's binary1)",
        "json": "JSON",
        "openstep": "OpenStep (old-style ASCII)",
    ]
}
