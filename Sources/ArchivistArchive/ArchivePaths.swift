import ArchivistCore

/// The breadth-first spanning tree of an archive: for each object, the object
/// and field through which it is first reached from `$top`. Paths are built on
/// demand, so a long chain of objects costs one entry per object rather than
/// one ever-longer string per object. A path is one `get` and `set` take:
/// dotted, `\.` for a dot in a key, elements of Foundation collections by
/// their index (`root.cores.0`) and values of dictionaries by their key.
package struct ArchivePaths: Sendable {
    /// How an object is first reached.
    enum Link: Sendable {
        case unreached
        case top(String)
        /// One key of the parent (a field, or a key of an NSDictionary).
        case field(parent: Int, field: String)
        /// `key.index`, kept apart until a path is shown.
        case element(parent: Int, key: String, index: Int)
        /// An element of a Foundation array, set or counted set, by its position.
        case index(parent: Int, Int)
        /// Steps deeper inside a field (an inline dictionary or array holding UIDs).
        case steps(parent: Int, [String])

        /// The object this one is reached from; nil at `$top`.
        var parent: Int? {
            switch self {
            case .unreached, .top: return nil
            case .field(let parent, _), .element(let parent, _, _), .index(let parent, _), .steps(let parent, _): return parent
            }
        }

        /// The steps this link adds to a path.
        var stepCount: Int {
            switch self {
            case .unreached: return 0
            case .top, .field, .index: return 1
            case .element: return 2
            case .steps(_, let steps): return steps.count
            }
        }
    }

    /// How each object is first reached, 12 bytes an object: its parent,
    /// and the link's kind with its name and index (`Entry`). Names are
    /// stored once each (`names`): an archive has few distinct field names.
    private var entries: [Entry]
    /// The kind of each object's link (`Kind`).
    private var kinds: [UInt8]
    /// Field names and `$top` keys, each once.
    private var names: [String] = []
    private var nameIDs: [String: UInt32] = [:]
    /// The name stored last, looked at before `nameIDs`.
    private var lastName = 0
    /// Field names by the tree node of their key (`keyText(_:in:)`), looked
    /// at before the others: a walk of an archive meets the same few key
    /// nodes over and over, so each is decoded and looked up once.
    private var keyNames = [KeyName](repeating: KeyName(), count: ArchivePaths.keyNameSlots)
    private static let keyNameSlots = 64
    /// The steps of `.steps` links (rare: UIDs inside inline values).
    private var stepLists: [[String]] = []
    /// For each reached object, the number of steps of its path (saturating).
    private var depths: [UInt32]
    /// For each reached object, the first object on its path (itself
    /// included) whose path has at least ``headSteps`` steps: the start of a
    /// long path is read from there, so showing it never walks the whole path.
    private var anchors: [UInt32]

    /// A stored link: the parent object, and a name and an index whose
    /// meaning `Kind` gives.
    private struct Entry {
        var parent: UInt32 = 0
        var name: UInt32 = 0
        var index: UInt32 = 0
    }

    private enum Kind: UInt8 {
        case unreached, top, field, element, index, steps
    }

    /// A key node's text and its name's ID.
    private struct KeyName {
        var node = -1
        var text = ""
        var id: UInt32 = 0
    }

    /// The most steps a path shows; longer ones keep their start and end.
    package static let shownSteps = 24
    /// The steps a cut path keeps from its start.
    static let headSteps = shownSteps / 3

    init(count: Int) {
        entries = Array(repeating: Entry(), count: count)
        kinds = Array(repeating: Kind.unreached.rawValue, count: count)
        depths = Array(repeating: 0, count: count)
        anchors = Array(repeating: 0, count: count)
    }

    func isReached(_ object: Int) -> Bool {
        guard kinds.indices.contains(object) else { return true }
        return kinds[object] != Kind.unreached.rawValue
    }

    /// The text of key node `node` of `tree`, decoded once while it stays in
    /// the cache; a link through it is then stored with `set(_:_:keyNode:)`
    /// without looking its name up again.
    mutating func keyText(_ node: Int, in tree: PlistTree) -> String {
        let slot = node & (Self.keyNameSlots - 1)
        if keyNames[slot].node == node { return keyNames[slot].text }
        let text = tree.string(at: node) ?? ""
        keyNames[slot] = KeyName(node: node, text: text, id: nameID(text))
        return text
    }

    /// Records how `object` is first reached, through a field whose key is
    /// node `keyNode` (its text read with `keyText(_:in:)`).
    mutating func set(_ object: Int, _ link: Link, keyNode: Int) {
        let known = keyNames[keyNode & (Self.keyNameSlots - 1)]
        set(object, link, known: known.node == keyNode ? known : nil)
    }

    /// Records how `object` is first reached; its parent must be reached
    /// already (breadth-first order guarantees it).
    mutating func set(_ object: Int, _ link: Link) {
        set(object, link, known: nil)
    }

    private mutating func set(_ object: Int, _ link: Link, known: KeyName?) {
        store(object, link, known: known)
        guard let parent = link.parent, depths.indices.contains(parent) else {
            depths[object] = UInt32(clamping: link.stepCount)
            anchors[object] = UInt32(truncatingIfNeeded: object)
            return
        }
        // Saturating: steps are bounded by the input, but never trusted to be.
        let (depth, overflow) = depths[parent].addingReportingOverflow(UInt32(clamping: link.stepCount))
        depths[object] = overflow ? UInt32.max : depth
        anchors[object] = Int(depths[parent]) >= Self.headSteps ? anchors[parent] : UInt32(truncatingIfNeeded: object)
    }

    /// Stores a link compactly; an index beyond 32 bits (a key `NS.objectN`
    /// may name any) is kept as its steps, which show the same.
    private mutating func store(_ object: Int, _ link: Link, known: KeyName? = nil) {
        func small(_ n: Int) -> UInt32? { n >= 0 && n <= Int(UInt32.max) ? UInt32(n) : nil }
        func nameID(_ name: String) -> UInt32 {
            if let known, known.text == name { return known.id }
            return self.nameID(name)
        }
        let parent = UInt32(truncatingIfNeeded: link.parent ?? 0)
        switch link {
        case .unreached:
            (kinds[object], entries[object]) = (Kind.unreached.rawValue, Entry())
        case .top(let key):
            (kinds[object], entries[object]) = (Kind.top.rawValue, Entry(parent: 0, name: nameID(key), index: 0))
        case .field(_, let field):
            (kinds[object], entries[object]) = (Kind.field.rawValue, Entry(parent: parent, name: nameID(field), index: 0))
        case .element(let p, let key, let i):
            guard let i = small(i) else { return store(object, .steps(parent: p, [key, String(i)])) }
            (kinds[object], entries[object]) = (Kind.element.rawValue, Entry(parent: parent, name: nameID(key), index: i))
        case .index(let p, let i):
            guard let i = small(i) else { return store(object, .steps(parent: p, [String(i)])) }
            (kinds[object], entries[object]) = (Kind.index.rawValue, Entry(parent: parent, name: 0, index: i))
        case .steps(_, let steps):
            stepLists.append(steps)
            (kinds[object], entries[object]) = (Kind.steps.rawValue, Entry(parent: parent, name: 0, index: UInt32(truncatingIfNeeded: stepLists.count - 1)))
        }
    }

    private mutating func nameID(_ name: String) -> UInt32 {
        // Objects reached one after another often share a field name.
        if lastName < names.count, names[lastName] == name { return UInt32(truncatingIfNeeded: lastName) }
        let id: UInt32
        if let known = nameIDs[name] {
            id = known
        } else {
            id = UInt32(truncatingIfNeeded: names.count)
            names.append(name)
            nameIDs[name] = id
        }
        lastName = Int(id)
        return id
    }

    /// The link of a reached object as it was set.
    private func link(_ object: Int) -> Link {
        let e = entries[object]
        let parent = Int(e.parent)
        switch Kind(rawValue: kinds[object]) ?? .unreached {
        case .unreached: return .unreached
        case .top: return .top(names[Int(e.name)])
        case .field: return .field(parent: parent, field: names[Int(e.name)])
        case .element: return .element(parent: parent, key: names[Int(e.name)], index: Int(e.index))
        case .index: return .index(parent: parent, Int(e.index))
        case .steps: return .steps(parent: parent, stepLists[Int(e.index)])
        }
    }

    /// The key path by which `object` is first reached from `$top`
    /// (`root.cpu_coder.cores.1`), or nil when it is unreachable. A path of
    /// more than `shownSteps` steps keeps its first and last steps with `…`
    /// between them.
    package func path(to object: Int) -> String? {
        var walked = 0
        return path(to: object, walked: &walked)
    }

    /// `path(to:)`, adding to `walked` the links it follows: at most about
    /// `shownSteps` (plus one inline step list) whatever the path's length.
    func path(to object: Int, walked: inout Int) -> String? {
        guard kinds.indices.contains(object), isReached(object) else { return nil }
        let depth = Int(depths[object])
        guard depth > Self.shownSteps else {
            guard let steps = lastSteps(of: object, count: depth, walked: &walked) else { return nil }
            return Self.spelled(steps)
        }
        let anchor = Int(anchors[object])
        guard let start = lastSteps(of: anchor, count: Int(depths[anchor]), walked: &walked),
              let end = lastSteps(of: object, count: Self.shownSteps - Self.headSteps, walked: &walked) else { return nil }
        return Self.spelled(start.prefix(Self.headSteps)) + ".…." + Self.spelled(end)
    }

    /// The last `count` steps of the path to `object` (fewer when the path is
    /// shorter), walking up only as far as they need; nil when the walk
    /// leaves the reached objects.
    private func lastSteps(of object: Int, count: Int, walked: inout Int) -> [String]? {
        var reversed: [String] = []
        var current = object
        // Breadth-first parents are strictly nearer $top, so the walk ends;
        // it is bounded by the object count besides.
        for _ in 0...kinds.count {
            guard reversed.count < count else { break }
            guard kinds.indices.contains(current) else { return nil }
            walked += 1
            switch link(current) {
            case .unreached:
                return nil
            case .top(let key):
                reversed.append(key)
                return Array(reversed.reversed().suffix(count))
            case .field(let parent, let field):
                reversed.append(field)
                current = parent
            case .element(let parent, let key, let index):
                reversed.append(String(index))
                reversed.append(key)
                current = parent
            case .index(let parent, let index):
                reversed.append(String(index))
                current = parent
            case .steps(let parent, let steps):
                reversed.append(contentsOf: steps.reversed())
                current = parent
            }
        }
        return Array(reversed.reversed().suffix(count))
    }

    /// A key path inside an archive that is itself held in data at `outer` (a
    /// key path of the enclosing property list or archive): one path `get`
    /// follows through the data (`currentUser.root.age`).
    static func nested(_ inner: String, in outer: String) -> String {
        if outer.isEmpty { return inner }
        if inner.isEmpty { return outer }
        return outer + "." + inner
    }

    /// A key joined to a key path, escaped as `get` reads it.
    static func joined(_ base: String, _ key: String) -> String {
        let step = spelled([key])
        return base.isEmpty ? step : base + "." + step
    }

    /// Components spelt as a dotted key path (``PlistKeyPath``'s spelling):
    /// joined by dots, a dot or backslash inside a component escaped.
    static func spelled<C: Collection>(_ components: C) -> String where C.Element == String {
        var out = ""
        for (i, component) in components.enumerated() {
            if i > 0 { out.append(".") }
            for c in component {
                if c == "." || c == "\\" { out.append("\\") }
                out.append(c)
            }
        }
        return out
    }
}

