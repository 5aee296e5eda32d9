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
    }

    private(set) var links: [Link]

    /// The most steps a path shows; longer ones keep their start and end.
    public static let shownSteps = 24

    init(count: Int) {
        links = Array(repeating: .unreached, count: count)
    }

    func isReached(_ object: Int) -> Bool {
        guard links.indices.contains(object), case .unreached = links[object] else { return true }
        return false
    }

    mutating func set(_ object: Int, _ link: Link) {
        links[object] = link
    }

    /// The key path by which `object` is first reached from `$top`
    /// (`root.cpu_coder.cores.1`), or nil when it is unreachable. A path of
    /// more than ``shownSteps`` steps keeps its first and last steps with `…`
    /// between them.
    public func path(to object: Int) -> String? {
        // Walk up to $top; breadth-first parents are strictly nearer $top, so
        // the walk ends, and it is bounded by the object count besides.
        var reversed: [String] = []
        var current = object
        for _ in 0...links.count {
            guard links.indices.contains(current) else { return nil }
            switch links[current] {
            case .unreached:
                return nil
            case .top(let key):
                reversed.append(key)
                return Self.render(Array(reversed.reversed()))
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
        return nil
    }

    private static func render(_ steps: [String]) -> String {
        guard steps.count > shownSteps else { return PlistKeyPath(components: steps).description }
        let head = shownSteps / 3
        return PlistKeyPath(components: Array(steps[..<head])).description + ".…."
            + PlistKeyPath(components: Array(steps[(steps.count - (shownSteps - head))...])).description
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
