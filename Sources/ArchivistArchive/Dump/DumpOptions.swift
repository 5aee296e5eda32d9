import ArchivistCore

/// How `dump` renders.
public struct DumpOptions: Sendable {
    /// Containers deeper than this are shown as `…` (nil: no limit).
    public var maxDepth: Int?
    /// Decode `<data>` values that hold a property list or keyed archive.
    public var expandNestedArchives: Bool

    /// Colour class names, labels, inline markers and strings with ANSI escapes
    /// (for terminals; the command turns it on only for a terminal without NO_COLOR).
    package var color: Bool = false
    /// A text that depends only on the values, for diffs (`git diff` textconv):
    /// dictionary keys and object fields sorted, shared objects labelled in
    /// order of appearance rather than by `$objects` index, no `$objects`
    /// entry count, data in full up to 64 bytes and with a checksum beyond.
    public var stable: Bool = false
    /// The most values a view may show: an object or value referred to from
    /// several places is shown (or, shared, referred to) at each, so like
    /// conversions, a view counts every value it shows, and a small archive
    /// that describes a huge view is refused rather than shown.
    public var maxValues: Int = Limits.default.maxObjects
    /// The most bytes of strings and data a view may show again: a value or
    /// object shared by several places is shown in full at each, and from its
    /// second showing on its length counts, so a small archive whose long
    /// string is referred to from many places is refused rather than shown.
    /// A view never repeats more than 16 times its input (at least 4 MiB)
    /// whatever this says; the text view shows a long shared string or data
    /// once and refers to it after (`-> @N`).
    public var maxSharedBytes: Int = Limits.default.maxSharedExpansion
    /// The levels of data-inside-data entered to what is shown
    /// (`NestedDocuments` decides how deep it goes).
    var nestedLevel = 0
    /// The deepest an archive's objects are shown, whatever `maxDepth` says
    /// (object graphs can be chains of any length).
    static let hardDepthLimit = 256

    /// Options as given.
    ///
    /// - Parameters:
    ///   - maxDepth: Containers deeper than this are shown as `…` (nil: no limit).
    ///   - expandNestedArchives: Decode `<data>` values that hold a property
    ///     list or an archive.
    public init(maxDepth: Int? = nil, expandNestedArchives: Bool = true) {
        self.maxDepth = maxDepth
        self.expandNestedArchives = expandNestedArchives
    }

    /// `text` in an ANSI colour when colour is on.
    func paint(_ text: String, _ color: DumpColor) -> String {
        self.color ? "\u{1B}[\(color.rawValue)m" + text + "\u{1B}[0m" : text
    }

    /// The depth beyond which containers and objects are elided.
    var depthLimit: Int { min(maxDepth ?? Self.hardDepthLimit, Self.hardDepthLimit) }
}

/// The colours `dump` uses.
enum DumpColor: String {
    /// Class names.
    case className = "1;36"
    /// `@N` labels and `-> @N` references.
    case label = "35"
    /// `(inline …)` markers.
    case inline = "33"
    /// Strings.
    case string = "32"
}
