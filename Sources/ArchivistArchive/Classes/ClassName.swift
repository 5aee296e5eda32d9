/// A class name as archived (`$classname`) and in readable form: Swift classes
/// are archived by macOS under their mangled runtime names.
public struct ClassName: Hashable, Sendable, CustomStringConvertible {
    /// The name as written in the archive.
    public let archived: String
    /// The readable name (`MusicBox.CPU.CPUCoder`), equal to `archived` when it
    /// is not mangled.
    public let readable: String

    /// A class name as archived.
    public init(archived: String) {
        self.archived = archived
        self.readable = SwiftDemangler.demangle(archived) ?? archived
    }

    /// True when `name` is this class in either spelling.
    public func matches(_ name: String) -> Bool {
        name == archived || name == readable || SwiftDemangler.demangle(name) == readable
    }

    /// The readable name, with the archived one in brackets when they differ.
    public var description: String {
        readable == archived ? readable : "\(readable) (\(archived))"
    }
}
