import ArchivistCore

/// Edits an archive's object graph along a key path. Each object on the path
/// that is referenced from more than one place is copied first, so the edit
/// reaches only the path it names; values are written as NSKeyedArchiver
/// writes them (strings, numbers and data as `$objects` entries, dates as
/// NSDate, arrays as NSArray, dictionaries as NSDictionary), and a primitive
/// replacing an inline primitive stays inline.
struct ArchiveEditor {
    var graph: ObjectGraph
    let path: PlistKeyPath
    let create: Bool
    let nesting: Int
    private var incoming: [Int]

    init(graph: ObjectGraph, path: PlistKeyPath, create: Bool, nesting: Int) {
        self.graph = graph
        self.path = path
        self.create = create
        self.nesting = nesting
        self.incoming = graph.incomingCounts()
    }

    /// Where a node hangs: a `$top` entry, a field, or an entry of a list field.
    private enum Slot {
        case top(Int)
        case field(object: Int, key: String)
        case item(object: Int, key: String, index: Int)
    }

    private func fail(_ i: Int, _ message: String) -> PlistError {
        PlistEditor.fail(path, i, message)
    }

    /// An edit of a plain `$top` value: replaced by another plain value, kept
    /// plain (it is what a top-level `decodeBool(forKey:)` reads).
    private mutating func applyPlain(_ edit: PlistEdit, at index: Int, from start: Int) throws {
        let value = graph.topValues[index].value
        guard start + 1 == path.components.count else {
            throw fail(start + 1, "\(value.aTypeName) has no key \"\(path.components[start + 1])\"")
        }
        guard case .set(let v) = edit else { throw fail(start, "a $top entry can only be replaced") }
        guard TopValue.isPlain(v.kind) else {
            throw fail(start, "$top.\(path.components[start]) holds a plain value; \(v.aTypeName) cannot replace it")
        }
        graph.topValues[index].value = v
    }

    mutating func apply(_ edit: PlistEdit, from start: Int) throws {
        let topKey = path.components[start]
        if let plain = graph.topValues.firstIndex(where: { PlistKeys.same($0.key, topKey) }) {
            return try applyPlain(edit, at: plain, from: start)
        }
        guard let topIndex = graph.top.firstIndex(where: { PlistKeys.same($0.key, topKey) }) else {
            throw fail(start, "no $top key \"\(topKey)\" (the archive has \(graph.topEntries.map(\.key).joined(separator: ", ")))")
        }
        var slot = Slot.top(topIndex)
        var node = graph.top[topIndex].object
        var i = start + 1
        if i == path.components.count {
            guard case .set(let v) = edit else { throw fail(start, "a $top entry can only be replaced") }
            graph.top[topIndex].object = try encode(v)
            return
        }
        while true {
            node = try own(node, in: slot)
            let key = path.components[i]
            let last = i == path.components.count - 1
            // Data holding a document: edit it where it is.
            if case .value(.data(let bytes)) = graph.nodes[node] {
                graph.nodes[node] = .value(.data(try PlistEditor.nested(bytes, path: path, at: i, edit: edit, create: create, nesting: nesting)))
                return
            }
            guard case .object(let o) = graph.nodes[node] else {
                throw fail(i, "\(describe(node)) has no key \"\(key)\"")
            }
            if let list = listField(o) {
                let refs = refs(o[list])
                guard let index = Int(key), index >= 0 else { throw fail(i, "\"\(key)\" is not an index (\(o.className.readable) of \(refs.count))") }
                if last {
                    try editList(node, field: list, refs: refs, index: index, edit: edit, at: i)
                    return
                }
                guard index < refs.count else { throw fail(i, "index \(index) out of range (\(o.className.readable) of \(refs.count))") }
                slot = .item(object: node, key: list, index: index)
                node = refs[index]
            } else if FoundationValue.mapClasses.contains(o.className.archived) {
                let keys = refs(o["NS.keys"]), values = refs(o["NS.objects"])
                let position = keys.firstIndex { graph.string(.reference($0)).map { PlistKeys.same($0, key) } ?? false }
                if last {
                    try editMap(node, keys: keys, values: values, position: position, key: key, edit: edit, at: i)
                    return
                }
                guard let position else { throw fail(i, "no key \"\(key)\" in \(o.className.readable) of \(counted(keys.count, "entry", "entries"))") }
                slot = .item(object: node, key: "NS.objects", index: position)
                node = values[position]
            } else if let value = FoundationValue.interpret(o, in: graph), !value.keepsFields {
                // NSData: its bytes are stepped into, as `get` steps into them.
                if case .data(let bytes) = value, let k = o.fields.firstIndex(where: { $0.value == .inline(.data(bytes)) }) {
                    return try editData(node, object: o, field: k, bytes: bytes, edit: edit, at: i)
                }
                // A list kept in fields of its own (NSHashTable's `$1`, `$2`, ...):
                // stepped through by position, as `get` steps through it.
                guard !last, case .list(let members) = value, let index = Int(key), index >= 0, index < members.count,
                      let field = o.fields.first(where: { $0.value == .reference(members[index]) }) else {
                    throw fail(i, "\(o.className.readable) has no key \"\(key)\"")
                }
                slot = .field(object: node, key: field.key)
                node = members[index]
            } else {
                if last {
                    try editField(node, object: o, key: key, edit: edit, at: i)
                    return
                }
                switch o[key] {
                case .reference(let r)?:
                    slot = .field(object: node, key: key)
                    node = r
                case .references(let rs)?:
                    // A field listing references: the next component indexes it.
                    let next = path.components[i + 1]
                    guard let index = Int(next), index >= 0, index < rs.count else { throw fail(i + 1, "not an index of the \(rs.count) references") }
                    if i + 1 == path.components.count - 1 {
                        try editList(node, field: key, refs: rs, index: index, edit: edit, at: i + 1)
                        return
                    }
                    slot = .item(object: node, key: key, index: index)
                    node = rs[index]
                    i += 1
                case .inline(.data(let bytes))?:
                    // Inline data: the document it holds, as `get` steps into it.
                    guard let k = o.fields.firstIndex(where: { PlistKeys.same($0.key, key) }) else { throw fail(i, "no field \"\(key)\"") }
                    return try editData(node, object: o, field: k, bytes: bytes, edit: edit, at: i + 1)
                case .inline(let v)?:
                    throw fail(i + 1, "\(v.aTypeName) has no key \"\(path.components[i + 1])\"")
                case nil:
                    throw fail(i, "\(o.className.readable) has no field \"\(key)\" (fields: \(o.fields.map(\.key).joined(separator: ", ")))")
                }
            }
            i += 1
        }
    }

