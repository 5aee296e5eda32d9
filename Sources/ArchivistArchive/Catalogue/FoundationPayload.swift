import ArchivistCore

/// The fields of one object of a Foundation class, against what that class's
/// decoder reads.
struct FoundationPayload {
    /// The object checked; a check of many objects sets it for each, so the
    /// graph is copied into the payload once, not once an object.
    var object: ArchivedObject
    let graph: ObjectGraph

    init(_ object: ArchivedObject, in graph: ObjectGraph) {
        self.object = object
        self.graph = graph
    }

    /// A payload of `graph` whose object is set before each check.
    init(in graph: ObjectGraph) {
        self.init(ArchivedObject(className: ClassName(archived: ""), classChain: [], fields: []), in: graph)
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
