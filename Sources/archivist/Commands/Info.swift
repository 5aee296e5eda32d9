import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArgumentParser

/// `archivist info`: what files are, at a glance.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        _superCommandName: Archivist.name,
        abstract: "Show what files are: format, size, values, depth, binary trailer, archive classes.",
        discussion: """
            For each file: the detected format and size, the number of values and the deepest \
            nesting; for binary plists the trailer (offset and reference sizes, object count, top \
            object, offset table position) and how many objects repeat an earlier one byte for \
            byte; for keyed archives the archiver, version, $top keys, the class census and \
            whether it would pass lint --secure with no allowlist (and what to allow or box if \
            not); archives nested in data, by key path.
            An NSArchiver typedstream is format 'typedstream', with the archive it reads as.
            A file of another kind is named by its content ('kind: an SQLite database, not a \
            property list; use --sqlite FILE', 'kind: a PDF document'), with its size, and is no error.
            --json prints one JSON array with an object per file.
            With --sqlite STORE --table T --column C each blob of the column (or --row ID) is \
            inspected as a file, headed 'STORE: T.C row N' (in JSON: path, table, column and row; \
            with --label-column, label and labelColumn).

            Examples:
              archivist info Info.plist Data.plist
              archivist info --json Preferences.plist
              archivist info --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --row 3
            """
    )

    @Argument(help: ArgumentHelp("Files to inspect ('-' reads standard input).", valueName: "FILE"))
    var files: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        try store.validate(requireColumn: true)
        if files.isEmpty, !store.isSet { throw ValidationError("Give files, or --sqlite STORE --table T --column C.") }
    }

    func run() throws {
        Console.stopsAtFailedOutput = true
        var reports: [PlistValue] = []
        var failed = false
        /// Prints (or collects) one input's report; false when it cannot be read.
        /// A file of another kind than a property list: its kind, its size,
        /// and the command that reads it when Archivist has one.
        func report(_ kind: FormatSniffer.Kind, size: Int, name: String, file: String?, identity: [(String, PlistValue)]) {
            let hint = file.flatMap { FormatHint.hint(for: kind, path: $0) }
            if json {
                var entry = PlistDictionary(identity)
                entry.appendUnchecked(key: "kind", value: .string(kind.name))
                entry.appendUnchecked(key: "propertyList", value: .bool(false))
                if let hint { entry.appendUnchecked(key: "hint", value: .string(hint)) }
                entry.appendUnchecked(key: "size", value: .int(Int64(size)))
                reports.append(.dictionary(entry))
            } else {
                Console.output(name)
                Console.output("  kind: \(kind.name), not a property list\(hint.map { "; \($0)" } ?? kind.notReadNote)")
                Console.output("  size: \(size) bytes")
            }
        }
        func inspect(_ bytes: () throws -> [UInt8], name: String, file: String? = nil, identity: [(String, PlistValue)]) throws -> Bool {
            do {
                let data = try bytes()
                if SignedPlist.isSigned(data) {
                    try inspectSigned(data, name: name, identity: identity)
                    return true
                }
                if let kind = data.withUnsafeBytes({ FormatSniffer.kind($0) }), !kind.isRead, !kind.isReadAsArchive {
                    report(kind, size: data.count, name: name, file: file, identity: identity)
                    return true
                }
                let info = try FileInfo(data)
                if json {
                    var entry = PlistDictionary(identity)
                    for (k, v) in info.report { entry.appendUnchecked(key: k, value: v) }
                    reports.append(.dictionary(entry))
                } else {
                    Console.output(name)
                    for line in info.lines { Console.output("  " + line) }
                }
                return true
            } catch let error as PlistError {
                Console.error(error.hinted(path: name))
                return false
            }
        }
        /// A signed profile: its property list as `FileInfo` reports it, then
        /// the envelope's signers and, for a provisioning profile, its fields.
        func inspectSigned(_ data: [UInt8], name: String, identity: [(String, PlistValue)]) throws {
            let envelope = try SignedEnvelope(data)
            let document = try SignedPlist.content(of: envelope)
            let info = try FileInfo(envelope.content)
            let signed = try SignedProfileReport(envelope, content: document.tree.value, now: try SignedProfileReport.now())
            let kind = FormatSniffer.Kind.signedEnvelope.name
            if json {
                var entry = PlistDictionary(identity)
                entry.appendUnchecked(key: "kind", value: .string(kind))
                entry.appendUnchecked(key: "envelopeSize", value: .int(Int64(data.count)))
                for (k, v) in info.report { entry.appendUnchecked(key: k, value: v) }
                entry.appendUnchecked(key: "signed", value: .dictionary(signed.envelope))
                if let profile = signed.profile { entry.appendUnchecked(key: "profile", value: .dictionary(profile)) }
                reports.append(.dictionary(entry))
            } else {
                Console.output(name)
                Console.output("  kind: \(kind), \(data.count) bytes, holding a property list")
                for line in info.lines + signed.lines { Console.output("  " + line) }
            }
        }
        for file in files {
            if try !inspect({ try FileIO.read(file) }, name: file, file: file, identity: [("path", .string(file))]) { failed = true }
        }
        let rowsRead = try store.forEachRowReportingErrors { row in
            var identity: [(String, PlistValue)] = [
                ("path", .string(store.database.sqlite ?? "")), ("table", .string(store.database.table ?? "")),
                ("column", .string(store.database.column ?? "")), ("row", .int(row.rowid)),
            ]
            if let name = store.labelColumn { identity += [("label", Dump.labelJSON(row.labelValue)), ("labelColumn", .string(name))] }
            if try !inspect({ row.bytes }, name: row.label, identity: identity) { failed = true }
        }
        if !rowsRead { failed = true }
        if json {
            let bytes = try PropertyList.write(.array(reports), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true))
            Console.document(bytes)
        }
        if failed { throw ExitCode.failure }
    }
}
