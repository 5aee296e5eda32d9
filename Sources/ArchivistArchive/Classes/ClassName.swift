/// A class name as archived (`$classname`) and in readable form: Swift classes
/// are archived by macOS under their mangled runtime names.
public struct ClassName: Hashable, Sendable, CustomStringConvertible {
    /// The name as written in the archive.
    public let archived: String
    /// The readable name (`MusicBox.CPU.CPUCoder`), equal to `archived` when it
    /// is not mangled.
    public let readable: String

    /// A class name as archived.
    ///
    /// - Parameter archived: The name as `$classname` holds it, mangled or not.
    public init(archived: String) {
        self.archived = archived
        self.readable = SwiftDemangler.demangle(archived) ?? archived
    }

    /// True when `name` is this class in either spelling.
    ///
    /// - Parameter name: A class name, mangled or readable.
    /// - Returns: True when it names this class.
    public func matches(_ name: String) -> Bool {
        name == archived || name == readable || SwiftDemangler.demangle(name) == readable
    }

    /// How Swift code of the class's own module names the type: the readable
    /// name without its module (`MusicBox.CPU.CPUCoder` is `CPU.CPUCoder`,
    /// `Main.Box<Swift.String>` is `Box<Swift.String>`); a name without a
    /// module (an Objective-C class) as it is.
    public var swiftType: String {
        let generic = readable.firstIndex(of: "<") ?? readable.endIndex
        guard let dot = readable[..<generic].firstIndex(of: ".") else { return readable }
        return String(readable[readable.index(after: dot)...])
    }

    /// The readable name, with the archived one in brackets when they differ.
    public var description: String {
        readable == archived ? readable : "\(readable) (\(archived))"
    }
}
