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
                                    at: .archive(object: index, keyPath: "$top." + PlistKeyPath(components: [key]).description)))
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
            for problem in check(FoundationPayload(o, in: graph)) {
                try body(PlistError(.archive, "\(o.className.readable): \(problem)", at: .archive(object: index, keyPath: walk.path(to: index))))
            }
        }
    }
}

/// The fields of one object of a Foundation class, against what that class's
/// decoder reads.
struct FoundationPayload {
    let object: ArchivedObject
    let graph: ObjectGraph

    init(_ object: ArchivedObject, in graph: ObjectGraph) {
        self.object = object
        self.graph = graph
    }

    // The classes' own checks are in their catalogue files
    // (`ClassDescription.check`); these are the pieces they share.

    /// A list of `NS.objects` references (NSArray, NSSet), or the numbered
    /// `NS.object.N` references swift-corelibs-foundation writes for NSOrderedSet.
    func sequence(numbered: Bool = false) -> [String] {
        if object["NS.objects"] != nil || !numbered { return referenceList("NS.objects") }
        return numberedReferences()
    }

    /// `NS.keys` and `NS.objects`, lists of references of one length.
    func map() -> [String] {
        var found = referenceList("NS.keys") + referenceList("NS.objects")
        if found.isEmpty, let keys = count("NS.keys"), let values = count("NS.objects"), keys != values {
            found.append("NS.keys holds \(keys) references and NS.objects \(values); the decoder pairs them one to one")
        }
        return found
    }

    /// `key` refers to a string.
    func string(_ key: String) -> [String] {
        graph.string(object[key]) == nil ? ["\(key) is \(describe(object[key])), not a string"] : []
    }

    /// `key` is absent, an empty array, or a list of references.
    func referenceList(_ key: String) -> [String] {
        switch object[key] {
        case nil, .references?, .inline(.array([]))?: return []
        case let other?: return ["\(key) is \(describe(other)), not an array of references"]
        }
    }

    func count(_ key: String) -> Int? {
        switch object[key] {
        case nil, .inline(.array([]))?: return 0
        case .references(let refs)?: return refs.count
        case .reference?, .inline?: return nil
        }
    }

    /// NSOrderedSet as swift-corelibs-foundation writes it: `NS.object.N` references.
    func numberedReferences() -> [String] {
        object.fields.filter { $0.key.hasPrefix("NS.object.") && !isReference($0.value) }
            .map { "\($0.key) is \(describe($0.value)), not a reference" }
    }

    /// `NS.count` entries, each an `NS.objectN` reference with an integer `NS.countN`.
    func countedSet() -> [String] {
        guard case .inline(.integer(let total))? = object["NS.count"], let n = total.int64Value, n >= 0 else {
            return ["NS.count is \(describe(object["NS.count"])), not a count"]
        }
        guard n <= Int64(object.fields.count) else { return ["NS.count is \(n), but the object has \(object.fields.count) fields"] }
        var found: [String] = []
        for i in 0..<Int(n) {
            if !isReference(object["NS.object\(i)"]) { found.append("NS.object\(i) is \(describe(object["NS.object\(i)"])), not a reference") }
            switch object["NS.count\(i)"] {
            case nil, .inline(.integer)?: continue
            case let other?: found.append("NS.count\(i) is \(describe(other)), not an integer")
            }
        }
        return found
    }

    /// `NS.special` and the fields of the geometric kinds dump shows (an
    /// NSValue without `NS.special` holds a concrete value: `NS.objctype`).
    func nsValue() -> [String] {
        guard let field = object["NS.special"] else { return [] }
        guard case .inline(.integer(let special)) = field else {
            return ["NS.special is \(describe(field)), not an integer"]
        }
        let fields: [String]
        let wantsString: Bool
        switch special.int64Value {
        case 1?: (fields, wantsString) = (["NS.pointval"], true)
        case 2?: (fields, wantsString) = (["NS.sizeval"], true)
        case 3?: (fields, wantsString) = (["NS.rectval"], true)
        case 4?: (fields, wantsString) = (["NS.rangeval.location", "NS.rangeval.length"], false)
        case 12?: (fields, wantsString) = (["NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"], false)
        default: return []
        }
        return fields.compactMap { key in
            if wantsString { return graph.string(object[key]) == nil ? "\(key) is \(describe(object[key])), not a string" : nil }
            return graph.number(object[key]) == nil ? "\(key) is \(describe(object[key])), not a number" : nil
        }
    }

    func isReference(_ field: FieldValue?) -> Bool {
        if case .reference? = field { return true }
        return false
    }

    /// A field in words: `missing`, `an integer`, `a reference to a string`.
    func describe(_ field: FieldValue?) -> String {
        switch field {
        case nil: return "missing"
        case .inline(let v)?: return v.aTypeName
        case .references(let refs)?: return "a list of \(refs.count) references"
        case .reference(let r)?:
            switch graph.nodes[safe: r] {
            case .null?: return "a reference to $null"
            case .value(let v)?: return "a reference to \(v.aTypeName)"
            case .object(let o)?: return "a reference to a \(o.className.readable)"
            case .classDescription?, nil: return "a reference to a class description"
            }
        }
    }
}
