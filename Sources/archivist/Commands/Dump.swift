import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistDatabase
import ArgumentParser

/// `archivist dump`: shows a property list or keyed archive for people.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        _superCommandName: Archivist.name,
        abstract: "Show a property list, or a keyed archive as objects.",
        discussion: """
            A keyed archive (NSKeyedArchiver) is shown as objects, not $objects indices: each \
            object with its class and fields in order, inline primitives marked "(inline real)" \
            ("(inline float)" for 32 bits), Foundation values as values, an object referenced from \
            several places labelled @N once and referred to as -> @N after (cycles stay finite); so is \
            a long string or data, and a plain property list's shared array or dictionary (--json: \
            {"$ref": "#/POINTER"}, the JSON Pointer of its first appearance).
            A <data> value holding a property list, keyed archive, JSON or a macOS bookmark is \
            decoded and shown nested.
            Other property lists are shown as a typed tree, as plutil -p does.
            --color auto (the default) colours a terminal unless NO_COLOR is set to a non-empty \
            value or TERM is dumb; always and never decide outright.
            --format dot writes a keyed archive's object graph for Graphviz: one node per object \
            with its class and scalar fields, edges named by key, shared objects once, references \
            that close a cycle as dashed back-edges.
            With --sqlite STORE --table T --column C every blob of the column (or --row ID's) is \
            shown under its label 'STORE: T.C row N' (--json: one array of {"row", "value"}; dot: \
            the label as a // comment before each graph).
            --label-column NAME adds that column's value to each label ('row N (NAME: VALUE)'; \
            JSON: "label" and "labelColumn"), and --where COLUMN=VALUE takes only the rows whose \
            COLUMN holds VALUE (bound as a parameter, compared as SQLite compares it with the \
            column's affinity).
            --json-lines writes the JSON view of each FILE (several may be given) or store row as \
            one line, {"file", "value"} or {"row", "value"}, each as soon as it is read (for jq); \
            a file or row that fails writes no line.

            Example:
              archivist dump Data.plist
              archivist dump --raw Data.plist
              archivist dump --json Data.plist
              archivist dump --format dot Data.plist | dot -Tsvg -o Data.svg
              archivist dump --key-path root.cpu_coder.cores.1 Computer.plist
              archivist dump --depth 2 Preferences.plist
              archivist dump --stable Settings.plist    (git: diff.plist.textconv)
              archivist dump --sqlite App.sqlite --table ZEMPLOYEEENTITY --column ZCONTACT
              archivist dump --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --row 3
              archivist dump --json-lines Preferences/*.plist | jq .value
              archivist dump --sqlite Manifest.db --table Files --column file \\
                --label-column relativePath --where domain=HomeDomain
            """
    )

    @Argument(help: ArgumentHelp("The file to show ('-' reads standard input); several with --json-lines.", valueName: "FILE"))
    var files: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Flag(help: "Show the plain tree, with UIDs, without resolving an archive.")
    var raw = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Show containers only this many levels deep.", valueName: "N"))
    var depth: Int?

    @Flag(help: "Print the same view as JSON, for programs (--format json).")
    var json = false

    @Flag(name: .customLong("json-lines"), help: "One JSON object a line per file ({\"file\", \"value\"}) or store row ({\"row\", \"value\"}), each written when read (for jq).")
    var jsonLines = false

    /// What `dump` writes.
    enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
        case text, json, dot

        static var allValueDescriptions: [String: String] {
            ["text": "the text view", "json": "JSON, as --json", "dot": "a keyed archive's object graph for Graphviz"]
        }
    }

    @Option(help: ArgumentHelp("What to print.", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Flag(help: "A text for diffs: sorted keys and fields, labels in order of appearance, no colour (for git's textconv).")
    var stable = false

    @Option(help: ColorChoice.help)
    var color: ColorChoice = .auto

    @Option(name: .customLong("key-path"), help: ArgumentHelp("Show only what a dotted key path leads to (root.items.0.name; \\. for a dot).", valueName: "PATH"))
    var keyPath: String?

    func validate() throws {
        if let depth, depth < 0 { throw ValidationError("--depth takes a number of levels, 0 or more.") }
        if json, format != .text, format != .json { throw ValidationError("--json is --format json; give one format.") }
        if format == .dot, raw || stable || depth != nil {
            throw ValidationError("--format dot draws an archive's whole graph; it takes no --raw, --stable or --depth.")
        }
        try store.validate(requireColumn: true)
        if jsonLines, json || format != .text || keyPath != nil {
            throw ValidationError("--json-lines writes each whole view as one line of JSON: it takes no --json, --format or --key-path.")
        }
        if files.isEmpty == !store.isSet || (files.count > 1 && !jsonLines) {
            throw ValidationError("Give one FILE (several with --json-lines), or --sqlite STORE with --table and --column (and --row for one blob).")
        }
    }

    func run() throws {
        if jsonLines { return try runJSONLines() }
        guard store.isSet else {
            let file = files.first ?? "-"
            try failing(at: file) {
                let document = try DocumentReading.read(file: file)
                if asJSON, keyPath == nil {
                    let sink = Console.dataSink()
                    var json = JSONStream(into: sink)
                    try jsonView(document, into: &json)
                    json.finish()
                    try sink.finish()
                } else {
                    try show(document)
                }
            }
            return
        }
        // A store: every row (or --row's), each labelled with its rowid; as
        // JSON, one array of {"row", "value"}, each row's view made whole
        // before it is written, so a row that fails leaves no part behind.
        let sink = asJSON && keyPath == nil ? Console.dataSink() : Console.outputSink()
        var json = JSONStream(into: sink)
        if asJSON, keyPath == nil { json.beginArray() }
        // Other data beside the archives (gzip bodies) is named in place in the text view.
        let other: ((StoreRow, String) -> Void)? = asJSON && keyPath == nil ? nil : { row, kind in
            Console.output(format == .dot ? "// \(row.label): \(kind)" : "\(row.label): \(kind)")
        }
        let rowsRead = try store.forEachRowReportingErrors(other: other) { row in
            // Standard output failed (a closed pipe): no more rows are read.
            try sink.checkDrain()
            try Console.checkOutput()
            let document = try DocumentReading.read(row.bytes)
            if asJSON, keyPath == nil {
                let view = ByteSink()
                var viewJSON = JSONStream(into: view, depth: 2)
                try jsonView(document, into: &viewJSON)
                json.element()
                json.beginObject()
                try rowFields(row, into: &json)
                json.embed(view)
                json.endObject()
            } else {
                Console.output(format == .dot ? "// " + row.label : row.label + ":")
                try show(document)
            }
        }
        if asJSON, keyPath == nil {
            json.endArray()
            json.finish()
        }
        try sink.finish()
        if !rowsRead { throw ExitCode.failure }
    }

    /// Writes the text view (or with --format dot, the Graphviz drawing) to
    /// standard output; an archive's objects and plain trees are written as
    /// they are rendered.
    private func show(_ document: PlistDocument) throws {
        if format == .dot { return Console.text(try dot(document)) }
        let sink = Console.outputSink(painted: options.color)
        let tree = document.tree
        if let keyPath {
            try text(document, keyPath: keyPath, into: sink)
        } else if !raw, KeyedArchive.looksLikeArchive(tree) {
            try ArchiveDumper.render(try ObjectGraph(tree), options: options, into: sink)
        } else {
            try TreeDumper.render(tree, options: options, into: sink)
        }
        try sink.finish()
    }

    /// A row's own members in its JSON object: `"row"`, `"label"` and
    /// `"labelColumn"` with --label-column, then the key `"value"`, whose
    /// value the caller writes.
    func rowFields(_ row: StoreRow, into json: inout JSONStream) throws {
        json.key("row")
        try json.value(.int(row.rowid))
        if let name = store.labelColumn {
            json.key("label")
            try json.value(Self.labelJSON(row.labelValue))
            json.key("labelColumn")
            try json.value(.string(name))
        }
        json.key("value")
    }

    /// A --label-column value for JSON: text as a string (invalid UTF-8
    /// replaced), numbers as numbers, a blob as base64, NULL as null.
    static func labelJSON(_ value: StoredValue?) -> PlistValue {
        switch value {
        case .text(let bytes)?: return .string(String(decoding: bytes, as: UTF8.self))
        case .integer(let n)?: return .int(n)
        case .real(let r)?: return .double(r)
        case .blob(let bytes)?: return .data(bytes)
        case nil: return .null
        }
    }

    /// True for --json and --format json.
    private var asJSON: Bool { json || format == .json }

    private var options: DumpOptions {
        var options = DumpOptions(maxDepth: depth)
        options.color = color.enabled && !stable
        options.stable = stable
        return options
    }

    /// Writes the text view of what --key-path leads to into `sink`.
    private func text(_ document: PlistDocument, keyPath: String, into sink: ByteSink) throws {
        let options = self.options
        switch try PlistKeyPath(keyPath).resolve(in: document.tree) {
        case .tree(let node):
            try TreeDumper.render(node.value, options: options, into: sink)
        case .value(let v):
            try TreeDumper.render(v, options: options, into: sink)
        case .archive(let graph):
            try ArchiveDumper.render(graph, options: options, into: sink)
        case .node(let graph, let i):
            try ArchiveDumper.render(graph, node: i, options: options, into: sink)
        case .references(let graph, let refs):
            for r in refs { try ArchiveDumper.render(graph, node: r, options: options, into: sink) }
        }
    }

    /// The object graph for Graphviz, from the root or from where --key-path leads.
    private func dot(_ document: PlistDocument) throws -> String {
        let tree = document.tree
        if let keyPath {
            // A key path names where to start: an object of an archive, nested ones included.
            switch try PlistKeyPath(keyPath).resolve(in: tree) {
            case .node(let graph, let i): return ArchiveGraphviz.render(graph, from: i, named: keyPath)
            case .archive(let graph): return ArchiveGraphviz.render(graph)
            case .tree, .value, .references: throw PlistError(.invalidValue, "--format dot draws archived objects, and \(keyPath) leads to none")
            }
        }
        guard KeyedArchive.looksLikeArchive(tree) else {
            throw PlistError(.invalidValue, "--format dot draws keyed archives, and this is a plain property list (--key-path leads into an archive it holds)")
        }
        return ArchiveGraphviz.render(try ObjectGraph(tree))
    }

    /// The JSON view, written as the next value of `json`: an archive's
    /// objects, or the plain tree.
    func jsonView(_ document: PlistDocument, into json: inout JSONStream) throws {
        let tree = document.tree
        if raw { return try json.view(of: tree, at: tree.root) }
        // A plain tree's data is shown decoded beside its bytes, as the text view decodes it.
        guard KeyedArchive.looksLikeArchive(tree) else { return try NestedJSON.tree(tree, options: options, into: &json) }
        try ArchiveJSONDumper.write(try ObjectGraph(tree), options: options, into: &json)
    }
}
