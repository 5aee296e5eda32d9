/// Bounds every reader enforces, so that hostile input cannot exhaust the stack,
/// memory or time. The defaults suit any real property list.
public struct Limits: Sendable, Equatable {
    /// Maximum nesting depth of containers (Foundation and libplist use 512).
    public var maxDepth: Int = 512
    /// Maximum number of objects (nodes) one input may produce, shared ones
    /// counted at each use: this bounds what a small file with shared
    /// references can make a writer produce (converting 10,000,000 values takes
    /// about a second).
    public var maxObjects: Int = 10_000_000
    /// Maximum bytes of string and data content that shared references may
    /// add: each time a binary plist's shared string or data is used again,
    /// its length counts (a 1 MB value referenced from 2,000 places adds about
    /// 2 GB to what a writer produces). Values used once do not count.
    public var maxSharedExpansion: Int = 1 << 30
    /// Maximum length in bytes of one string or data value.
    public var maxValueLength: Int = 1 << 31
    /// Maximum size of an input in bytes.
    public var maxInputSize: Int = 1 << 32
    /// The largest capacity a reader reserves up front from a count taken from
    /// the input; bigger collections grow as they are filled.
    public var maxReservation: Int = 1 << 18

    /// The default limits.
    public init() {}

    /// The default limits.
    public static let `default` = Limits()
}
