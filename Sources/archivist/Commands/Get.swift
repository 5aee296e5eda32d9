import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArgumentParser

/// `archivist get`: the value a key path leads to.
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        _superCommandName: Archivist.name,
        abstract: "Print the value at a key path.",
        discussion: """
            Key paths are dotted keys with array indices, as plutil spells them \
            (CFBundleURLTypes.0.CFBundleURLSchemes, a backslash before a dot that is part of a \
            key); through a keyed archive they start at a $top key \
            (root.cpu_coder.cores.1.coreID), and they go on into archives and property lists \
            nested in data (currentUser.root.name).
            Scalars print raw: a string as its text, a number as digits, a date in ISO 8601, data \
            as base64 (its bytes with --raw).
            Containers and objects print as dump shows them, or in a format with --to; so does \
            data holding a property list, a keyed archive, JSON (a value stored with JSONEncoder) \
            or a bookmark (path, volume, dates).
            --type prints the type only (string, integer, real, bool, date, data, array, \
            dictionary, uid, or an object's class); --expect TYPE fails (status 1) when the type \
            differs (float, as plutil says, is accepted for real).
            -n prints no newline after the value, as plutil's -extract with -n does (a container \
            loses the newline its text ends with).
            A path that does not resolve fails with status 1 and says which component failed and \
            what was there instead.

            Examples:
              archivist get Info.plist CFBundleIdentifier
              archivist get Info.plist CFBundleURLTypes.0 --to json
              archivist get Computer.plist root.cpu_coder.cores.1.coreID
              archivist get Preferences.plist currentUser.root.name --expect string
              VERSION=$(archivist get Info.plist CFBundleShortVersionString -n)
            """
    )

    @Argument(help: ArgumentHelp("The file ('-' reads standard input).", valueName: "FILE"))
    var file: String

    @Argument(help: ArgumentHelp("The key path (empty for the whole file).", valueName: "KEYPATH"))
    var keyPath: String

    @Option(help: ArgumentHelp("Write a container in this format.", valueName: "FORMAT"))
    var to: PlistFormat?

    @Flag(help: "Print the type only.")
    var type = false

    @Option(help: ArgumentHelp("Fail unless the value has this type (as --type prints it).", valueName: "TYPE"))
    var expect: String?

    @Flag(help: "Data: write its bytes instead of base64.")
    var raw = false

    @Flag(name: [.customShort("n"), .customLong("no-newline")], help: "Print no newline after the value (as plutil -extract -n).")
    var noNewline = false

    func run() throws {
        Console.stopsAtFailedOutput = true
        try failing(at: file) {
            let document = try DocumentReading.read(file: file)
            let target = try PlistKeyPath(keyPath).resolve(in: document.tree)
            if let expect, target.typeName != (expect == "float" ? "real" : expect) {
                throw PlistError(.invalidValue, "\(keyPath): expected \(expect), found \(target.typeName)")
            }
            if type {
                line(target.typeName)
                return
            }
            if let to {
                var bytes = try PropertyList.write(try target.plainValue(), as: to, options: WriteOptions(pretty: true))
                if noNewline, bytes.last == 0x0A { bytes.removeLast() }
                try FileIO.writeAtomically(bytes, to: "-")
                return
            }
            try print(target)
        }
    }

    private func print(_ target: PlistKeyPath.Target) throws {
        switch try target.printedScalar() {
        case .string(let s)?: Console.data(s, terminator: newline)
        case .integer(let i)?: line(i.description)
        case .real(let r)?: line(r.description)
        case .bool(let b)?: line(b ? "true" : "false")
        case .date(let d)?: line(ISO8601.format(d))
        case .uid(let u)?: line(String(u))
        case .data(let bytes)?:
            if raw {
                try FileIO.writeAtomically(bytes, to: "-")
            } else if TreeDumper.showsDecoded(bytes) {
                try block { try TreeDumper.render(.data(bytes), into: $0) }
            } else {
                line(String(decoding: Base64.encode(bytes), as: UTF8.self))
            }
        case .null?, .array?, .dictionary?, nil:
            switch target {
            case .tree(let node): try block { try TreeDumper.render(node.value, into: $0) }
            case .value(let v): try block { try TreeDumper.render(v, into: $0) }
            case .archive(let graph): try block { try ArchiveDumper.render(graph, into: $0) }
            case .node(let graph, let i): try block { try ArchiveDumper.render(graph, node: i, into: $0) }
            case .references(let graph, let refs):
                try block { sink in
                    for r in refs { try ArchiveDumper.render(graph, node: r, into: sink) }
                }
            }
        }
    }

    /// What follows a value: a newline, or nothing with -n.
    private var newline: String { noNewline ? "" : "\n" }

    /// Prints a one-line value, its control characters escaped.
    private func line(_ text: String) {
        Console.data(TerminalText.escaped(text), terminator: newline)
    }

    /// Prints a dump as it is rendered into the sink `render` is given, its
    /// control characters escaped (line feeds and tabs kept); -n leaves out
    /// the newline it ends with.
    private func block(_ render: (ByteSink) throws -> Void) throws {
        let sink = Console.outputSink()
        try render(sink)
        if noNewline { sink.dropLast(UInt8(ascii: "\n")) }
        try sink.finish()
    }
}