/// What `get` sees of the object a reference is found in, to name the step to
/// that reference as `get` takes it.
enum ContainerShape {
    /// NSArray, NSSet, NSOrderedSet, NSCountedSet: elements by position.
    case list
    /// NSDictionary: values by their key (nil where the key is not a string).
    case map(keys: [String?])
    /// NSAttributedString: its attributes as `attributes`.
    case attributedString
    /// Any other object: fields by key.
    case fields

    /// The link to a reference found at `steps` inside object `parent`.
    func link(_ steps: [FieldStep], parent: Int) -> ArchivePaths.Link {
        if steps.count == 2, case .key(let k) = steps[0], case .index(let i) = steps[1] {
            return link(key: k, index: i, parent: parent)
        }
        if steps.count == 1, case .key(let k) = steps[0] {
            return link(key: k, parent: parent)
        }
        return .steps(parent: parent, steps.map { step in
            switch step {
            case .key(let k): return k
            case .index(let i): return String(i)
            }
        })
    }

    /// The link to a reference at element `i` of field `k` of object `parent`.
    func link(key k: String, index i: Int, parent: Int) -> ArchivePaths.Link {
        switch self {
        case .list where k == "NS.objects":
            return .index(parent: parent, i)
        case .map(let keys) where k == "NS.objects" && i < keys.count:
            if let key = keys[i] { return .field(parent: parent, field: key) }
        case .list, .map, .attributedString, .fields:
            break
        }
        return .element(parent: parent, key: k, index: i)
    }