    /// Edits the document held in inline data (field `field` of object
    /// `node`), component `i` being the first inside it.
    private mutating func editData(_ node: Int, object o: ArchivedObject, field: Int, bytes: [UInt8], edit: PlistEdit, at i: Int) throws {
        var edited = o
        edited.fields[field].value = .inline(.data(try PlistEditor.nested(bytes, path: path, at: i, edit: edit, create: create, nesting: nesting)))
        graph.nodes[node] = .object(edited)
    }

    /// The node to edit for `node` reached through `slot`: itself, or a copy
    /// when other places refer to it too.
    private mutating func own(_ node: Int, in slot: Slot) throws -> Int {
        guard graph.nodes.indices.contains(node) else { throw PlistError(.archive, "reference to object \(node), past the \(graph.nodes.count) objects") }
        guard incoming[safe: node].map({ $0 > 1 }) == true else { return node }
        let copy = graph.append(graph.nodes[node])
        incoming[node] -= 1
        incoming.append(1)
        for child in graph.edges(of: copy) where incoming.indices.contains(child) { incoming[child] += 1 }
        setSlot(slot, to: copy)
        return copy
    }

    private mutating func setSlot(_ slot: Slot, to node: Int) {
        switch slot {
        case .top(let t):
            graph.top[t].object = node
        case .field(let object, let key):
            try? graph.setField(key, to: .reference(node), inObject: object)
        case .item(let object, let key, let index):
            guard case .object(let o) = graph.nodes[object] else { return }
            var rs = refs(o[key])
            guard rs.indices.contains(index) else { return }
            rs[index] = node
            try? graph.setField(key, to: .references(rs), inObject: object)
        }
    }

    private func listField(_ o: ArchivedObject) -> String? {
        guard FoundationValue.listClasses.contains(o.className.archived) else { return nil }
        return o["NS.objects"] != nil || !o.fields.contains(where: { $0.key.hasPrefix("NS.object.") }) ? "NS.objects" : nil
    }

    private func refs(_ v: FieldValue?) -> [Int] {
        switch v {
        case .references(let r)?: return r
        case .reference(let r)?: return [r]
        case nil, .inline?: return []
        }
    }

