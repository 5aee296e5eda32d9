import ArchivistCore

/// A readable, typed rendering of a plain property-list tree, in the manner of
/// macOS `plutil -p`: `"key" => value`, arrays with indices, dictionaries in the
/// order read. `<data>` holding a property list, keyed archive, JSON or a
/// bookmark is decoded and shown nested.
package struct TreeDumper {
    let options: DumpOptions
    var out: DumpBuffer
    /// What the view may still show, shared with nested dumpers.
    var budget: ViewBudget
    /// The tree's shared nodes shown once and referred to after (nil for a
    /// tree made from a value, which shares nothing).
    var shared: PlistSharedNodes?
    /// Labels of the shared nodes shown, numbered in order of appearance.
    var labels: [Int: Int] = [:]

    /// The text of a tree; an error when it would show more than
    /// `options.maxValues` values (archives nested in data included).
    package static func render(_ value: PlistValue, options: DumpOptions = DumpOptions()) throws -> String {
        let sink = ByteSink()
        try render(value, options: options, into: sink)
        return sink.text()
    }

    /// Writes the text of a value (what a key path leads to) into `sink` as it is made.
    package static func render(_ value: PlistValue, options: DumpOptions = DumpOptions(), into sink: ByteSink) throws {
        try render(try PlistTree(value), options: options, into: sink)
    }

    /// Writes the text of a compact tree (a document's `tree`) into `sink` as it is made.
    package static func render(_ tree: PlistTree, options: DumpOptions = DumpOptions(), into sink: ByteSink) throws {
        var d = TreeDumper(options: options, budget: ViewBudget(options, inputBytes: tree.inputMeasure), out: DumpBuffer(sink))
        d.share(tree)
        try d.node(tree.root, in: tree, indent: 0)
        d.out += "\n"
    }

    init(options: DumpOptions, budget: ViewBudget, out: DumpBuffer) {
        self.options = options
        self.budget = budget
        self.out = out
    }

    /// True when data holds a property list, keyed archive, JSON or bookmark that
    /// `render` shows decoded (for `get`, which prints other data as base64).
    package static func showsDecoded(_ bytes: [UInt8]) -> Bool {
        NestedDocuments.open(bytes, level: 0) != nil
    }

    private func pad(_ n: Int) -> String { ArchiveDumper.pad(n) }

    /// A value (an archive's inline value), shown as its compact tree is.
    mutating func value(_ v: PlistValue, indent: Int) throws {
        let tree = try PlistTree(v)
        try node(tree.root, in: tree, indent: indent)
    }

    /// Shows `tree`'s large shared values once, labelled `@N`, and refers
    /// to them as `-> @N` after.
    mutating func share(_ tree: PlistTree) {
        let nodes = PlistSharedNodes(tree)
        shared = nodes.any ? nodes : nil
    }

    /// `"key" => value` and its line break, one level in from `indent`.
    private mutating func entry(_ key: String, _ item: Int, in tree: PlistTree, indent: Int) throws {
        out += pad(indent + 1)
        out += DumpText.quoted(key)
        out += " => "
        try node(item, in: tree, indent: indent + 1)
        out += "\n"
    }

    mutating func node(_ n: Int, in tree: PlistTree, indent: Int) throws {
        try budget.spend(object: nil)
        try out.sink.checkDrain()
        if let shared, shared.isReferable(n, in: tree) {
            if let label = labels[n] {
                out += options.paint("-> @\(label)", .label)
                return
            }
            let label = labels.count + 1
            labels[n] = label
            out += options.paint("@\(label)", .label) + " "
        }
        switch tree.kind(of: n) {
        case .array:
            let count = tree.count(of: n)
            if count == 0 { out += "[]"; return }
            if indent >= options.depthLimit { out += "[ … \(counted(count, "item")) ]"; return }
            out += "[\n"
            for i in 0..<count {
                out += pad(indent + 1)
                out += "\(i) => "
                try node(tree.element(i, of: n), in: tree, indent: indent + 1)
                out += "\n"
            }
            out += pad(indent) + "]"
        case .dictionary:
            let count = tree.count(of: n)
            if count == 0 { out += "{}"; return }
            if indent >= options.depthLimit { out += "{ … \(counted(count, "key")) }"; return }
            out += "{\n"
            if options.stable {
                var entries = (0..<count).map { i in
                    let (key, value) = tree.entry(i, of: n)
                    return (key: tree.string(at: key) ?? "", value: value)
                }
                entries.sort { $0.key < $1.key }
                for (k, item) in entries { try entry(k, item, in: tree, indent: indent) }
            } else {
                // In the order read, each key made as it is shown: no table of the entries.
                for i in 0..<count {
                    let (key, value) = tree.entry(i, of: n)
                    try entry(tree.string(at: key) ?? "", value, in: tree, indent: indent)
                }
            }
            out += pad(indent) + "}"
        case .data:
            let bytes = tree.data(at: n) ?? []
            if options.expandNestedArchives, let nested = NestedDocuments.open(bytes, level: options.nestedLevel) {
                out += DumpText.data(bytes, stable: options.stable) + " holding " + nested.label + " "
                var inner = options
                inner.nestedLevel += 1
                if let graph = nested.objectGraph {
                    var a = ArchiveDumper(graph: graph, options: inner, budget: budget, out: out)
                    try a.body(indent: indent)
                    budget = a.budget
                } else {
                    var t = TreeDumper(options: inner, budget: budget, out: out)
                    t.share(nested.document.tree)
                    try t.node(nested.document.tree.root, in: nested.document.tree, indent: indent)
                    budget = t.budget
                }
            } else {
                out += DumpText.data(bytes, stable: options.stable)
            }
        case .string:
            out.appendQuoted(tree.string(at: n) ?? "", options)
        case .integer, .real, .bool, .date, .uid, .null:
            out += DumpText.scalar(tree.value(at: n))
        }
    }
}
