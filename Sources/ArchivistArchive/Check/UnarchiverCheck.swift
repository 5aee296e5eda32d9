import ArchivistCore

/// Checks what `NSKeyedUnarchiver` will read in a structurally valid archive,
/// beyond the envelope: `$top` entries that are objects, class dictionaries
/// with a class chain, and the payload of every Foundation class whose
/// decoder reads fixed keys (`NS.objects` an array of references, `NS.keys`
/// and `NS.objects` of one length, `NS.string` a string, `NS.time` a real,
/// `NS.uuidbytes` 16 bytes, ...). Only objects reachable from `$top` are
/// checked: the unarchiver reads nothing else.
public enum UnarchiverCheck {
    /// Every problem, in `$objects` order, each located by its object and the
    /// key path `get` takes to it.
    ///
    /// - Parameter archive: The validated archive.
    /// - Returns: Each problem as a located error.
    public static func errors(in archive: KeyedArchive) -> [PlistError] {
        var out: [PlistError] = []
        forEachError(in: archive, walk: ArchiveCheckWalk(ObjectGraph(archive))) { out.append($0) }
        return out
    }

    /// `errors(in:)`, each problem handed to `body` as it is found. Each
    /// class is looked at once (its `$classes`, whether its payload is
    /// checked); an object's fields are made only when its class's payload is.
    static func forEachError(in archive: KeyedArchive, walk: ArchiveCheckWalk, _ body: (PlistError) throws -> Void) rethrows {
        let graph = walk.graph
        for (key, index) in archive.top {
            if case .classDescription = graph.nodes[index] {
                try body(PlistError(.archive, "$top.\(key) refers to object \(index), a class description, not an object",
                                    at: .archive(object: index, keyPath: "$top." + ArchivePaths.spelled([key]))))
            }
        }
        let storage = archive.storage
        // What each class is to this check, by the index of its class
        // dictionary: 0 not looked at yet, else `checked` when its objects'
        // payload is checked.
        let unseen: UInt8 = 0, seen: UInt8 = 1, checked: UInt8 = 2
        var classes = [UInt8](repeating: unseen, count: storage.objects.count)
        // The payload check of each checked class, by the same index.
        var checks: [Int: ClassDescription.PayloadCheck] = [:]
        var payload = FoundationPayload(in: graph)
        for index in graph.nodes.indices where walk.reached[index] {
            // The graph is the archive's own (no edits): each object's class
            // comes from the storage, and its fields are made only for a
            // class whose payload is checked.
            guard let c = storage.classOf(index) else { continue }
            var state = classes[Int(c)]
            if state == unseen {
                guard let info = storage.classInfo[c] else { continue }
                let check = ClassCatalogue.description(of: info.name.archived)?.check
                state = check == nil ? seen : checked
                if let check { checks[Int(c)] = check }
                classes[Int(c)] = state
                if info.listsClasses, info.chain.isEmpty {
                    try body(PlistError(.archive, "the class dictionary of \(info.name) (object \(c)) has an empty $classes",
                                        at: .archive(object: Int(c), keyPath: ArchivePaths.joined(walk.path(to: index), "$class") + ".$classes")))
                }
            }
            guard state == checked, let check = checks[Int(c)], case .object(let o) = graph.nodes[index] else { continue }
            payload.object = o
            for problem in check(payload) {
                try body(PlistError(.archive, "\(o.className.readable): \(problem)", at: .archive(object: index, keyPath: walk.path(to: index))))
            }
        }
    }
}
