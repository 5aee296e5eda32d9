/// How `dump` renders.
public struct DumpOptions: Sendable {
    /// Containers deeper than this are shown as `…` (nil: no limit).
    public var maxDepth: Int?
    /// Decode `<data>` values that hold a property list or keyed archive.
    public var expandNestedArchives: Bool

    /// How many levels of data-inside-data are decoded.
    var nestedLevels = 8
    /// The deepest an archive's objects are shown, whatever `maxDepth` says
    /// (object graphs can be chains of any length).
    static let hardDepthLimit = 256

    /// Options as given.
    public init(maxDepth: Int? = nil, expandNestedArchives: Bool = true) {
        self.maxDepth = maxDepth
        self.expandNestedArchives = expandNestedArchives
    }

    /// The depth beyond which containers and objects are elided.
    var depthLimit: Int { min(maxDepth ?? Self.hardDepthLimit, Self.hardDepthLimit) }
}
