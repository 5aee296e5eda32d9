import ArchivistCore

/// How `CodableExport` writes what JSON has no type for.
public struct CodableOptions: Sendable, Equatable {
    /// How dates are written, as `JSONEncoder.DateEncodingStrategy` names them.
    public enum DateStrategy: String, CaseIterable, Sendable {
        /// Seconds since 2001-01-01 as a number (`JSONEncoder`'s default).
        case deferred
        /// `YYYY-MM-DDTHH:MM:SSZ` strings.
        case iso8601
        /// Seconds since 1970-01-01 as a number.
        case seconds1970
        /// Milliseconds since 1970-01-01 as a number.
        case milliseconds1970
    }

    /// What happens to a reference back to an object that contains it.
    public enum CyclePolicy: String, CaseIterable, Sendable {
        /// A cycle is an error naming its path (JSON cannot hold one).
        case error
        /// The back-reference is left out (a field is dropped, an array element skipped).
        case omit
    }

    /// How dates are written.
    public var dates: DateStrategy
    /// What happens to cycles.
    public var cycles: CyclePolicy
    /// Keep dates as `.date` and data as `.data` (for `KeyedArchiveDecoder`)
    /// instead of their JSON forms.
    public var nativeLeaves: Bool
    /// The most values the result may hold: shared objects are written at
    /// every reference, so a small archive can describe a huge tree.
    public var maxValues: Int
    /// The most bytes of strings and data the result may repeat: a string or
    /// data shared by several objects is written at each, and from its second
    /// time on its length counts (`Limits.maxSharedExpansion` by default), so
    /// one long string referred to from many places cannot make gigabytes.
    /// An archive read from a tree never repeats more than 16 times that
    /// tree's size (at least 4 MiB) whatever this says.
    public var maxSharedBytes: Int = Limits.default.maxSharedExpansion
    /// The deepest nesting of objects followed.
    public var maxDepth: Int
    /// Make a custom class that the rules do not name an error instead of
    /// an object of its fields (where the rules must describe every struct).
    public var requireClassRules: Bool

    /// Options; the defaults write what `JSONEncoder()` writes.
    ///
    /// - Parameters:
    ///   - dates: How dates are written.
    ///   - cycles: What a reference back into its own container becomes.
    ///   - nativeLeaves: Keep dates and data as themselves (for a decoder).
    ///   - maxValues: The most values the export may make.
    ///   - maxDepth: The deepest the export may nest.
    ///   - requireClassRules: Refuse custom classes the rules do not name.
    public init(dates: DateStrategy = .deferred, cycles: CyclePolicy = .error, nativeLeaves: Bool = false,
                maxValues: Int = 10_000_000, maxDepth: Int = 512, requireClassRules: Bool = false) {
        self.dates = dates
        self.cycles = cycles
        self.nativeLeaves = nativeLeaves
        self.maxValues = maxValues
        self.maxDepth = maxDepth
        self.requireClassRules = requireClassRules
    }
}
