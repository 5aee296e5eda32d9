import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArgumentParser

/// Reads a file, applies an edit at a key path, and writes it back in its own
/// format (atomically), or to `-o`. Dictionaries keep the file's key order (a
/// new key goes at the end of its dictionary), and JSON on several lines is
/// written pretty, so an edit changes only what it edits, as plutil's
/// `-replace`, `-insert` and `-remove` do.
enum FileEdit {
    static func run(file: String, keyPath: String, edit: PlistEdit, create: Bool, output: String?, reading extra: String? = nil,
                    stripSignature: Bool = false) throws {
        if let output {
            var plan = RunOutputs()
            plan.read(file, as: .input)
            if let extra { plan.read(extra, as: .input) }
            try claimOutput(output, as: .result(of: nil), in: &plan)
        }
        let notes = try failing(at: file) { () -> [String] in
            if output == nil, let problem = FileIO.inPlaceProblem(file) {
                throw PlistError(.io, file == "-" ? "standard input cannot be edited in place; give -o" : problem)
            }
            let input = try FileIO.input(file)
            if output == nil, let kind = input.withUnsafeBytes({ FormatSniffer.kind($0) }), kind.isRead {
                throw PlistError(.unsupported, "\(kind.name) is read-only: Archivist does not write it; give -o to write the result as a property list")
            }
            let signed = input.withUnsafeBytes { SignedPlist.isSigned($0) }
            if output == nil, signed, !stripSignature { throw PlistError(.unsupported, DocumentReading.signedRefusal) }
            let document = try input.withUnsafeBytes { try SignedPlist.read($0) }
            let edited = try PlistEditor.apply(edit, at: PlistKeyPath(keyPath), in: document.tree, create: create)
            // JSON laid out on several lines stays so (compact JSON stays compact).
            let pretty = document.format == .json && input.withUnsafeBytes { $0.dropLast().contains(0x0A) }
            let options = document.writeOptions(WriteOptions(keepKeyOrder: true, pretty: pretty), path: file)
            let bytes = try PropertyList.write(edited, as: document.format, options: options)
            guard let output else {
                // In place: only if nobody changed the file since it was read.
                return try FileIO.writeAtomically(bytes, to: file, unchanged: FileIO.Precondition(path: file, input: input))
            }
            return try FileIO.writeAtomically(bytes, to: output)
        }
        notes.forEach(Console.error)
    }
}

/// `archivist set`: inserts or replaces the value at a key path.
struct SetValue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        _superCommandName: Archivist.name,
        abstract: "Insert or replace the value at a key path; the file keeps its format.",
        discussion: """
            VALUE is read as --type says: string, integer, real (or float, as plutil says), bool \
            (true/false, yes/no, 1/0), date (ISO 8601), data (base64, or the bytes of --from-file \
            PATH), json or xml (a whole container); dictionary and array insert an empty one and \
            take no VALUE.
            A number that does not fit its type (an integer beyond 64 bits, a real beyond the \
            64-bit range or too small to differ from 0, a JSON integer beyond 64 bits) is refused; \
            a VALUE starting with '-' goes after '--'.
            An index one past the end of an array appends; --append adds to the end of the array \
            KEYPATH names; --create makes missing intermediate dictionaries.
            The file is rewritten atomically in its own format (binary stays binary), or written \
            to -o.
            In a keyed archive, fields of objects are edited as NSKeyedArchiver writes them, an \
            object shared with other places is copied first so only the edited path changes, and \
            an edit inside an archive nested in data is written back into the outer file.

            Examples:
              archivist set Info.plist CFBundleVersion 43 --type string
              archivist set Info.plist LSRequiresIPhoneOS false --type bool
              archivist set Info.plist UISupportedInterfaceOrientations \\
                UIInterfaceOrientationLandscapeLeft --type string --append
              archivist set Data.plist root.Title "Scarier Bug" --type string
              archivist set Settings.plist a.b.c 1 --type integer --create
            """
    )

    @Argument(help: ArgumentHelp("The file to edit.", valueName: "FILE"))
    var file: String

    @Argument(help: ArgumentHelp("The key path.", valueName: "KEYPATH"))
    var keyPath: String

    @Argument(help: ArgumentHelp("The new value (omit with --from-file).", valueName: "VALUE"))
    var value: String?

    @Option(help: ArgumentHelp("How VALUE is read.", valueName: "TYPE"))
    var type: ValueType

    @Flag(help: "Edit a signed profile in place, writing its property list without the CMS signature.")
    var stripSignature = false

    @Flag(help: "Append to the array KEYPATH names.")
    var append = false

    @Flag(help: "Create missing intermediate dictionaries.")
    var create = false

    @Option(name: .customLong("from-file"), help: ArgumentHelp("With --type data, the bytes of this file.", valueName: "PATH"))
    var fromFile: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the result here instead of replacing FILE.", valueName: "FILE"))
    var output: String?

    func validate() throws {
        if fromFile != nil, type != .data { throw ValidationError("--from-file goes with --type data.") }
        if type.isEmptyContainer {
            if value != nil { throw ValidationError("--type \(type.rawValue) inserts an empty one and takes no VALUE (use --type json for content).") }
        } else if value == nil, fromFile == nil {
            throw ValidationError("Give VALUE (or --from-file PATH with --type data).")
        }
    }

    func run() throws {
        let parsed: PlistValue
        do {
            parsed = try type.value(value ?? "", file: fromFile)
        } catch let error as PlistError {
            Console.error("error: \(error.message)")
            throw ExitCode.validationFailure
        }
        try FileEdit.run(file: file, keyPath: keyPath, edit: append ? .append(parsed) : .set(parsed), create: create, output: output, reading: fromFile,
                         stripSignature: stripSignature)
    }
}

/// `archivist remove`: removes the value at a key path.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        _superCommandName: Archivist.name,
        abstract: "Remove the value at a key path; the file keeps its format.",
        discussion: """
            Examples:
              archivist remove Info.plist CFBundleURLTypes.0
              archivist remove Data.plist root.Obsolete -o Data-clean.plist
            """
    )

    @Argument(help: ArgumentHelp("The file to edit.", valueName: "FILE"))
    var file: String

    @Argument(help: ArgumentHelp("The key path.", valueName: "KEYPATH"))
    var keyPath: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the result here instead of replacing FILE.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Edit a signed profile in place, writing its property list without the CMS signature.")
    var stripSignature = false

    func run() throws {
        try FileEdit.run(file: file, keyPath: keyPath, edit: .remove, create: false, output: output, stripSignature: stripSignature)
    }
}
