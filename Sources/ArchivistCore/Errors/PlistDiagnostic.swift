/// Something a reader accepted, as Apple's parsers do, but that is almost always
/// a mistake. `lint` reports each as an error (a warning when `isWarning`);
/// `convert` prints them as warnings.
public struct PlistDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What was found.
    public enum Kind: Sendable, Equatable {
        /// A dictionary repeats a key; the last value is kept.
        case duplicateKey
        /// A string holds a UTF-16 surrogate without its partner; it became U+FFFD.
        case loneSurrogate
        /// An XML file's declared encoding does not match its bytes.
        case encodingMismatch
        /// A JSON integer does not fit in 64 bits; it was read as the nearest
        /// real, as Apple's parsers read it.
        case integerBeyond64Bits

        /// True for what the file may mean, read as Apple reads it, but loses
        /// something: `lint` warns about it and still counts the file valid.
        public var isWarning: Bool {
            switch self {
            case .integerBeyond64Bits: return true
            case .duplicateKey, .loneSurrogate, .encodingMismatch: return false
            }
        }
    }

    /// What was found.
    public var kind: Kind
    /// A human-readable message without position.
    public var message: String
    /// Where it was found.
    public var location: SourceLocation
    /// A second place involved (the first occurrence of a duplicate key).
    public var related: SourceLocation?

    /// A diagnostic of a kind with message and positions.
    public init(_ kind: Kind, _ message: String, at location: SourceLocation, related: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
        self.related = related
    }

    /// `LOCATION: MESSAGE` without a file name.
    public var description: String {
        let where_ = location.shortDescription
        return where_.isEmpty ? message : "\(where_): \(message)"
    }

    /// As `lint` prints it: `PATH:LINE:COL: error: MESSAGE` (or the binary form),
    /// with `severity` in place of `error`, and ` (see LINE:COL)` naming the
    /// related place (a duplicate key's first occurrence) when there is one.
    /// Always one line.
    public func formatted(path: String, severity: String = "error") -> String {
        var line = location.formatted(path: path, severity: severity, message: message)
        if let related, !related.shortDescription.isEmpty {
            line += " (see \(related.shortDescription))"
        }
        return line
    }
}