    /// The link to a reference in field `k` of object `parent`.
    func link(key k: String, parent: Int) -> ArchivePaths.Link {
        switch self {
        case .list: if let n = Self.numbered(k) { return .index(parent: parent, n) }
        case .attributedString: if k == "NSAttributes" { return .field(parent: parent, field: "attributes") }
        case .map, .fields: break
        }
        return .field(parent: parent, field: k)
    }

    /// N of `NS.object.N` (NSOrderedSet as swift-corelibs-foundation writes
    /// it) and of `NS.objectN` (NSCountedSet), which `get` takes as index N;
    /// N - 1 of `$N` (NSHashTable's members after its options in `$0`).
    private static func numbered(_ key: String) -> Int? {
        if key.hasPrefix("$"), let n = Int(key.dropFirst()), n >= 1 { return n - 1 }
        guard key.hasPrefix("NS.object") else { return nil }
        var rest = key.dropFirst("NS.object".count)
        if rest.first == "." { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.allSatisfy(\.isASCII) else { return nil }
        return Int(rest)
    }
}

/// One step of a field path inside an object: a key or an array index.
enum FieldStep {
    case key(String)
    case index(Int)

    /// `key.key.3.key`, escaped as key paths are (`NS\.objects.3`).
    static func text(_ steps: [FieldStep]) -> String {
        ArchivePaths.spelled(steps.map { step in
            switch step {
            case .key(let k): return k
            case .index(let i): return String(i)
            }
        })
    }
}