    private func describe(_ node: Int) -> String {
        switch graph.nodes[node] {
        case .value(let v): return v.aTypeName
        case .null: return "nil"
        case .object(let o): return o.className.readable
        case .classDescription: return "a class description"
        }
    }

    private mutating func editList(_ node: Int, field: String, refs: [Int], index: Int, edit: PlistEdit, at i: Int) throws {
        var rs = refs
        switch edit {
        case .set(let v):
            guard index <= rs.count else { throw fail(i, "index \(index) out of range (array of \(rs.count))") }
            let new = try encode(v)
            if index == rs.count { rs.append(new) } else { rs[index] = new }
        case .remove:
            guard index < rs.count else { throw fail(i, "index \(index) out of range (array of \(rs.count))") }
            rs.remove(at: index)
        case .append(let v):
            guard index < rs.count else { throw fail(i, "index \(index) out of range (array of \(rs.count))") }
            let inner = try own(rs[index], in: .item(object: node, key: field, index: index))
            try appendToList(inner, v, at: i)
            return
        }
        try graph.setField(field, to: .references(rs), inObject: node)
    }

    private mutating func editMap(_ node: Int, keys: [Int], values: [Int], position: Int?, key: String, edit: PlistEdit, at i: Int) throws {
        var ks = keys, vs = values
        switch edit {
        case .set(let v):
            let new = try encode(v)
            if let position { vs[position] = new } else {
                ks.append(try encode(.string(key)))
                vs.append(new)
            }
        case .remove:
            guard let position else { throw fail(i, "no key \"\(key)\" to remove") }
            ks.remove(at: position)
            vs.remove(at: position)
        case .append(let v):
            guard let position else { throw fail(i, "no key \"\(key)\"") }
            let inner = try own(vs[position], in: .item(object: node, key: "NS.objects", index: position))
            try appendToList(inner, v, at: i)
            return
        }
        try graph.setField("NS.keys", to: .references(ks), inObject: node)
        try graph.setField("NS.objects", to: .references(vs), inObject: node)
    }

    private mutating func editField(_ node: Int, object o: ArchivedObject, key: String, edit: PlistEdit, at i: Int) throws {
        switch edit {
        case .set(let v):
            if case .inline(let old)? = o[key], SecureCodingCheck.isPrimitive(old), SecureCodingCheck.isPrimitive(v) {
                try graph.setField(key, to: .inline(v), inObject: node)
            } else {
                try graph.setField(key, to: .reference(try encode(v)), inObject: node)
            }
        case .remove:
            guard graph.removeField(key, fromObject: node) else {
                throw fail(i, "\(o.className.readable) has no field \"\(key)\" to remove (fields: \(o.fields.map(\.key).joined(separator: ", ")))")
            }
        case .append(let v):
            guard case .reference(let r)? = o[key] else { throw fail(i, "\(o.className.readable).\(key) is not an array to append to") }
            let inner = try own(r, in: .field(object: node, key: key))
            try appendToList(inner, v, at: i)
        }
    }

    private mutating func appendToList(_ node: Int, _ v: PlistValue, at i: Int) throws {
        guard case .object(let o) = graph.nodes[node], let list = listField(o) else { throw fail(i, "\(describe(node)), not an array to append to") }
        try graph.setField(list, to: .references(refs(o[list]) + [try encode(v)]), inObject: node)
    }

    /// Appends the nodes NSKeyedArchiver writes for a value; returns its index.
    private mutating func encode(_ v: PlistValue) throws -> Int {
        switch v {
        case .string, .integer, .real, .bool, .data:
            return graph.append(.value(v))
        case .date(let d):
            return graph.append(.object(ClassCatalogue.standing(for: .date).written([.inline(.double(d.secondsSinceReferenceDate))])))
        case .array(let items):
            var rs: [Int] = []
            for item in items { rs.append(try encode(item)) }
            return graph.append(.object(ClassCatalogue.standing(for: .array).written([.references(rs)])))
        case .dictionary(let d):
            var ks: [Int] = [], vs: [Int] = []
            for (key, item) in d {
                ks.append(graph.append(.value(.string(key))))
                vs.append(try encode(item))
            }
            return graph.append(.object(ClassCatalogue.standing(for: .dictionary).written([.references(ks), .references(vs)])))
        case .uid, .null:
            throw PlistError(.notRepresentable, "\(v.aTypeName) cannot be written into an archive")
        }
    }
}
