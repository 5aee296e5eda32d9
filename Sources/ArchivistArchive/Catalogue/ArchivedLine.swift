import ArchivistCore

/// The value of a ``ClassShape/scalar`` class that is shown as one line of
/// named parts: a nib connector (`outlet delegate -> @12 (NSWindowTemplate)
/// from @2 (NSCustomObject)`), a person's name, a CloudKit record ID; or, as
/// a caption before the object's fields, a cell's title or a menu item's.
///
/// Views switch over the parts, never over the class: a word is written as
/// it is, a text quoted, an object as `@N (Class)` once it has been shown
/// (else in full, so nothing is hidden). Key paths still reach the object's
/// archived fields.
package struct ArchivedLine: Sendable, Equatable {
    /// What a part holds.
    package enum Value: Sendable, Equatable {
        /// A name written as it is (`outlet`, `delegate`, `terminate:`).
        case word(String)
        /// A text written quoted (a title, a key path, a record name).
        case text(String)
        /// A reference to another object (`$objects` index).
        case object(Int)
    }

    /// One part of the line.
    package struct Part: Sendable, Equatable {
        /// Its key in `dump --json` and the Codable export.
        package var key: String
        /// The word written before it in the text (`->`, `from`, `key`), if any.
        package var label: String?
        /// What it holds.
        package var value: Value
    }

    /// The entry `dump --json` writes the parts under: `connector`,
    /// `menuItem`, `cell`, `name`, `recordID`, `zoneID`.
    package var kind: String
    /// The parts, in the order the line shows them.
    package var parts: [Part]
    /// Whether the object's archived fields are shown after the line (a
    /// caption, for objects whose other fields the line does not say: a
    /// cell's font and images, a menu item's menu), or the line is all
    /// the views show. A caption holds no object parts.
    package var captions: Bool

    init(_ kind: String, captions: Bool = false, _ parts: [Part] = []) {
        self.kind = kind
        self.captions = captions
        self.parts = parts
    }

    /// Appends a part.
    mutating func add(_ key: String, _ value: Value, label: String? = nil) {
        parts.append(Part(key: key, label: label, value: value))
    }

    /// The object references of the line, in order.
    package var references: [Int] {
        parts.compactMap { if case .object(let r) = $0.value { return r } else { return nil } }
    }

    /// The line as one plain text, each object part written by `object`
    /// (`@N (Class)` in the dumps).
    package func text(object: (Int) -> String) -> String {
        var out = ""
        for part in parts {
            if !out.isEmpty { out += " " }
            if let label = part.label { out += label + " " }
            switch part.value {
            case .word(let w): out += TerminalText.escaped(w)
            case .text(let t): out += DumpText.quoted(t)
            case .object(let r): out += object(r)
            }
        }
        return out
    }

    /// The text with objects as `@N (Class)` by their `$objects` index, a
    /// line object's own text nested once (`zone CKRecordZoneID "Notes" ...`).
    func text(in graph: ObjectGraph, nested: Bool = true) -> String {
        text { r in
            switch graph.nodes[safe: r] {
            case .null?, nil: return "nil"
            case .value(let v)?: return DumpText.scalar(v)
            case .classDescription(let name, _)?: return "<class \(TerminalText.escaped(name.description))>"
            case .object(let o)?:
                if nested, case .line(let line)? = FoundationValue.interpret(o, in: graph) {
                    return TerminalText.escaped(o.className.readable) + " " + line.text(in: graph, nested: false)
                }
                if let s = graph.string(.reference(r)) { return DumpText.quoted(s) }
                return "@\(r) (\(TerminalText.escaped(o.className.readable)))"
            }
        }
    }
}

extension ArchivedLine {
    /// A field that is absent, nil or a string (inline, a string value or an
    /// NSString): `.some(nil)` when absent or nil, nil when it holds anything else.
    static func optionalString(_ field: FieldValue?, in graph: ObjectGraph) -> String?? {
        switch field {
        case nil, .reference(0)?: return .some(nil)
        case let field?: return graph.string(field).map { .some($0) }
        }
    }

    /// A field that is absent, nil or a reference: `.some(nil)` when absent or nil.
    static func optionalObject(_ field: FieldValue?) -> Int?? {
        switch field {
        case nil, .reference(0)?: return .some(nil)
        case .reference(let r)?: return .some(r)
        case .inline?, .references?: return nil
        }
    }
}
