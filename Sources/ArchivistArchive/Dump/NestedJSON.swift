import ArchivistCore

/// Data as `dump --json` shows it: what `NestedDocuments` opens (as the
/// text view decodes it, to the same level limit and out of the same view
/// budget) is `{"data": BASE64, KIND: VIEW}`, the bytes and what they hold,
/// KIND `"plist"`, `"archive"`, `"typedstream"`, `"bookmark"` or `"json"`
/// and VIEW the JSON view of that document (an archive's objects, a plain
/// tree); any other data stays a base64 string. A document whose view JSON
/// cannot write (a NaN real) stays data too.
package enum NestedJSON {
    /// The key of what a document held in data is shown under.
    static func key(_ kind: NestedData.Kind) -> String {
        switch kind {
        case .propertyList: return "plist"
        case .keyedArchive: return "archive"
        case .typedstream: return "typedstream"
        case .bookmark: return "bookmark"
        case .json: return "json"
        }
    }

    /// Writes the view of a plain tree (a document's), its data decoded.
    package static func tree(_ tree: PlistTree, options: DumpOptions, into json: inout JSONStream) throws {
        var budget = ViewBudget(options, inputBytes: tree.inputMeasure)
        try self.tree(tree, level: 0, options: options, budget: &budget, into: &json)
    }

    private static func tree(_ tree: PlistTree, level: Int, options: DumpOptions, budget: inout ViewBudget, into json: inout JSONStream) throws {
        try json.view(of: tree, at: tree.root) { json, bytes in
            try data(bytes, level: level, options: options, budget: &budget, into: &json)
            return true
        }
    }

    /// Writes `value` (an archive's value or inline field), its data decoded.
    static func value(_ value: PlistValue, level: Int, options: DumpOptions, budget: inout ViewBudget, into json: inout JSONStream) throws {
        switch value {
        case .data(let bytes):
            try data(bytes, level: level, options: options, budget: &budget, into: &json)
        case .array(let items):
            json.beginArray()
            for item in items {
                json.element()
                try self.value(item, level: level, options: options, budget: &budget, into: &json)
            }
            json.endArray()
        case .dictionary(let d):
            json.beginObject()
            for (k, item) in d {
                json.key(k)
                try self.value(item, level: level, options: options, budget: &budget, into: &json)
            }
            json.endObject()
        case .string, .integer, .real, .bool, .date, .uid, .null:
            try json.value(value)
        }
    }

    /// Writes data `level` levels down: the document it holds beside its
    /// bytes, or the bytes.
    static func data(_ bytes: [UInt8], level: Int, options: DumpOptions, budget: inout ViewBudget, into json: inout JSONStream) throws {
        guard options.expandNestedArchives, let nested = NestedDocuments.open(bytes, level: level) else {
            return try json.value(.data(bytes))
        }
        // Made apart and put in place whole, so that a document JSON cannot
        // write leaves no part of it behind.
        let sink = ByteSink()
        var inner = json.nestedStream(into: sink)
        let saved = budget
        do {
            inner.beginObject()
            inner.key("data")
            try inner.value(.data(bytes))
            inner.key(key(nested.kind))
            if let graph = nested.objectGraph {
                try ArchiveJSONDumper.write(graph, options: options, budget: &budget, level: level + 1, into: &inner)
            } else {
                let document = nested.document.tree
                try budget.spend(document.nodeCount, object: nil)
                try tree(document, level: level + 1, options: options, budget: &budget, into: &inner)
            }
            inner.endObject()
        } catch let error as PlistError where error.kind != .limitExceeded {
            budget = saved
            return try json.value(.data(bytes))
        }
        json.embed(sink)
    }
}
