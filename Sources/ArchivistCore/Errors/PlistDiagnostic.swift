/// Something a reader accepted, as Apple's parsers do, but that is almost always
/// a mistake. `lint` reports each as an error (a warning when `isWarning`);
/// `convert` prints them as warnings.
public struct PlistDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What was found.
    ///
    /// Kinds are values, not cases of a closed enum (as `PlistError.Kind`):
    /// a kind added in a later release breaks no `switch`. Compare with `==`
    /// or match in a `switch` with a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, as `description` prints it (`duplicateKey`...).
        public let name: String
        /// True for what the file may mean, read as Apple reads it, but loses
        /// something: `lint` warns about it and still counts the file valid.
        public let isWarning: Bool

        /// A kind named `name`; two kinds are the same when their names are.
        package init(_ name: String, isWarning: Bool = false) {
            self.name = name
            self.isWarning = isWarning
        }

        /// The name.
        public var description: String { name }

        /// Two kinds are the same when their names are.
        ///
        /// - Parameters:
        ///   - a: A kind.
        ///   - b: Another kind.
        /// - Returns: True when the names are equal.
        public static func == (a: Kind, b: Kind) -> Bool { a.name == b.name }

        /// Hashes the name.
        ///
        /// - Parameter hasher: The hasher to feed.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }

        /// A dictionary repeats a key; the last value is kept.
        public static let duplicateKey = Kind("duplicateKey")
        /// A string holds a UTF-16 surrogate without its partner; it became U+FFFD.
        public static let loneSurrogate = Kind("loneSurrogate")
        /// An XML file's declared encoding does not match its bytes.
        public static let encodingMismatch = Kind("encodingMismatch")
        /// A JSON integer does not fit in 64 bits; it was read as the nearest
        /// real, as Apple's parsers read it (a warning).
        public static let integerBeyond64Bits = Kind("integerBeyond64Bits", isWarning: true)
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
    ///
    /// - Parameters:
    ///   - kind: What was found.
    ///   - message: The message, without position or file name.
    ///   - location: Where it was found.
    ///   - related: A second place involved, if any.
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
    ///
    /// - Parameters:
    ///   - path: The file name the line starts with.
    ///   - severity: The word after the position (`error`, `warning`).
    /// - Returns: The line, without a line break.
    public func formatted(path: String, severity: String = "error") -> String {
        var line = location.formatted(path: path, severity: severity, message: message)
        if let related, !related.shortDescription.isEmpty {
            line += " (see \(related.shortDescription))"
        }
        return line
    }
}
