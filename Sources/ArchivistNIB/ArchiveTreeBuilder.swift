import ArchivistCore

/// Writes the tables a ``NIBArchiveReader`` read as the tree of a keyed
/// archive (see ``NIBArchive``), node by node into a `PlistTreeBuilder`:
/// nothing is allocated per object. Keys with the same text are one key;
/// the values of a key an object gives more than once are chained (each to
/// the next of the same key in that object), so every value is visited a
/// bounded number of times: linear in the value table.
struct ArchiveTreeBuilder {
    let reader: NIBArchiveReader
    let bytes: UnsafeRawBufferPointer
    private var builder: PlistTreeBuilder
    /// Each key's first key index with the same text.
    private var canonical: [Int] = []
    /// Each canonical key's node, escaped (`$` before a key that starts with `$`).
    private var keyNodes: [Int] = []
    /// Per canonical key: the object that last touched it, and in that
    /// object its count and first value (stamped with the object, so nothing
    /// is cleared between objects).
    private var owner: [Int] = []
    private var count: [Int] = []
    private var first: [Int] = []
    /// Per value: the next value of the same key in the same object, or -1.
    private var next: [Int] = []
    private var memberKey: Int?

    init(reader: NIBArchiveReader, bytes: UnsafeRawBufferPointer) {
        self.reader = reader
        self.bytes = bytes
        builder = PlistTreeBuilder(expectedNodes: reader.values.count + 2 * reader.objects.count + 3 * reader.classes.count + 16,
                                   expectedBytes: bytes.count)
    }

    mutating func build() throws -> PlistTree {
        var firstIndex: [String: Int] = [:]
        for (i, key) in reader.keys.enumerated() {
            let c = firstIndex[key] ?? i
            firstIndex[key] = c
            canonical.append(c)
            keyNodes.append(c == i ? builder.key(key.hasPrefix("$") ? "$" + key : key) : keyNodes[c])
        }
        memberKey = firstIndex[NIBArchive.memberKey]
        let nsObjects = firstIndex["NS.objects"], nsKeys = firstIndex["NS.keys"]
        owner = [Int](repeating: -1, count: reader.keys.count)
        count = [Int](repeating: 0, count: reader.keys.count)
        first = [Int](repeating: 0, count: reader.keys.count)
        next = [Int](repeating: -1, count: reader.values.count)

        var envelope = builder.openDictionary()
        put("$archiver", builder.string("NSKeyedArchiver"), in: &envelope)
        put("$version", builder.integer(PlistInteger(Int64(100_000))), in: &envelope)
        put(NIBArchive.envelopeKey, builder.string(NIBArchive.archiverName), in: &envelope)
        let versions = builder.openArray()
        builder.append(builder.integer(PlistInteger(Int64(reader.formatVersion))), to: versions)
        builder.append(builder.integer(PlistInteger(Int64(reader.coderVersion))), to: versions)
        put("$nibversion", builder.close(versions), in: &envelope)
        var top = builder.openDictionary()
        if !reader.objects.isEmpty { put("root", builder.uid(1), in: &top) }
        put("$top", builder.close(top), in: &envelope)

        let objects = builder.openArray()
        builder.append(builder.string("$null"), to: objects)
        let classKey = builder.key("$class")
        for (i, object) in reader.objects.enumerated() {
            // The keys' counts and chains in this object.
            for v in object.values {
                let k = canonical[reader.values[v].key]
                if owner[k] != i {
                    owner[k] = i
                    count[k] = 1
                    first[k] = v
                } else {
                    count[k] += 1
                }
            }
            // Chains, linked from the back: each value to the next of its key.
            linkChains(object.values)
            let className = reader.classes[object.classIndex].name
            let isList = NIBArchive.listClasses.contains(className), isMap = NIBArchive.mapClasses.contains(className)
            var renames = false
            if (isList || isMap), let m = memberKey, owner[m] == i, isList || count[m] % 2 == 0,
               !(nsObjects.map { owner[$0] == i } ?? false), !(nsKeys.map { owner[$0] == i } ?? false) {
                renames = true
            }
            var dict = builder.openDictionary()
            _ = builder.add(key: classKey, value: builder.uid(UInt64(1 + reader.objects.count + object.classIndex)), to: &dict)
            for v in object.values {
                let k = canonical[reader.values[v].key]
                guard first[k] == v else { continue }  // a later value of a key given before
                if renames, k == memberKey {
                    if isList {
                        put("NS.objects", chain(from: v, every: 1), in: &dict)
                    } else {
                        put("NS.keys", chain(from: v, every: 2), in: &dict)
                        put("NS.objects", chain(from: next[v], every: 2), in: &dict)
                    }
                } else if count[k] == 1 {
                    _ = builder.add(key: keyNodes[k], value: scalar(v), to: &dict)
                } else {
                    _ = builder.add(key: keyNodes[k], value: chain(from: v, every: 1), to: &dict)
                }
            }
            builder.append(builder.close(dict), to: objects)
        }
        for c in reader.classes {
            var dict = builder.openDictionary()
            put("$classname", builder.string(c.name), in: &dict)
            let chain = builder.openArray()
            builder.append(builder.string(c.name), to: chain)
            for f in c.fallbacks { builder.append(builder.string(reader.classes[f].name), to: chain) }
            put("$classes", builder.close(chain), in: &dict)
            builder.append(builder.close(dict), to: objects)
        }
        put("$objects", builder.close(objects), in: &envelope)
        return try builder.finish(root: builder.close(envelope))
    }

    private mutating func put(_ key: String, _ value: Int, in mark: inout PlistTreeBuilder.DictionaryMark) {
        _ = builder.add(key: builder.key(key), value: value, to: &mark)
    }

    /// Links each value of `range` to the next value of its key in the range.
    private mutating func linkChains(_ range: Range<Int>) {
        // `first` is reused as "the last value seen" while walking backwards,
        // then set back to the first value of each key.
        for v in range.reversed() {
            let k = canonical[reader.values[v].key]
            next[v] = first[k] > v ? first[k] : -1
            first[k] = v
        }
    }

    /// An array of the values along a key's chain from `start`: each one, or
    /// every other one (`every: 2`, a dictionary's keys or its objects).
    private mutating func chain(from start: Int, every step: Int) -> Int {
        let mark = builder.openArray()
        var v = start
        while v >= 0 {
            builder.append(scalar(v), to: mark)
            v = next[v]
            if step == 2, v >= 0 { v = next[v] }
        }
        return builder.close(mark)
    }

    /// The node of one value.
    private mutating func scalar(_ v: Int) -> Int {
        switch reader.values[v].value {
        case .integer(let n): return builder.integer(PlistInteger(n))
        case .bool(let b): return builder.bool(b)
        case .float(let f): return builder.real(PlistReal(float: f))
        case .double(let d): return builder.real(PlistReal(d))
        case .data(let range): return builder.data(UnsafeRawBufferPointer(rebasing: bytes[range]))
        case .null: return builder.uid(0)
        case .object(let r): return builder.uid(UInt64(r) + 1)
        }
    }
}
