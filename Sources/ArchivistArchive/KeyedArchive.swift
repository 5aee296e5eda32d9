import ArchivistCore

/// The validated envelope of an `NSKeyedArchiver` archive: `$archiver`,
/// `$version`, `$top` and `$objects`, with every UID in range and every
/// `$class` pointing at a class dictionary.
public struct KeyedArchive: Sendable {
    /// `$archiver` (always "NSKeyedArchiver" once validated).
    public let archiver: String
    /// `$version` (100000 for every archiver Apple ships).
    public let version: PlistInteger
    /// The `$top` entries (`root` and any others), in the order read.
    public let top: [(key: String, object: Int)]
    /// `$objects`, index 0 being `$null`.
    public let objects: [PlistValue]
    /// For each object, the key path by which it is first reached from `$top`
    /// (`paths.path(to: 5)` is `root.cpu_coder.cores[1]`), nil when unreachable.
    public let paths: ArchivePaths

    /// True when a tree claims to be a keyed archive: a dictionary with any of
    /// `$archiver`, `$objects` or `$top`.
    public static func looksLikeArchive(_ value: PlistValue) -> Bool {
        guard case .dictionary(let d) = value else { return false }
        // One pass, and only keys starting with "$" compared as strings.
        return d.keys.contains { key in
            key.utf8.first == UInt8(ascii: "$") && (key == "$archiver" || key == "$objects" || key == "$top")
        }
    }

    /// `looksLikeArchive(_:)` for a compact tree, reading only the top dictionary's keys.
    public static func looksLikeArchive(_ tree: PlistTree) -> Bool {
        guard tree.kind(of: tree.root) == .dictionary else { return false }
        for i in 0..<tree.count(of: tree.root) {
            let key = tree.entry(i, of: tree.root).key
            if tree.string(at: key, equals: "$archiver") || tree.string(at: key, equals: "$objects") || tree.string(at: key, equals: "$top") {
                return true
            }
        }
        return false
    }

    /// Validates a tree as a keyed archive.
    public init(_ value: PlistValue) throws {
        func fail(_ message: String, keyPath: String = "") -> PlistError {
            PlistError(.archive, message, at: .archive(object: nil, keyPath: keyPath))
        }
        guard case .dictionary(let envelope) = value else {
            throw fail("a keyed archive is a dictionary, not \(value.aTypeName)")
        }
        guard case .string(let archiver)? = envelope["$archiver"] else {
            throw fail("$archiver is missing or not a string", keyPath: "$archiver")
        }
        guard archiver == "NSKeyedArchiver" else {
            throw fail("$archiver is \"\(archiver)\", not \"NSKeyedArchiver\"", keyPath: "$archiver")
        }
        guard case .integer(let version)? = envelope["$version"] else {
            throw fail("$version is missing or not an integer", keyPath: "$version")
        }
        guard version == PlistInteger(Int64(100_000)) else {
            throw fail("$version is \(version), not 100000", keyPath: "$version")
        }
        guard case .array(let objects)? = envelope["$objects"] else {
            throw fail("$objects is missing or not an array", keyPath: "$objects")
        }
        guard objects.first == .string("$null") else {
            throw fail("$objects[0] is not \"$null\"", keyPath: "$objects[0]")
        }
        guard case .dictionary(let topDict)? = envelope["$top"] else {
            throw fail("$top is missing or not a dictionary", keyPath: "$top")
        }
        var top: [(key: String, object: Int)] = []
        for (key, entry) in topDict {
            guard case .uid(let u) = entry else {
                throw fail("$top.\(key) is \(entry.aTypeName), not a UID", keyPath: "$top.\(key)")
            }
            guard u < UInt64(objects.count) else {
                throw fail("$top.\(key) refers to object \(u), past the \(objects.count) objects", keyPath: "$top.\(key)")
            }
            top.append((key, Int(u)))
        }
        self.archiver = archiver
        self.version = version
        self.top = top
        self.objects = objects
        self.paths = try ArchiveValidator.validate(objects: objects, top: top)
    }

    /// The `$classname` of an object's class, when the object is a class-bearing
    /// dictionary (validated, so present).
    public func className(of object: Int) -> String? {
        guard object >= 0, object < objects.count, case .dictionary(let d) = objects[object],
              case .uid(let c)? = d["$class"], case .dictionary(let cls) = objects[Int(c)],
              case .string(let name)? = cls["$classname"] else { return nil }
        return name
    }
}
