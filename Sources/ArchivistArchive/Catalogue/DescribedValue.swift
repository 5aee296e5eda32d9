import ArchivistCore

/// The value of a catalogued class that every view shows as one described
/// value in place of the object's fields: a UUID, a locale or a time zone
/// by its name, NSValue's geometry, an index set's ranges, AppKit's
/// colours, fonts and named images.
///
/// A class's reader (in ``ClassCatalogue``) fills in what each view needs,
/// and the views read only that, never the class: the text dump and the
/// graph write ``lead`` then ``text``; `dump --json` writes ``entries``;
/// the Codable export gives ``exported`` (which `get` prints when it is a
/// scalar); the Codable schema types it as ``swiftType``; key paths go on
/// into the archived fields when ``keepsFields`` is true.
package struct DescribedValue: Sendable {
    /// What the text dump writes before ``text``.
    package enum Lead: Sendable, Equatable {
        /// The object's class name, and its label when it is shared:
        /// `NSLocale "fr_CH"`, `NSValue point {1.5, 2.0}`.
        case className
        /// A word in place of the class, with no label: `UUID 0F3E2A1C-...`.
        case word(String)
        /// Nothing: the text names what it is (`NSColor(calibratedWhite 0.5
        /// 1)`); the label, when shared, follows it.
        case none
    }

    /// The value's kind (``FoundationObject/Kind``'s name): `uuid`,
    /// `locale`, `timeZone`, `geometry`, `indexes`, `appKit`.
    package var kind: String
    /// The shape of the value: ``ClassShape/text`` for a value that is its
    /// text (a UUID, an identifier, a name), else ``ClassShape/scalar``.
    package var shape: ClassShape
    /// What the text dump writes before the text.
    package var lead: Lead
    /// The one-line text the dumps show (after the lead), unescaped.
    package var text: String
    /// The entries `dump --json` writes after the object's class, in order.
    package var entries: PlistDictionary
    /// The plain value the Codable export gives, and `get` prints when it is
    /// a string, number, date or data.
    package var exported: PlistValue
    /// The Swift type of ``exported`` in the Codable schema (`UUID`,
    /// `CGRect`, `[[Int]]`, `String`).
    package var swiftType: String
    /// The text a reader of strings sees (a UUID's text, a locale's
    /// identifier, a time zone's name); nil for the other kinds.
    package var string: String?
    /// Whether key paths still reach the object's archived fields
    /// (`NSColorName`, `NSLocation`).
    package var keepsFields: Bool

    /// A value that is its text: ``shape`` ``ClassShape/text``, ``string``
    /// the text, key paths stop at it.
    static func text(_ kind: String, _ text: String, lead: Lead, shown: String, entries: PlistDictionary,
                     exported: PlistValue, swiftType: String) -> DescribedValue {
        DescribedValue(kind: kind, shape: .text, lead: lead, text: shown, entries: entries, exported: exported,
                       swiftType: swiftType, string: text, keepsFields: false)
    }

    /// A value of named fields: ``shape`` ``ClassShape/scalar``.
    static func scalar(_ kind: String, lead: Lead, text: String, entries: PlistDictionary, exported: PlistValue,
                       swiftType: String, keepsFields: Bool) -> DescribedValue {
        DescribedValue(kind: kind, shape: .scalar, lead: lead, text: text, entries: entries, exported: exported,
                       swiftType: swiftType, string: nil, keepsFields: keepsFields)
    }
}
