import ArchivistCore
import ArchivistNIB

/// The validated envelope of an `NSKeyedArchiver` archive: `$archiver`,
/// `$version`, `$top` and `$objects`, with every UID in range and every
/// `$class` pointing at a class dictionary.
public struct KeyedArchive: Sendable {
    /// The envelope key that marks the archive an NSArchiver typedstream is
    /// read as (`"$typedstream": "NSArchiver"`), so views name what was read.
    package static let typedstreamEnvelopeKey = "$typedstream"

    /// `$archiver` (always "NSKeyedArchiver" once validated).
    public let archiver: String
    /// "NSArchiver" for the archive a typedstream is read as (``Typedstream``
    /// marks its envelope with `$typedstream`), "NIBArchive" for an iOS
    /// compiled nib's (marked `$nibarchive`); nil for keyed archives.
    package let readFrom: String?
    /// `$version` (100000 for every archiver Apple ships).
    public let version: PlistInteger
    /// The `$top` entries (`root` and any others), in the order read.
    public let top: [(key: String, object: Int)]
    /// The `$top` entries that are plain values, not UIDs (a top-level
    /// `encodeBool(_:forKey:)`, `encodeInteger(_:forKey:)`), with their positions.
    package let topValues: [TopValue]
    /// Every `$top` entry, objects and plain values, in the order read.
    package var topEntries: [(key: String, entry: TopEntry)] { orderedTop(top, topValues) }
    /// `$objects`, index 0 being `$null`: each entry read from the archive's
    /// compact tree when asked for.
    public var objects: ArchiveObjects { ArchiveObjects(storage: storage) }
    /// The tree, `$objects` as its node numbers and each object's class.
    let storage: ArchiveStorage
    /// For each object, the key path by which it is first reached from `$top`
    /// (`paths.path(to: 5)` is `root.cpu_coder.cores[1]`), nil when unreachable.
    package let paths: ArchivePaths
    /// True when the objects `paths` reaches are those a walk of the object
    /// graph's edges from `$top` reaches (every UID followed is a field of
    /// an object, or an element of a field that lists UIDs only).
    let reachIsGraphReach: Bool

    /// True when a tree claims to be a keyed archive: its top node is a
    /// dictionary with any of `$archiver`, `$objects` or `$top` (only the top
    /// dictionary's keys are read).
    ///
    /// - Parameter tree: A document's tree.
    /// - Returns: True when its top dictionary has an archive's keys.
    public static func looksLikeArchive(_ tree: PlistTree) -> Bool {
        guard tree.kind(of: tree.root) == .dictionary else { return false }
        for i in 0..<tree.count(of: tree.root) {
            // By length first: one comparison at most per key.
            let key = tree.entry(i, of: tree.root).key
            switch tree.count(of: key) {
            case 9: if tree.string(at: key, equals: "$archiver") { return true }
            case 8: if tree.string(at: key, equals: "$objects") { return true }
            case 4: if tree.string(at: key, equals: "$top") { return true }
            default: continue
            }
        }
        return false
    }

    /// Validates a compact tree (a document's `tree`) as a keyed archive,
    /// without converting it: `$objects` stay node numbers of the tree.
    ///
    /// - Parameter tree: A document's tree.
    /// - Throws: `PlistError` (`archive`, or `noArchive` when the tree is no
    ///   archive) naming what is broken.
    public init(_ tree: PlistTree) throws {
        func fail(_ message: String, keyPath: String = "") -> PlistError {
            PlistError(.archive, message, at: .archive(object: nil, keyPath: keyPath))
        }
        let envelope = tree.root
        guard tree.kind(of: envelope) == .dictionary else {
            throw fail("a keyed archive is a dictionary, not \(tree.kind(of: envelope).nameWithArticle)")
        }
        guard let archiverNode = tree.node(forKey: "$archiver", in: envelope), let archiver = tree.string(at: archiverNode) else {
            throw fail("$archiver is missing or not a string", keyPath: "$archiver")
        }
        guard archiver == "NSKeyedArchiver" else {
            throw fail("$archiver is \"\(archiver)\", not \"NSKeyedArchiver\"", keyPath: "$archiver")
        }
        guard let versionNode = tree.node(forKey: "$version", in: envelope), let version = tree.integer(at: versionNode) else {
            throw fail("$version is missing or not an integer", keyPath: "$version")
        }
        guard version == PlistInteger(Int64(100_000)) else {
            throw fail("$version is \(version), not 100000", keyPath: "$version")
        }
        guard let objectsNode = tree.node(forKey: "$objects", in: envelope), tree.kind(of: objectsNode) == .array else {
            throw fail("$objects is missing or not an array", keyPath: "$objects")
        }
        let count = tree.count(of: objectsNode)
        guard count > 0, tree.string(at: tree.element(0, of: objectsNode), equals: "$null") else {
            throw fail("$objects[0] is not \"$null\"", keyPath: "$objects[0]")
        }
        guard let topNode = tree.node(forKey: "$top", in: envelope), tree.kind(of: topNode) == .dictionary else {
            throw fail("$top is missing or not a dictionary", keyPath: "$top")
        }
        var top: [(key: String, object: Int)] = []
        var topValues: [TopValue] = []
        for i in 0..<tree.count(of: topNode) {
            let (keyNode, entry) = tree.entry(i, of: topNode)
            let key = tree.string(at: keyNode) ?? ""
            guard let u = tree.uid(at: entry) else {
                // A plain value NSKeyedArchiver wrote for a top-level encodeBool or encodeInteger.
                guard TopValue.isPlain(tree.kind(of: entry)) else {
                    throw fail("$top.\(key) is \(tree.kind(of: entry).nameWithArticle), not a UID or a plain value", keyPath: "$top.\(key)")
                }
                topValues.append(TopValue(key: key, value: tree.value(at: entry), position: i))
                continue
            }
            guard u < UInt64(count) else {
                throw fail("$top.\(key) refers to object \(u), past the \(count) objects", keyPath: "$top.\(key)")
            }
            top.append((key, Int(u)))
        }
        self.archiver = archiver
        if tree.node(forKey: Self.typedstreamEnvelopeKey, in: envelope).flatMap({ tree.string(at: $0) }) == "NSArchiver" {
            readFrom = "NSArchiver"
        } else if tree.node(forKey: NIBArchive.envelopeKey, in: envelope).flatMap({ tree.string(at: $0) }) == NIBArchive.archiverName {
            readFrom = NIBArchive.archiverName
        } else {
            readFrom = nil
        }
        self.version = version
        self.top = top
        self.topValues = topValues
        let nodes = (0..<count).map { UInt32(truncatingIfNeeded: tree.element($0, of: objectsNode)) }
        let validated = try ArchiveValidator.validate(tree: tree, objects: nodes, top: top)
        paths = validated.paths
        reachIsGraphReach = validated.reachIsGraphReach
        storage = ArchiveStorage(tree: tree, objects: nodes, classes: validated.classes)
    }

    /// The `$classname` of an object's class, when the object is a class-bearing
    /// dictionary (validated, so present).
    ///
    /// - Parameter object: An index of `$objects`.
    /// - Returns: The class's archived name, or nil.
    public func className(of object: Int) -> String? {
        storage.classOf(object).flatMap { storage.classInfo[$0]?.name.archived }
    }
}
