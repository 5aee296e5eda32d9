import ArchivistCore

/// A custom class as the archives hold it after a migration: its archived
/// names and its fields, each read as secure decoding must read it. Folded
/// from every object of the class in every input.
struct SecureCodingClass: Sendable {
    /// How a field is stored.
    enum Storage: Sendable, Equatable {
        /// Inline in the object's dictionary (the rules keep it there):
        /// `decodeInteger`, `decodeDouble`, `decodeFloat` or `decodeBool`.
        case inline(SecureNumberKind)
        /// A reference; nil when only `$null` was seen.
        case object(SecureFieldShape?)
    }

    /// A field.
    struct Field: Sendable {
        var key: String
        var storage: Storage
        /// Some object lacks it or holds `$null` there.
        var optional: Bool
        /// How many objects hold it.
        var seen: Int
        /// Why the generated type may need a hand's touch.
        var notes: [String] = []

        /// True when the field is read with `decodeInteger` and its kin.
        var isInline: Bool {
            if case .inline = storage { return true }
            return false
        }
    }

    /// The class as Swift code of its module names it (`CPU.CPUCoder`).
    var swiftType: String
    /// The names it is archived under, each once.
    var archivedNames: [String]
    /// Its custom superclass (as Swift names it), if any.
    var superclass: String?
    /// The fields, in the order first met.
    var fields: [Field] = []
    /// Each field's index in `fields`, by key (code points: `PlistKey`).
    private var fieldIndex: [PlistKey: Int] = [:]
    /// How many objects it was folded from.
    var objects = 0

    /// A class with no object folded in yet.
    init(swiftType: String, archivedNames: [String]) {
        self.swiftType = swiftType
        self.archivedNames = archivedNames
    }

    /// Folds one object's fields in.
    mutating func add(_ found: [(key: String, storage: Storage)]) {
        objects += 1
        for (key, storage) in found {
            let isNull = storage == .object(nil)
            guard let i = fieldIndex[PlistKey(key)] else {
                fieldIndex[PlistKey(key)] = fields.count
                fields.append(Field(key: key, storage: storage, optional: isNull || objects > 1, seen: 1))
                continue
            }
            fields[i].seen += 1
            if isNull { fields[i].optional = true; continue }
            switch (fields[i].storage, storage) {
            case (.object(nil), _):
                fields[i].storage = storage
            case (.object(let a?), .object(let b?)):
                if let merged = a.merged(with: b) {
                    fields[i].storage = .object(merged)
                } else {
                    note("also holds \(b.swift): the type is the first seen", at: i)
                }
            case (.inline(let a), .inline(let b)) where a != b:
                if a == .bool || b == .bool { note("also holds \(b.swift) inline: the type is the first seen", at: i) } else { fields[i].storage = .inline(.double) }
            case (.inline, .object), (.object, .inline):
                note("stored inline in some objects and as an object in others: box it (rules \"box\": true) or keep it inline everywhere", at: i)
            default:
                continue
            }
        }
        for i in fields.indices where fields[i].seen < objects { fields[i].optional = true }
    }

    private mutating func note(_ text: String, at i: Int) {
        if !fields[i].notes.contains(text) { fields[i].notes.append(text) }
    }
}
