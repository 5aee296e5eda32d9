/// An error from reading or writing a property list: what went wrong, in which
/// format, and where.
public struct PlistError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem; `message` has the details.
    ///
    /// Kinds are values, not cases of a closed enum: each library adds the
    /// kinds of its own layer (`ArchivistArchive` adds `archive` and
    /// `noArchive`), and a kind added in a later release breaks no `switch`.
    /// Compare with `==` or match in a `switch` with a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name, as `description` prints it (`syntax`, `io`...).
        public let name: String

        /// A kind named `name`; two kinds are the same when their names are.
        package init(_ name: String) {
            self.name = name
        }

        /// The name.
        public var description: String { name }

        /// The bytes break the format's grammar (bad token, bad tag, truncated text).
        public static let syntax = Kind("syntax")
        /// A binary plist's header, trailer, offset table or an object is corrupt.
        public static let corrupt = Kind("corrupt")
        /// The input is a variant Archivist does not read (`bplist15`, an unknown object type).
        public static let unsupported = Kind("unsupported")
        /// A container contains itself.
        public static let cycle = Kind("cycle")
        /// A configured limit (depth, object count, length, input size) was exceeded.
        public static let limitExceeded = Kind("limitExceeded")
        /// A value is out of range or of the wrong kind for its place.
        public static let invalidValue = Kind("invalidValue")
        /// Text is not valid in its declared encoding, or a string holds lone surrogates.
        public static let encoding = Kind("encoding")
        /// A dictionary repeats a key.
        public static let duplicateKey = Kind("duplicateKey")
        /// The tree cannot be written in the requested format (a UID to JSON, NaN to JSON...).
        public static let notRepresentable = Kind("notRepresentable")
        /// Reading or writing a file, a store or a stream failed.
        public static let io = Kind("io")
    }

    /// The class of problem.
    public var kind: Kind
    /// A human-readable message, without position or file name.
    public var message: String
    /// Where the problem is.
    public var location: SourceLocation
    /// The situation behind the error when a caller can act on it (a
    /// missing key that `create: true` would make, a cycle that
    /// `CodableOptions.CyclePolicy.omit` leaves out...), nil otherwise. It is
    /// the structured form of the advice: `message` names no option of the
    /// `archivist` command, which words each reason as its own option.
    public var reason: Reason?

    /// A situation behind an error that a caller can act on.
    ///
    /// Like ``Kind``, reasons are values that each library adds for its own
    /// layer (`ArchivistArchive` and `ArchivistDatabase` define theirs as
    /// static members of this type); compare with `==`.
    public struct Reason: Sendable, Hashable {
        /// The reason's name, for the command's table of options.
        package let name: String

        /// A reason named `name`; two reasons are the same when their names are.
        package init(_ name: String) {
            self.name = name
        }
    }

    /// An error of a kind, with a message and a location.
    ///
    /// - Parameters:
    ///   - kind: The class of problem.
    ///   - message: What went wrong, without position or file name.
    ///   - location: Where, when known.
    public init(_ kind: Kind, _ message: String, at location: SourceLocation = .unknown) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// The same error with `reason` set.
    package func because(_ reason: Reason) -> PlistError {
        var error = self
        error.reason = reason
        return error
    }

    /// `LINE:COL: error: MESSAGE`, `offset N: error: MESSAGE`, or `error: MESSAGE`.
    public var description: String {
        let where_ = location.shortDescription
        return where_.isEmpty ? "error: \(message)" : "\(where_): error: \(message)"
    }

    /// The message as `lint` prints it for a file: `PATH:LINE:COL: error: MESSAGE`
    /// for text formats and `PATH: offset N: error: MESSAGE` for binary and archives.
    /// Always one line: line breaks inside the message, like every control
    /// character, are escaped (`\n`, `\u{1b}`), as `TerminalText` writes them.
    ///
    /// - Parameter path: The file name the line starts with.
    /// - Returns: The line, without a line break.
    public func formatted(path: String) -> String {
        location.formatted(path: path, severity: "error", message: message)
    }

    /// `text` on one line and safe on a terminal: leading and trailing line
    /// breaks and spaces dropped, and the control characters left (a line
    /// break inside, from a key or class name) escaped as `TerminalText`
    /// escapes them, as `dump` shows them in strings; key paths of more than
    /// 24 steps cut to their start and end (`KeyPathText`).
    package static func oneLine(_ text: String) -> String {
        let isEdge: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isEdge($0) }), let last = text.lastIndex(where: { !isEdge($0) }) else { return "" }
        return TerminalText.escaped(KeyPathText.shorteningPaths(in: String(text[first...last])))
    }
}
