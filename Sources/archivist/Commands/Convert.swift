import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArchivistDatabase
import ArgumentParser

/// `archivist convert`: reads any format and writes another.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        _superCommandName: Archivist.name,
        abstract: "Convert property lists between XML, binary, JSON and OpenStep, or archives to Codable JSON.",
        discussion: """
            The input format is detected from the content.
            Without -o, --output-dir or --in-place the single input is written to standard output.
            An input is never overwritten unless you ask with --in-place, and one result never \
            overwrites another; every file is written to a temporary file in the same folder and \
            renamed into place, so a failed conversion leaves nothing behind.
            Diagnostics such as duplicate keys are printed as warnings on standard error.
            -r is --recursive (folders), not plutil's -r: pretty JSON is --pretty.
            When an input fails, the others are still converted and the exit status is 1.

            --to swift and --to objc write the source of a literal constant named after the file, \
            as plutil -convert swift|objc does (`/// Generated from FILE`, then a \
            `let NAME: [String: Any]` or `NSDictionary * const NAME` literal), to standard output, \
            -o FILE or --output-dir DIR (NAME.swift, NAME.m).
            Such literals hold strings, numbers, booleans, arrays and dictionaries: a date or data \
            is an error naming its key path, as plutil refuses them.

            --to codable-json writes a keyed archive as the JSON that Swift's JSONEncoder writes \
            for the structs its classes stand for: custom objects as objects of their fields, \
            collections as arrays and objects, NSDate per --dates, NSData as base64, NSUUID and \
            NSURL as strings, shared objects at every reference.
            A rules file (the one migrate reads) renames and removes keys, unwraps wrapper objects \
            ("unwrap": "FIELD", decoding data that holds a plist or JSON) and names types in \
            arrays that mix classes ("typeKey").
            --suggest-rules prints a starter rules file for the inputs instead of converting them.

            With --sqlite STORE --table T --column C (codable-json only) the inputs are the \
            column's archived blobs: --output-dir DIR writes DIR/ROWID.json for each row; \
            --into-column NEW adds the column NEW (BLOB) if needed and fills it in one \
            transaction, after a backup copy of the store when it writes (STORE.bak or \
            --backup PATH, never overwritten; a run with nothing left to write needs none).
            A column holding other data than this command's own output is refused.
            --row ID takes one row (then -o FILE or standard output also work).
            A row that fails writes nothing at all (the transaction is rolled back); with \
            --keep-going the other rows are written and the exit status is 1.

            Examples:
              archivist convert Info.plist --to json --pretty
              archivist convert Settings.plist --to binary1 -o Settings.bplist
              archivist convert *.plist --to xml --output-dir out/
              archivist convert Prefs.plist --to xml1 --in-place
              archivist convert Prefs.plist --to binary --in-place --backup .orig
              archivist convert Defaults.plist --to swift -o Defaults.swift
              cat Info.plist | archivist convert - --to json
              archivist convert Data.plist --to codable-json --rules rules.json --pretty
              archivist convert Data.plist --to codable-json --suggest-rules -o rules.json
              archivist convert --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --to codable-json --output-dir contacts/
              archivist convert --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --to codable-json --into-column ZCONTACTJSON
            """
    )

    @Argument(help: ArgumentHelp("Files to convert ('-' reads standard input).", valueName: "INPUT"))
    var inputs: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Option(name: .customLong("into-column"), help: ArgumentHelp("With --sqlite: write each row's result into this column of the table (added if missing), in one transaction.", valueName: "COLUMN"))
    var intoColumn: String?

    @Option(help: ArgumentHelp("The format to write (plutil's xml1 and binary1 are taken too).", valueName: "FORMAT"))
    var to: ConvertTarget

    @Option(help: ArgumentHelp("codable-json: a rules file (renames, removals, unwrap, typeKey).", valueName: "RULES"))
    var rules: String?

    @Option(help: ArgumentHelp("codable-json: how dates are written.", valueName: "STRATEGY"))
    var dates: CodableOptions.DateStrategy = .deferred

    @Option(help: ArgumentHelp("codable-json: what a reference into its own container becomes.", valueName: "POLICY"))
    var cycles: CodableOptions.CyclePolicy = .error

    @Flag(name: .customLong("suggest-rules"), help: "codable-json: print a starter rules file for the inputs instead of converting them.")
    var suggestRules = false

    @Flag(help: "Leave out the warning that an in-place result keeps less than its input (XML's whole-second dates, 32-bit reals).")
    var quiet = false

    @Flag(help: "Convert a signed profile in place, writing its property list without the CMS signature.")
    var stripSignature = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var style: StyleOptions

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if to != .codableJSON, rules != nil || suggestRules || dates != .deferred || cycles != .error {
            throw ValidationError("--rules, --dates, --cycles and --suggest-rules go with --to codable-json.")
        }
        try store.validate(requireColumn: true)
        if store.isSet {
            try validateStore()
            return
        }
        if intoColumn != nil { throw ValidationError("--into-column goes with --sqlite.") }
        if case .source = to, output.inPlace {
            throw ValidationError("--to swift and --to objc write source, not a property list: use -o FILE or --output-dir DIR instead of --in-place.")
        }
        if inputs.isEmpty { throw ValidationError("Give files to convert, or --sqlite STORE --table T --column C.") }
        if suggestRules {
            if output.outputDir != nil || output.inPlace { throw ValidationError("--suggest-rules writes one file: use -o or standard output.") }
        } else {
            try output.validate(inputs: inputs)
        }
    }

    /// The destinations a store's rows can go to.
    private func validateStore() throws {
        guard inputs.isEmpty else { throw ValidationError("Give input files or --sqlite, not both.") }
        guard to == .codableJSON else { throw ValidationError("--sqlite converts archived blobs with --to codable-json.") }
        if output.inPlace { throw ValidationError("--in-place does not apply to --sqlite; --into-column writes into the store.") }
        if output.backup != nil, intoColumn == nil { throw ValidationError("With --sqlite, --backup PATH goes with --into-column.") }
        if let intoColumn, intoColumn == store.database.column { throw ValidationError("--into-column must name another column than --column: the archives are kept.") }
        if intoColumn != nil, store.filter != nil || store.labelColumn != nil {
            throw ValidationError("--into-column fills every row of the column: --where and --label-column do not apply.")
        }
        if suggestRules {
            if output.outputDir != nil || intoColumn != nil { throw ValidationError("--suggest-rules writes one file: use -o or standard output.") }
            return
        }
        let destinations = [output.output != nil, output.outputDir != nil, intoColumn != nil].filter { $0 }.count
        if destinations > 1 { throw ValidationError("Use only one of -o, --output-dir and --into-column.") }
        if destinations == 0 || output.output != nil, store.row == nil {
            throw ValidationError("With --sqlite, give --output-dir DIR (a file per row) or --into-column COLUMN; -o and standard output take one --row.")
        }
    }

    func run() throws {
        var ruleSet = MigrationRules()
        if let rules {
            ruleSet = try RulesFile.load(rules)
        }
        if store.isSet {
            try convertStore(rules: ruleSet)
            return
        }
        if case .source(let language) = to {
            try convertToSource(language)
            return
        }
        var stdinBytes: [UInt8]?
        var failed = false
        let session = try BatchSession(inputs: inputs, options: batch, output: output)
        if to == .codableJSON {
            // Every input reads, and every class the rules name occurs (in
            // the files folders hold too).
            var census = RulesCensus()
            for item in session.items {
                do {
                    try readDocument(item, stdin: &stdinBytes) { census.add($0.tree) }
                } catch let error as PlistError {
                    Console.error(error.hinted(path: item.source))
                    failed = true
                }
            }
            if let rules { try RulesFile.check(ruleSet, against: census, rulesPath: rules) }
            if suggestRules {
                try suggest(session.items, stdinBytes: stdinBytes)
                if failed { throw ExitCode.failure }
                return
            }
        }
        var configured = try session.converter(format: to.plistFormat, output: output, writeOptions: writeOptions, readOptions: limits.readOptions,
                                               reading: reading)
        configured.warnsOfLosses = !quiet
        configured.stripsSignatures = stripSignature
        let converter = configured
        let options = CodableOptions(dates: dates, cycles: cycles)
        let codable = to == .codableJSON
        let stdin = stdinBytes
        let workRules = ruleSet
        let ok = try session.run { index in
            let item = converter.items[index]
            return BatchSession.outcome(item, filtered: batch.folders.filtersByKind) { warn in
                try converter.convert(index, bytes: item.source == "-" ? stdin : nil, warn: warn, transform: codable ? { document in
                    .value(try CodableExport.value(document.tree, rules: workRules, options: options))
                } : nil)
            }
        }
        if !ok || failed { throw ExitCode.failure }
    }

    /// What the run reads besides its inputs: the rules file and the store.
    private var reading: RunOutputs {
        var plan = RunOutputs()
        if let rules { plan.read(rules, as: .rules) }
        if let path = store.database.sqlite { plan.read(path, as: .store) }
        return plan
    }

    /// Reads one planned input as a document for `body` (standard input
    /// once: its bytes are kept in `stdin` for the conversion after).
    private func readDocument(_ item: BatchItem, stdin: inout [UInt8]?, _ body: (PlistDocument) throws -> Void) throws {
        if item.source == "-" {
            let bytes = try stdin ?? FileIO.read("-")
            stdin = bytes
            try body(try SignedPlist.read(bytes))
            return
        }
        let input = try FileIO.input(item, maxSize: limits.readOptions.limits.maxInputSize)
        try input.withUnsafeBytes { try body(try SignedPlist.read($0)) }
    }

    /// Writes a starter rules file for every archive among the inputs.
    private func suggest(_ items: [BatchItem], stdinBytes: [UInt8]?) throws {
        var suggestion = RulesSuggestion()
        var stdin = stdinBytes
        for item in items {
            try? readDocument(item, stdin: &stdin) { suggestion.add($0.tree) }
        }
        try write(suggestion)
    }

    private func write(_ suggestion: RulesSuggestion) throws {
        var plan = reading
        for input in inputs { plan.read(input, as: .input) }
        if let path = output.output { try claimOutput(path, as: .suggestion, in: &plan) }
        let text = Array((try suggestion.rulesJSON()).utf8)
        let notes = try failing(at: nil) {
            try FileIO.writeAtomically(text, to: output.output ?? "-")
        }
        notes.forEach(Console.error)
    }

    /// The Codable JSON of one archived blob, as written for files.
    private func codableJSON(_ bytes: [UInt8], rules ruleSet: MigrationRules) throws -> [UInt8] {
        let tree = try CodableExport.value(try SignedPlist.read(bytes, options: limits.readOptions).tree, rules: ruleSet,
                                          options: CodableOptions(dates: dates, cycles: cycles))
        return try PropertyList.write(tree, as: .json, options: writeOptions)
    }

    /// The layout flags, and for codable-json the number and escape style of
    /// JSONEncoder (`120`, not `120.0`; `\/`), whose output it stands for.
    private var writeOptions: WriteOptions {
        var options = style.writeOptions
        options.jsonEncoderStyle = to == .codableJSON
        return options
    }

    /// --sqlite: the column's archives as Codable JSON, into files or a column.
    private func convertStore(rules ruleSet: MigrationRules) throws {
        guard let path = store.database.sqlite, let column = store.database.blobColumn else { return }
        var failed = false
        try failing(at: path) {
            // Every class the rules name occurs in the column (status 64 if not).
            var census = RulesCensus()
            var suggestion = RulesSuggestion()
            try store.forEachRow { row in
                guard let tree = try? PropertyList.read(row.bytes, options: limits.readOptions).tree else { return }
                census.add(tree)
                if suggestRules { suggestion.add(tree) }
            }
            if let rules { try RulesFile.check(ruleSet, against: census, rulesPath: rules) }
            if suggestRules {
                try write(suggestion)
                return
            }
            if let intoColumn {
                try fillColumn(intoColumn, from: column, rules: ruleSet)
                return
            }
            // Files: every row converts before any is written, unless --keep-going.
            var results: [(rowid: Int64, bytes: [UInt8])] = []
            var failures: [Int64] = []
            try store.forEachRow { row in
                do {
                    results.append((row.rowid, try codableJSON(row.bytes, rules: ruleSet)))
                } catch let error as PlistError {
                    Console.error(error.hinted(path: row.label))
                    failures.append(row.rowid)
                }
            }
            if let first = failures.first, !batch.keepGoing {
                Console.error("\(path): error: row \(first) failed; nothing was written (--keep-going writes the other rows)")
                throw ExitCode.failure
            }
            failed = !failures.isEmpty
            var plan = reading
            if let dir = output.outputDir {
                // The same output folder as a batch's: written through its
                // descriptor, never through a link planted in it.
                let folder = OutputFolder(path: dir)
                for (rowid, _) in results { try claim(folder.path(of: "\(rowid).json"), in: &plan, makesFolders: true) }
                try folder.prepare()
                for (rowid, bytes) in results {
                    try folder.write(bytes, to: "\(rowid).json").forEach(Console.error)
                }
                Console.error("\(path): \(column.label): \(results.count) rows written to \(dir), \(failures.count) failed")
            } else {
                let destination = output.output ?? "-"
                try claim(destination, in: &plan, makesFolders: false)
                for (_, bytes) in results { try FileIO.writeAtomically(bytes, to: destination).forEach(Console.error) }
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// Claims a row's result file (see `RunOutputs`): never the store, the
    /// rules file or another row's file.
    private func claim(_ destination: String, in plan: inout RunOutputs, makesFolders: Bool) throws {
        do {
            try plan.claim(destination, as: .result(of: nil), makesFolders: makesFolders)
        } catch let refusal as RunOutputs.Refusal {
            throw refusal.error
        }
    }

    /// --into-column: one transaction after a backup copy; a failing row rolls it back.
    private func fillColumn(_ target: String, from column: BlobColumn, rules ruleSet: MigrationRules) throws {
        guard let path = store.database.sqlite else { return }
        var fill = ColumnFill(source: column, target: target)
        fill.row = store.row
        fill.keepGoing = batch.keepGoing
        // A value already in the column may be replaced only when it is this
        // command's own earlier output: JSON (from other rules, or archives since changed).
        fill.mayReplace = { (try? JSONPlistReader.read($0)) != nil }
        // The backup is written inside the fill's transaction, only when it writes: the store exactly as filled.
        let outcome = try store.database.change(backup: output.backup) { db, backUp in
            try fill.run(on: db, beforeWriting: backUp) { try codableJSON($0, rules: ruleSet) }
        }
        let into = "\(column.table).\(target)"
        if outcome.addedColumn { Console.output("\(path): added the column \(into)") }
        store.database.reportLeftUntouched(outcome.failures)
        Console.output("\(path): \(column.label) -> \(into): wrote \(outcome.written.count) rows, \(outcome.unchanged) unchanged, \(outcome.failures.count) failed")
        if !outcome.failures.isEmpty { throw ExitCode.failure }
    }
}
