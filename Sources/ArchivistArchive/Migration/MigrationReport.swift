import ArchivistCore

/// What a migration changed (or would change) in one input, counted per kind
/// of change in the order first made.
public struct MigrationReport: Sendable, Equatable {
    /// One kind of change.
    public enum Change: Hashable, Sendable {
        /// Objects of a class given a new class name.
        case renameClass(from: String, to: String)
        /// A field renamed in objects of a class.
        case renameKey(className: String, from: String, to: String)
        /// A field removed from objects of a class.
        case removeKey(className: String, key: String)
        /// An inline primitive boxed into a referenced NSNumber.
        case box(className: String, key: String)
        /// A nested archive (of its root's class) replaced by its Codable encoding.
        case encodeCodable(className: String, encoding: String)

        /// The same kind with the same names, compared by code points
        /// (`PlistKeys`): keys `é` and `e` + U+0301 are two changes.
        public static func == (lhs: Change, rhs: Change) -> Bool {
            switch (lhs, rhs) {
            case let (.renameClass(a, b), .renameClass(c, d)), let (.removeKey(a, b), .removeKey(c, d)),
                 let (.box(a, b), .box(c, d)), let (.encodeCodable(a, b), .encodeCodable(c, d)):
                return PlistKeys.same(a, c) && PlistKeys.same(b, d)
            case let (.renameKey(a, b, c), .renameKey(d, e, f)):
                return PlistKeys.same(a, d) && PlistKeys.same(b, e) && PlistKeys.same(c, f)
            case (.renameClass, _), (.renameKey, _), (.removeKey, _), (.box, _), (.encodeCodable, _):
                return false
            }
        }

        /// Hashes the kind and the names' UTF-8, consistently with `==`.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case let .renameClass(a, b): hasher.combine(0); hasher.combine(PlistKey(a)); hasher.combine(PlistKey(b))
            case let .renameKey(a, b, c): hasher.combine(1); hasher.combine(PlistKey(a)); hasher.combine(PlistKey(b)); hasher.combine(PlistKey(c))
            case let .removeKey(a, b): hasher.combine(2); hasher.combine(PlistKey(a)); hasher.combine(PlistKey(b))
            case let .box(a, b): hasher.combine(3); hasher.combine(PlistKey(a)); hasher.combine(PlistKey(b))
            case let .encodeCodable(a, b): hasher.combine(4); hasher.combine(PlistKey(a)); hasher.combine(PlistKey(b))
            }
        }
    }

    /// One line of the report: where (empty for the input's own archive, else
    /// the key path of the `<data>` value holding a nested archive), what, and
    /// how many objects.
    public struct Entry: Sendable, Equatable {
        /// The key path of the nested archive, empty for the input itself.
        public var archive: String
        /// The change.
        public var change: Change
        /// How many objects it touched.
        public var count: Int
    }

    /// The changes, in the order first made.
    public private(set) var entries: [Entry] = []
    /// Archives rewritten (the input's own is "", nested ones by key path).
    public private(set) var archives: [String] = []
    /// Where each (archive, change) stands in `entries`, so recording stays
    /// linear in the number of changes however many kinds there are.
    private var entryIndex: [EntryKey: Int] = [:]

    private struct EntryKey: Hashable, Sendable {
        var archive: PlistKey
        var change: Change
    }

    /// An empty report.
    public init() {}

    /// True when nothing changed.
    public var isEmpty: Bool { entries.isEmpty }

    mutating func record(_ change: Change, in archive: String) {
        let key = EntryKey(archive: PlistKey(archive), change: change)
        if let i = entryIndex[key] {
            entries[i].count += 1
        } else {
            entryIndex[key] = entries.count
            entries.append(Entry(archive: archive, change: change, count: 1))
        }
    }

    mutating func noteArchive(_ path: String) {
        if !PlistKeys.contains(path, in: archives) { archives.append(path) }
    }

    /// The report as indented lines (`rename class A -> B (1 object)`).
    public var lines: [String] {
        entries.map { entry in
            let place = entry.archive.isEmpty ? "" : "in \(entry.archive): "
            let what: String
            switch entry.change {
            case .renameClass(let from, let to): what = "rename class \(from) -> \(to)"
            case .renameKey(let cls, let from, let to): what = "rename key \(from) -> \(to) in \(cls)"
            case .removeKey(let cls, let key): what = "remove key \(key) from \(cls)"
            case .box(let cls, let key): what = "box inline \(key) of \(cls) into an NSNumber"
            case .encodeCodable(let cls, let encoding): what = "replace the archive of \(cls) with its \(encoding)"
            }
            return place + what + " (\(counted(entry.count, "object")))"
        }
    }
}
