import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistDatabase
import ArgumentParser

/// `archivist dump`: shows a property list or keyed archive for people.
struct Dump: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a property list, or a keyed archive as objects.",
        discussion: """
            A keyed archive (NSKeyedArchiver) is shown as objects, not $objects indices:
            each object with its class and fields in order, inline primitives marked
            "(inline real)" ("(inline float)" for 32 bits), Foundation values as values, an object referenced from
            several places labelled @N once and referred to as -> @N after (cycles stay
            finite). A <data> value holding a property list or keyed archive is decoded
            and shown nested. Other property lists are shown as a typed tree, as
            plutil -p does. --color auto (the default) colours a terminal unless NO_COLOR
            is set to a non-empty value or TERM is dumb; always and never decide outright.
            --format dot writes a keyed archive's object graph for Graphviz: one node
            per object with its class and scalar fields, edges named by key, shared
            objects once, references that close a cycle as dashed back-edges.

            Example:
              archivist dump Data.plist
              archivist dump --raw Data.plist
              archivist dump --json Data.plist
              archivist dump --format dot Data.plist | dot -Tsvg -o Data.svg
              archivist dump --key-path root.cpu_coder.cores.1 Computer.plist
              archivist dump --depth 2 Preferences.plist
              archivist dump --stable Settings.plist    (git: diff.plist.textconv)
              archivist dump --sqlite App.sqlite --table ZEMPLOYEEENTITY --column ZCONTACT --row 3
            """
    )

    @Argument(help: ArgumentHelp("The file to show ('-' reads standard input).", valueName: "FILE"))
    var file: String?

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("With --sqlite, the rowid (Core Data's Z_PK) of the blob to show.", valueName: "ID"))
    var row: Int64?

    @Flag(help: "Show the plain tree, with UIDs, without resolving an archive.")
    var raw = false

    @Option(help: ArgumentHelp("Show containers only this many levels deep.", valueName: "N"))
    var depth: Int?

    @Flag(help: "Print the same view as JSON, for programs (--format json).")
    var json = false

    /// What `dump` writes.
    enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
        case text, json, dot
    }

    @Option(help: ArgumentHelp("Output: text (default), json (as --json), dot (a keyed archive's object graph for Graphviz).", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Flag(help: "A text for diffs: sorted keys and fields, labels in order of appearance, no colour (for git's textconv).")
    var stable = false

    @Option(help: ArgumentHelp("Colour: auto (a terminal without NO_COLOR or TERM=dumb), always or never.", valueName: "WHEN"))
    var color: ColorChoice = .auto

    @Option(name: .customLong("key-path"), help: ArgumentHelp("Show only what a dotted key path leads to (root.items.0.name; \\. for a dot).", valueName: "PATH"))
    var keyPath: String?

    func validate() throws {
        if let depth, depth < 0 { throw ValidationError("--depth takes a number of levels, 0 or more.") }
        if json, format != .text, format != .json { throw ValidationError("--json is --format json; give one format.") }
        if format == .dot, raw || stable || depth != nil {
            throw ValidationError("--format dot draws an archive's whole graph; it takes no --raw, --stable or --depth.")
        }
        try database.validate(requireColumn: true)
        if (file == nil) == (database.sqlite == nil) { throw ValidationError("Give one FILE, or --sqlite STORE with --table, --column and --row.") }
        if database.sqlite != nil, row == nil { throw ValidationError("--sqlite needs --row here.") }
        if database.sqlite == nil, row != nil { throw ValidationError("--row goes with --sqlite.") }
    }

    /// The bytes to show, and the name errors carry.
    private func input() throws -> ([UInt8], String) {
        if let store = database.sqlite, let column = database.blobColumn, let row {
            let label = "\(store): \(column.label) row \(row)"
            let db = try SQLiteDatabase(path: store, readOnly: true)
            guard let bytes = try column.blob(row: row, in: db) else {
                throw PlistError(.io, "row \(row) of \(column.label) holds NULL or a value that is not a blob")
            }
            return (bytes, label)
        }
        let file = self.file ?? "-"
        return (try FileIO.read(file), file)
    }

    func run() throws {
        var name = file ?? database.sqlite ?? "-"
        do {
            let (bytes, label) = try input()
            name = label
            let document = try PropertyList.read(bytes)
            var options = DumpOptions(maxDepth: depth)
            options.color = color.enabled && !stable
            options.stable = stable
            if let keyPath, format == .dot {
                // A key path names where to start: an object of an archive, nested ones included.
                guard case .node(let graph, let i) = try PlistKeyPath(keyPath).resolve(in: document.value) else {
                    throw PlistError(.invalidValue, "--format dot draws archived objects, and \(keyPath) leads to none")
                }
                Console.output(ArchiveGraphviz.render(graph, from: i, named: keyPath), terminator: "")
                return
            }
            if let keyPath {
                switch try PlistKeyPath(keyPath).resolve(in: document.value) {
                case .value(let v):
                    Console.output(TreeDumper.render(v, options: options), terminator: "")
                case .node(let graph, let i):
                    Console.output(ArchiveDumper.render(graph, node: i, options: options), terminator: "")
                case .references(let graph, let refs):
                    for r in refs { Console.output(ArchiveDumper.render(graph, node: r, options: options), terminator: "") }
                }
                return
            }
            let isArchive = !raw && KeyedArchive.looksLikeArchive(document.value)
            if format == .dot {
                guard isArchive else { throw PlistError(.invalidValue, "--format dot draws keyed archives, and this is a plain property list (--key-path leads into an archive it holds)") }
                Console.output(ArchiveGraphviz.render(try ObjectGraph(document.value)), terminator: "")
            } else if json || format == .json {
                let view = isArchive ? ArchiveJSONView.tree(try ObjectGraph(document.value), options: options) : document.value
                Console.output(String(decoding: try PropertyList.write(view, as: .json, options: WriteOptions(pretty: true)), as: UTF8.self),
                               terminator: "")
            } else if isArchive {
                Console.output(ArchiveDumper.render(try ObjectGraph(document.value), options: options), terminator: "")
            } else {
                Console.output(TreeDumper.render(document.value, options: options), terminator: "")
            }
        } catch let error as PlistError {
            Console.error(error.formatted(path: name))
            throw ExitCode.failure
        }
    }
}
