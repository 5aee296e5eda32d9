import ArchivistCore

/// Writes an object graph back as a keyed-archive tree: `$null` at index 0,
/// objects numbered in the order they are first reached from `$top`, each
/// shared object written once, one class dictionary per class, cycles kept.
/// Objects no longer reachable from `$top` are left out.
public enum GraphWriter {
    /// Objects with more fields than this check their keys in a set.
    static let fieldsSearched = 16

    /// The archive tree (`$archiver`, `$version`, `$top`, `$objects`).
    public static func archive(_ graph: ObjectGraph) throws -> PlistValue {
        var newIndex = [Int](repeating: -1, count: graph.nodes.count)
        var order: [Int] = []
        newIndex[0] = 0
        order.append(0)
        // Number reachable nodes depth-first in field order, as NSKeyedArchiver does.
        var stack = graph.top.map(\.object).reversed().map { $0 }
        while let n = stack.popLast() {
            guard n >= 0, n < graph.nodes.count else {
                throw PlistError(.archive, "reference to object \(n), past the \(graph.nodes.count) nodes", at: .archive(object: n, keyPath: ""))
            }
            if newIndex[n] >= 0 { continue }
            if case .classDescription = graph.nodes[n] { continue }
            newIndex[n] = order.count
            order.append(n)
            for e in graph.edges(of: n).reversed() where e >= 0 && e < graph.nodes.count && newIndex[e] < 0 {
                stack.append(e)
            }
        }
        var objects: [PlistValue] = []
        objects.reserveCapacity(order.count + 8)
        var classIndex: [String: Int] = [:]
        var pendingClasses: [(Int, ClassName, [String])] = []
        var seenKeys: Set<PlistKey> = []  // by code points, as the dictionary's own keys
        let classBase = order.count
        func uid(_ old: Int) throws -> PlistValue {
            guard old >= 0, old < newIndex.count, newIndex[old] >= 0 else {
                throw PlistError(.archive, "reference to object \(old), which is not part of the graph", at: .archive(object: old, keyPath: ""))
            }
            return .uid(UInt64(newIndex[old]))
        }
        for old in order {
            switch graph.nodes[old] {
            case .null:
                objects.append(.string("$null"))
            case .value(let v):
                objects.append(v)
            case .classDescription(let name, _):
                objects.append(.string(name.archived))
            case .object(let o):
                var d = PlistDictionary(minimumCapacity: o.fields.count + 1)
                // Setting a key searches the keys before it: an object of
                // thousands of fields finds its keys in a set instead (one
                // set for the whole archive, emptied for each such object).
                let manyFields = o.fields.count > Self.fieldsSearched
                if manyFields { seenKeys.removeAll(keepingCapacity: true) }
                for field in o.fields {
                    let value: PlistValue
                    switch field.value {
                    case .inline(let v): value = v
                    case .reference(let r): value = try uid(r)
                    case .references(let rs): value = .array(try rs.map(uid))
                    }
                    if manyFields, seenKeys.insert(PlistKey(field.key)).inserted {
                        d.appendUnchecked(key: field.key, value: value)
                    } else {
                        d[field.key] = value
                    }
                }
                let key = o.className.archived + "\u{0}" + o.classChain.joined(separator: "\u{0}")
                let ci: Int
                if let existing = classIndex[key] {
                    ci = existing
                } else {
                    ci = classBase + pendingClasses.count
                    classIndex[key] = ci
                    pendingClasses.append((ci, o.className, o.classChain))
                }
                d["$class"] = .uid(UInt64(ci))
                objects.append(.dictionary(d))
            }
        }
        for (_, name, chain) in pendingClasses {
            objects.append(.dictionary(PlistDictionary([
                ("$classname", .string(name.archived)),
                ("$classes", .array((chain.isEmpty ? [name.archived] : chain).map { .string($0) })),
            ])))
        }
        var top = PlistDictionary()
        for (key, entry) in graph.topEntries {
            switch entry {
            case .object(let object): top[key] = try uid(object)
            case .value(let value): top[key] = value
            }
        }
        return .dictionary(PlistDictionary([
            ("$version", .int(100_000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(top)), ("$objects", .array(objects)),
        ]))
    }
}
