import ArchivistCore

/// An edit at a key path.
public enum PlistEdit: Sendable, Equatable {
    /// Insert or replace the value the path names (an index one past the end appends).
    case set(PlistValue)
    /// Append to the array the path names.
    case append(PlistValue)
    /// Remove what the path names.
    case remove
}

/// Applies edits at key paths to plain trees, to archives nested in `<data>`
/// (written back in their own format) and to keyed archives' objects (written
/// back as archives Foundation decodes, an object shared with other places
/// copied first so that only the edited path changes).
public enum PlistEditor {
    /// The document with the edit applied, as a value to write. A keyed
    /// archive is edited as its object graph (built on the tree) and written
    /// back; a plain document is edited as its `PlistValue`. `create` makes
    /// missing intermediate dictionaries. Errors name the component that
    /// failed and what was there.
    ///
    /// - Parameters:
    ///   - edit: What to do at the path.
    ///   - path: Where, in plutil's dotted notation.
    ///   - document: A document's tree.
    ///   - create: Make missing intermediate dictionaries.
    /// - Returns: The edited document, to write in a format.
    /// - Throws: `PlistError` naming the component that failed; a missing key
    ///   on the way has the reason `PlistError.Reason.missingKey`.
    public static func apply(_ edit: PlistEdit, at path: PlistKeyPath, in document: PlistTree, create: Bool = false) throws -> PlistValue {
        guard !path.components.isEmpty else {
            let root = document.value
            switch edit {
            case .set(let v): return v
            case .append(let v):
                guard case .array(var items) = root else { throw fail(path, 0, "the top level is \(root.aTypeName), not an array") }
                items.append(v)
                return .array(items)
            case .remove: throw PlistError(.invalidValue, "the top level cannot be removed")
            }
        }
        return try applying(edit, to: document, path: path, at: 0, create: create, nesting: 0)
    }

    static func fail(_ path: PlistKeyPath, _ index: Int, _ message: String) -> PlistError {
        let shown = PlistKeyPath(components: Array(path.components[...min(index, path.components.count - 1)]))
        return PlistError(.invalidValue, "\(shown): \(message)")
    }

    /// Applies an edit to a document (the input, or one held in data): an
    /// archive's graph is built on its tree, a plain document converted once.
    private static func applying(_ edit: PlistEdit, to document: PlistTree, path: PlistKeyPath, at i: Int, create: Bool, nesting: Int) throws -> PlistValue {
        guard KeyedArchive.looksLikeArchive(document) else {
            return try applying(edit, to: document.value, path: path, at: i, create: create, nesting: nesting)
        }
        var editor = ArchiveEditor(graph: try ObjectGraph(document), path: path, create: create, nesting: nesting)
        try editor.apply(edit, from: i)
        return try GraphWriter.archive(editor.graph).value
    }

    private static func applying(_ edit: PlistEdit, to value: PlistValue, path: PlistKeyPath, at i: Int, create: Bool, nesting: Int) throws -> PlistValue {
        let key = path.components[i]
        let last = i == path.components.count - 1
        switch value {
        case .dictionary(var d):
            if last {
                switch edit {
                case .set(let v): d[key] = v
                case .remove:
                    guard d[key] != nil else { throw fail(path, i, "no key \"\(key)\" to remove (dictionary of \(counted(d.count, "key"))\(PlistKeys.normalisationHint(for: key, in: d.keys)))") }
                    d[key] = nil
                case .append(let v):
                    guard case .array(var items)? = d[key] else {
                        throw fail(path, i, d[key].map { "\($0.aTypeName), not an array to append to" } ?? "no key \"\(key)\" (dictionary of \(counted(d.count, "key"))\(PlistKeys.normalisationHint(for: key, in: d.keys)))")
                    }
                    items.append(v)
                    d[key] = .array(items)
                }
                return .dictionary(d)
            }
            let child: PlistValue
            if let existing = d[key] {
                child = existing
            } else if create {
                child = .dictionary(PlistDictionary())
            } else {
                throw fail(path, i, "no key \"\(key)\" (dictionary of \(counted(d.count, "key"))\(PlistKeys.normalisationHint(for: key, in: d.keys)))").because(.missingKey)
            }
            d[key] = try applying(edit, to: child, path: path, at: i + 1, create: create, nesting: nesting)
            return .dictionary(d)
        case .array(var items):
            guard let index = Int(key), index >= 0 else { throw fail(path, i, "\"\(key)\" is not an index (array of \(items.count))") }
            if last {
                switch edit {
                case .set(let v):
                    guard index <= items.count else { throw fail(path, i, "index \(index) out of range (array of \(items.count))") }
                    if index == items.count { items.append(v) } else { items[index] = v }
                case .remove:
                    guard index < items.count else { throw fail(path, i, "index \(index) out of range (array of \(items.count))") }
                    items.remove(at: index)
                case .append(let v):
                    guard index < items.count else { throw fail(path, i, "index \(index) out of range (array of \(items.count))") }
                    guard case .array(var inner) = items[index] else { throw fail(path, i, "\(items[index].aTypeName), not an array to append to") }
                    inner.append(v)
                    items[index] = .array(inner)
                }
                return .array(items)
            }
            guard index < items.count else { throw fail(path, i, "index \(index) out of range (array of \(items.count))") }
            items[index] = try applying(edit, to: items[index], path: path, at: i + 1, create: create, nesting: nesting)
            return .array(items)
        case .data(let bytes):
            return .data(try nested(bytes, path: path, at: i, edit: edit, create: create, nesting: nesting))
        case .string, .integer, .real, .bool, .date, .uid, .null:
            throw fail(path, i, "\(value.aTypeName) has no key \"\(key)\"")
        }
    }

    /// Edits the document held in data (`NestedDocuments`' rewrite: what
    /// `get` steps into, to the same level limit) and writes it back in its
    /// format; a typedstream or bookmark is read but not written, an error.
    static func nested(_ bytes: [UInt8], path: PlistKeyPath, at i: Int, edit: PlistEdit, create: Bool, nesting: Int) throws -> [UInt8] {
        let shown = PlistKeyPath(components: Array(path.components[...min(i, path.components.count - 1)]))
        let edited = try NestedDocuments.rewrite(bytes, level: nesting, at: shown.description, unwritable: .fail) { nested, level -> PlistValue? in
            try applying(edit, to: nested.document.tree, path: path, at: i, create: create, nesting: level)
        }
        return edited ?? bytes
    }
}
