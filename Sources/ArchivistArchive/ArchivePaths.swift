import ArchivistCore

/// The breadth-first spanning tree of an archive: for each object, the object
/// and field through which it is first reached from `$top`. Paths are built on
/// demand, so a long chain of objects costs one entry per object rather than
/// one ever-longer string per object. A path is one `get` and `set` take:
/// dotted, `\.` for a dot in a key, elements of Foundation collections by
/// their index (`root.cores.0`) and values of dictionaries by their key.
public struct ArchivePaths: Sendable {
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

    private(set) var links: [Link]
    /// For each reached object, the number of steps of its path.
    private var depths: [Int]
    /// For each reached object, the first object on its path (itself
    /// included) whose path has at least ``headSteps`` steps: the start of a
    /// long path is read from there, so showing it never walks the whole path.
    private var anchors: [Int]

    /// The most steps a path shows; longer ones keep their start and end.
    public static let shownSteps = 24
    /// The steps a cut path keeps from its start.
    static let headSteps = shownSteps / 3

    init(count: Int) {
        links = Array(repeating: .unreached, count: count)
        depths = Array(repeating: 0, count: count)
        anchors = Array(repeating: 0, count: count)
    }

    func isReached(_ object: Int) -> Bool {
        guard links.indices.contains(object), case .unreached = links[object] else { return true }
        return false
    }

    /// Records how `object` is first reached; its parent must be reached
    /// already (breadth-first order guarantees it).
    mutating func set(_ object: Int, _ link: Link) {
        links[object] = link
        guard let parent = link.parent, depths.indices.contains(parent) else {
            depths[object] = link.stepCount
            anchors[object] = object
            return
        }
        // Saturating: steps are bounded by the input, but never trusted to be.
        let (depth, overflow) = depths[parent].addingReportingOverflow(link.stepCount)
        depths[object] = overflow ? Int.max : depth
        anchors[object] = depths[parent] >= Self.headSteps ? anchors[parent] : object
    }

    /// The key path by which `object` is first reached from `$top`
    /// (`root.cpu_coder.cores.1`), or nil when it is unreachable. A path of
    /// more than ``shownSteps`` steps keeps its first and last steps with `…`
    /// between them.
    public func path(to object: Int) -> String? {
        var walked = 0
        return path(to: object, walked: &walked)
    }

    /// `path(to:)`, adding to `walked` the links it follows: at most about
    /// ``shownSteps`` (plus one inline step list) whatever the path's length.
    func path(to object: Int, walked: inout Int) -> String? {
        guard links.indices.contains(object), !isUnreached(object) else { return nil }
        let depth = depths[object]
        guard depth > Self.shownSteps else {
            guard let steps = lastSteps(of: object, count: depth, walked: &walked) else { return nil }
            return PlistKeyPath(components: steps).description
        }
        let anchor = anchors[object]
        guard let start = lastSteps(of: anchor, count: depths[anchor], walked: &walked),
              let end = lastSteps(of: object, count: Self.shownSteps - Self.headSteps, walked: &walked) else { return nil }
        return PlistKeyPath(components: Array(start.prefix(Self.headSteps))).description + ".…."
            + PlistKeyPath(components: end).description
    }

    private func isUnreached(_ object: Int) -> Bool {
        if case .unreached = links[object] { return true }
        return false
    }

    /// The last `count` steps of the path to `object` (fewer when the path is
    /// shorter), walking up only as far as they need; nil when the walk
    /// leaves the reached objects.
    private func lastSteps(of object: Int, count: Int, walked: inout Int) -> [String]? {
        var reversed: [String] = []
        var current = object
        // Breadth-first parents are strictly nearer $top, so the walk ends;
        // it is bounded by the object count besides.
        for _ in 0...links.count {
            guard reversed.count < count else { break }
            guard links.indices.contains(current) else { return nil }
            walked += 1
            switch links[current] {
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
        let step = PlistKeyPath(components: [key]).description
        return base.isEmpty ? step : base + "." + step
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
        if steps.count == 1, case .key(let k) = steps[0] {
            switch self {
            case .list: if let n = Self.numbered(k) { return .index(parent: parent, n) }
            case .attributedString: if k == "NSAttributes" { return .field(parent: parent, field: "attributes") }
            case .map, .fields: break
            }
            return .field(parent: parent, field: k)
        }
        return .steps(parent: parent, steps.map { step in
            switch step {
            case .key(let k): return k
            case .index(let i): return String(i)
            }
        })
    }

    /// N of `NS.object.N` (NSOrderedSet as swift-corelibs-foundation writes
    /// it) and of `NS.objectN` (NSCountedSet), which `get` takes as index N.
    private static func numbered(_ key: String) -> Int? {
        guard key.hasPrefix("NS.object") else { return nil }
        var rest = key.dropFirst("NS.object".count)
        if rest.first == "." { rest = rest.dropFirst() }
        guard !rest.isEmpty, rest.allSatisfy(\.isASCII) else { return nil }
        return Int(rest)
    }
}
