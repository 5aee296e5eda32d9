import ArchivistCore

/// An archive met by ``NestedArchiveWalk``: the tree's own, or one held in a
/// `<data>` value of it (at any level up to ``NestedData/maxLevels``).
package struct NestedArchive {
    /// The archive's object graph.
    package var graph: ObjectGraph
    /// The key path of the data holding it, as `get` takes it; empty for the
    /// tree itself.
    package var keyPath: String
    /// 0 for the tree itself, 1 for an archive in its data, and so on.
    package var level: Int
    /// What the data held (a keyed archive or a typedstream); nil at level 0.
    package var kind: NestedData.Kind?
    /// The size of the data holding it; 0 at level 0.
    package var size: Int
}

/// The one walk into a tree and the documents its data values hold: every
/// keyed archive (and typedstream) found in plain containers, in archives'
/// objects and inline fields, and in data inside those, to one depth limit.
/// Archives are visited before the archives their data holds.
package enum NestedArchiveWalk {
    /// What to do with an archive that does not read as an object graph.
    package enum Broken {
        /// Leave it out (counting and suggesting).
        case skip
        /// Throw its error, located under the key path of the data holding it.
        case fail
    }

    /// Visits every archive in `value`.
    package static func archives(in value: PlistValue, broken: Broken, _ visit: (NestedArchive) throws -> Void) throws {
        try walk(value, keyPath: "", level: 0, kind: nil, size: 0, broken: broken, visit)
    }

    private static func walk(_ value: PlistValue, keyPath: String, level: Int, kind: NestedData.Kind?, size: Int,
                             broken: Broken, _ visit: (NestedArchive) throws -> Void) throws {
        guard level <= NestedData.maxLevels else { return }
        func data(_ bytes: [UInt8], at path: String) throws {
            guard level < NestedData.maxLevels, let nested = NestedData.read(bytes) else { return }
            try walk(nested.document.value, keyPath: path, level: level + 1, kind: nested.kind, size: bytes.count, broken: broken, visit)
        }
        if KeyedArchive.looksLikeArchive(value) {
            let graph: ObjectGraph
            do {
                graph = try ObjectGraph(value)
            } catch var error as PlistError {
                guard broken == .fail else { return }
                if !keyPath.isEmpty, case .archive(let object, let inner) = error.location {
                    error.location = .archive(object: object, keyPath: ArchivePaths.nested(inner, in: keyPath))
                }
                throw error
            }
            try visit(NestedArchive(graph: graph, keyPath: keyPath, level: level, kind: kind, size: size))
            var paths: ArchivePaths?
            func path(to index: Int, _ key: String? = nil) -> String {
                let found = paths ?? graph.paths()
                paths = found
                let base = found.path(to: index) ?? "$objects[\(index)]"
                return ArchivePaths.nested(key.map { ArchivePaths.joined(base, $0) } ?? base, in: keyPath)
            }
            for (index, node) in graph.nodes.enumerated() {
                switch node {
                case .value(.data(let bytes)):
                    try data(bytes, at: path(to: index))
                case .object(let o):
                    for field in o.fields {
                        if case .inline(.data(let bytes)) = field.value { try data(bytes, at: path(to: index, field.key)) }
                    }
                case .null, .value, .classDescription:
                    continue
                }
            }
            return
        }
        switch value {
        case .dictionary(let d):
            for (key, item) in d { try walk(item, keyPath: ArchivePaths.joined(keyPath, key), level: level, kind: kind, size: size, broken: broken, visit) }
        case .array(let items):
            for (i, item) in items.enumerated() { try walk(item, keyPath: ArchivePaths.joined(keyPath, String(i)), level: level, kind: kind, size: size, broken: broken, visit) }
        case .data(let bytes):
            try data(bytes, at: keyPath)
        case .string, .integer, .real, .bool, .date, .uid, .null:
            return
        }
    }
}
