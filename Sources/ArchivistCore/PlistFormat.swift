/// The property-list formats Archivist reads and writes.
public enum PlistFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Apple's XML property list (`xml1`).
    case xml
    /// Apple's binary property list, `bplist00` (`binary1`).
    case binary
    /// JSON.
    case json
    /// The old-style ASCII (NeXTSTEP/OpenStep) format, including `.strings` files.
    case openstep

    /// The format for a name as users type it: `xml`, `xml1`, `binary`, `binary1`,
    /// `bplist`, `json`, `openstep`, `ascii`, `ascii1`.
    ///
    /// - Parameter name: The name, in any case; nil for an unknown name.
    public init?(name: String) {
        switch name.lowercased() {
        case "xml", "xml1": self = .xml
        case "binary", "binary1", "bplist", "bplist00": self = .binary
        case "json": self = .json
        case "openstep", "ascii", "ascii1", "old", "nextstep": self = .openstep
        default: return nil
        }
    }

    /// The lowercase name.
    public var description: String { rawValue }
}
