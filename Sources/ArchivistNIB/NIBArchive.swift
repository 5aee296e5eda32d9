import ArchivistCore

/// iOS compiled nibs (`*.nib`, `*.storyboardc/*.nib`): the `NIBArchive`
/// format `ibtool` writes since iOS 6. Read only: a nib is read into the tree
/// of a keyed archive holding the same objects, as a typedstream is, so that
/// every view of archives (dump, classes, get, diff, lint, info) shows it.
///
/// The archive read: object `i` of the nib is `$objects[i + 1]` (entry 0 is
/// `$null`), `$top` holds object 0 as `root`; each class is a class
/// description after the objects, its `$classes` the class and then its
/// fallback classes. Values keep their keys in order: 8- to 64-bit integers
/// are integers, true and false booleans, float and double reals, data data,
/// nil the `$null` reference and object references UIDs. A key an object
/// holds more than once (`UINibEncoderEmptyKey`, the members of a collection)
/// is one field whose value is the array of its values; in NSArray, NSSet,
/// NSOrderedSet and their mutable kinds that field is `NS.objects`, in
/// NSDictionary and NSMutableDictionary (keys and values alternate) `NS.keys`
/// and `NS.objects`, as NSKeyedArchiver names them. A key starting with `$`
/// gets another `$` in front, as NSKeyedArchiver escapes one.
package enum NIBArchive {
    /// The envelope key that marks the archive a nib is read as
    /// (`"$nibarchive": "NIBArchive"`), so views name what was read.
    package static let envelopeKey = "$nibarchive"
    /// The value of ``envelopeKey``, and what `info` calls the archiver.
    package static let archiverName = "NIBArchive"
    /// The key NIBArchive gives the members of a collection.
    static let memberKey = "UINibEncoderEmptyKey"
    static let listClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    static let mapClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    /// True when bytes start with a NIBArchive header (as the format sniffer tells it).
    package static func looksLikeNIBArchive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        FormatSniffer.kind(bytes) == .nibArchive
    }

    /// True when bytes start with a NIBArchive header.
    package static func looksLikeNIBArchive(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { looksLikeNIBArchive($0) }
    }

    /// The keyed archive (`$archiver`, `$version`, `$nibarchive`, `$top`,
    /// `$objects`) that holds the nib's objects.
    package static func archive(_ bytes: UnsafeRawBufferPointer) throws -> PlistValue {
        var reader = NIBArchiveReader(bytes)
        try reader.read()
        let objectCount = reader.objects.count
        var objects: [PlistValue] = [.string("$null")]
        objects.reserveCapacity(objectCount + reader.classes.count + 1)
        // Where each key's field is in the object being built: the object's
        // index in `owner`, so that nothing is cleared between objects.
        var owner = [Int](repeating: -1, count: reader.keys.count)
        var slot = [Int](repeating: 0, count: reader.keys.count)
        for (i, object) in reader.objects.enumerated() {
            var fields: [(key: Int, values: [PlistValue])] = []
            for v in object.values {
                let (key, value) = reader.values[v]
                let plist = plistValue(value, in: bytes)
                if owner[key] == i {
                    fields[slot[key]].values.append(plist)
                } else {
                    owner[key] = i
                    slot[key] = fields.count
                    fields.append((key, [plist]))
                }
            }
            let className = reader.classes[object.classIndex].name
            let classNode = 1 + objectCount + object.classIndex
            objects.append(.dictionary(dictionary(fields, keys: reader.keys, className: className, classNode: classNode)))
        }
        for c in reader.classes {
            let chain = [c.name] + c.fallbacks.map { reader.classes[$0].name }
            objects.append(.dictionary(PlistDictionary([("$classname", .string(c.name)), ("$classes", .array(chain.map { .string($0) }))])))
        }
        let top: [(String, PlistValue)] = objectCount > 0 ? [("root", .uid(1))] : []
        return .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .int(100_000)),
            (envelopeKey, .string(archiverName)),
            ("$nibversion", .array([.int(Int64(reader.formatVersion)), .int(Int64(reader.coderVersion))])),
            ("$top", .dictionary(PlistDictionary(top))),
            ("$objects", .array(objects)),
        ]))
    }

    /// The nib as a document (its tree is ``archive(_:)``'s), for the
    /// commands that read archives.
    package static func document(_ bytes: [UInt8]) throws -> PlistDocument {
        PlistDocument(tree: try PlistTree(try bytes.withUnsafeBytes { try archive($0) }), format: .binary)
    }

    private static func plistValue(_ value: NIBArchiveReader.Value, in bytes: UnsafeRawBufferPointer) -> PlistValue {
        switch value {
        case .integer(let n): return .int(n)
        case .bool(let b): return .bool(b)
        case .float(let f): return .real(PlistReal(float: f))
        case .double(let d): return .double(d)
        case .data(let range): return .data(Array(bytes[range]))
        case .null: return .uid(0)
        case .object(let r): return .uid(UInt64(r) + 1)
        }
    }

    /// An object's `$objects` entry: `$class`, then its fields in the order
    /// of their keys' first values.
    private static func dictionary(_ fields: [(key: Int, values: [PlistValue])], keys: [String], className: String, classNode: Int) -> PlistDictionary {
        var members: [PlistValue]?
        let isList = listClasses.contains(className), isMap = mapClasses.contains(className)
        if isList || isMap, let m = fields.first(where: { keys[$0.key] == memberKey }),
           isList || m.values.count % 2 == 0, !fields.contains(where: { keys[$0.key] == "NS.objects" || keys[$0.key] == "NS.keys" }) {
            members = m.values
        }
        var out = PlistDictionary(minimumCapacity: fields.count + 2)
        out.appendUnchecked(key: "$class", value: .uid(UInt64(classNode)))
        for field in fields {
            let key = keys[field.key]
            if let m = members, key == memberKey {
                if isList {
                    out.appendUnchecked(key: "NS.objects", value: .array(m))
                } else {
                    out.appendUnchecked(key: "NS.keys", value: .array(stride(from: 0, to: m.count, by: 2).map { m[$0] }))
                    out.appendUnchecked(key: "NS.objects", value: .array(stride(from: 1, to: m.count, by: 2).map { m[$0] }))
                }
                continue
            }
            let value = field.values.count == 1 ? field.values[0] : .array(field.values)
            out.appendUnchecked(key: key.hasPrefix("$") ? "$" + key : key, value: value)
        }
        return out
    }
}
