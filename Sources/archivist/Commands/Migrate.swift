import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistDatabase
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `archivist migrate`: rewrites insecure NSCoding archives so that code using
/// NSSecureCoding decodes them.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        _superCommandName: Archivist.name,
        abstract: "Migrate keyed archives to ones that decode under NSSecureCoding.",
        discussion: """
            Applies a rules file (JSON, or any property-list format) to each input: renames \
            classes (and their $classes chains) and keys, removes keys, and boxes inline integers, \
            reals and booleans of custom objects into referenced NSNumbers, so that \
            decodeObject(of:forKey:) reads them.
            Shared objects and cycles are kept.
            An input may be a keyed archive or a property list holding archives in data values (a \
            preferences file); nested archives are migrated where they are and the rest of the \
            file stays as it was.
            A result that a secure decoder would still refuse (a class outside the allowed \
            classes, an inline primitive left unboxed) is not written; the errors name the class, \
            the $objects index and the key.
            A class the rules name that occurs in none of the inputs is an error (status 64), \
            checked before anything is written.
            Each input is summarised on standard output (standard error when the result goes to \
            standard output).
            Results keep the input's format unless --to is given.

            With --codable json|binary|xml, each archive nested in a data value (a User stored in \
            preferences) is replaced by the bytes JSONEncoder (--sorted-keys: with .sortedKeys) or \
            PropertyListEncoder would write for the struct its class stands for, with the renames, \
            removals and unwrapping of the rules, as convert --to codable-json applies them; every \
            custom class must be named in the rules.
            A cycle (unless --cycles omit) or an unmapped class is an error and nothing is \
            written.
            --dates sets JSONEncoder's date strategy.

            Rules file:
              {
                "classes": {
                  "ScaryCreatures.ScaryCreatureData": {
                    "renameTo": "ScaryCreatures2.ScaryCreatureData",
                    "keys": { "Rating": { "box": true }, "Name": { "renameTo": "Title" },
                              "Obsolete": { "remove": true } }
                  }
                },
                "boxPrimitives": true,
                "allowedClasses": ["ScaryCreatures2.ScaryCreatureData"]
              }

            Examples:
              archivist migrate Data.plist --rules rules.json -o Data-v2.plist
              archivist migrate Documents/*.scarycreature/Data.plist \\
                --rules rules.json --in-place --backup .v1
              archivist migrate Preferences.plist --rules rules.json --dry-run
              archivist migrate Preferences.plist --rules rules.json --codable json \\
                --in-place --backup .v1
              archivist migrate --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --rules rules.json

            Archives in an SQLite database (a Core Data store's Transformable attribute): with \
            --sqlite STORE --table T --column C, every blob of the column is migrated in one \
            transaction, after a consistent backup copy of the store is written to STORE.bak (or \
            --backup PATH; an existing backup is never overwritten).
            Rows that need no change are not rewritten.
            A row that fails rolls the whole transaction back, leaving the store as it was; with \
            --keep-going that row is left untouched and reported, and the others are migrated.
            """
    )

    @Argument(help: ArgumentHelp("Archives, or property lists holding archives ('-' reads standard input).", valueName: "INPUT"))
    var inputs: [String] = []

    @OptionGroup var database: DatabaseOptions


    /// What `--codable` writes in place of nested archives.
    enum CodableFormat: String, CaseIterable, ExpressibleByArgument {
        case json, binary, xml

        static var allValueDescriptions: [String: String] {
            ["json": "JSONEncoder's", "binary": "PropertyListEncoder's, binary", "xml": "PropertyListEncoder's, XML"]
        }
    }

    @Option(help: ArgumentHelp("The migration rules file.", valueName: "RULES"))
    var rules: String

    @Option(help: ArgumentHelp("Write results in this format (default: each input's own); only the XML and binary ones keep an archive's UIDs.", valueName: "FORMAT"))
    var to: PlistFormat?

    @Flag(name: .customLong("dry-run"), help: "Print what would change in each input; write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("Replace each archive nested in data with its root's Codable encoding.", valueName: "FORMAT"))
    var codable: CodableFormat?

    @Flag(name: .customLong("sorted-keys"), help: "With --codable json, write keys sorted as JSONEncoder's .sortedKeys does.")
    var sortedKeys = false

    @Option(help: ArgumentHelp("With --codable json: how dates are written.", valueName: "STRATEGY"))
    var dates: CodableOptions.DateStrategy = .deferred

    @Option(help: ArgumentHelp("With --codable: what a reference into its own container becomes.", valueName: "POLICY"))
    var cycles: CodableOptions.CyclePolicy = .error

    @OptionGroup var output: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var style: StyleOptions

    func validate() throws {
        try database.validate(requireColumn: true)
        if sortedKeys || dates != .deferred, codable != .json { throw ValidationError("--sorted-keys and --dates go with --codable json.") }
        if cycles != .error, codable == nil { throw ValidationError("--cycles goes with --codable.") }
        if database.sqlite != nil, codable != nil {
            throw ValidationError("--codable replaces archives nested in files; for a store use convert --to codable-json --sqlite ... --into-column NEW.")
        }
        if database.sqlite != nil {
            guard inputs.isEmpty else { throw ValidationError("Give input files or --sqlite, not both.") }
            if output.output != nil || output.outputDir != nil || output.inPlace || to != nil {
                throw ValidationError("--sqlite migrates the store in place: -o, --output-dir, --in-place and --to do not apply.")
            }
            return
        }
        if inputs.isEmpty { throw ValidationError("Give input files, or --sqlite STORE --table T --column C.") }
        if let to, !Self.holdsArchives(to) {
            throw ValidationError("--to \(to.rawValue) cannot hold a keyed archive (its UIDs would not survive); write xml or binary.")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input ('-') can be named once.") }
        if !dryRun { try output.validate(inputs: inputs) }
    }

    func run() throws {
        let ruleSet = try RulesFile.load(rules)
        var configured = Migrator(rules: ruleSet)
        configured.codable = codableEncoding
        configured.codableOptions = CodableOptions(dates: dates, cycles: cycles)
        let migrator = configured
        if let store = database.sqlite, let column = database.blobColumn {
            try migrateStore(store, column: column, migrator: migrator)
            return
        }
        // First pass: every class the rules name must occur in some input. An
        // input that cannot be read is reported as that file's failure when
        // it is migrated, not here. The documents read, up to
        // `readAheadBudget` bytes of input, are migrated as read (a single
        // archive is parsed once).
        let session = try BatchSession(inputs: inputs, options: batch, output: output)
        var reading = RunOutputs()
        reading.read(rules, as: .rules)
        let converter = dryRun ? nil : try session.converter(format: to, output: output, writeOptions: style.writeOptions,
                                                             readOptions: ReadOptions(), reading: reading, prepared: false)
        var stdinBytes: [UInt8]?
        var census = RulesCensus()
        var readAhead: [Int: BatchConverter.ReadItem] = [:]
        var budget = Self.readAheadBudget
        for (index, item) in session.items.enumerated() {
            if item.source == "-" { stdinBytes = try? FileIO.read("-") }
            if let converter {
                guard let read = try? converter.read(index, bytes: item.source == "-" ? stdinBytes : nil) else { continue }
                census.add(read.document.tree)
                if read.bytesIn <= budget {
                    budget -= read.bytesIn
                    readAhead[index] = read
                }
            } else if let bytes = item.source == "-" ? stdinBytes : try? FileIO.read(item),
                      let tree = try? PropertyList.read(bytes).tree {
                census.add(tree)
            }
        }
        try RulesFile.check(ruleSet, against: census, rulesPath: rules)
        guard let converter else {
            // A dry run writes no file: its report ends where standard output does.
            Console.stopsAtFailedOutput = true
            var failed = false
            for item in session.items where !dryRunOne(item, bytes: item.source == "-" ? stdinBytes : nil, migrator) { failed = true }
            if failed { throw ExitCode.failure }
            return
        }
        try session.prepare(converter)
        let stdin = stdinBytes
        let ahead = Locked(readAhead)
        readAhead = [:]
        let ok = try session.run { index in
            let item = converter.items[index]
            var report = MigrationReport()
            // Taken out, so the tree is let go once its item is written.
            let read = ahead.withLock { $0.removeValue(forKey: index) }
            var outcome = BatchSession.outcome(item, filtered: batch.folders.filtersByKind) { warn in
                try converter.convert(index, bytes: item.source == "-" ? stdin : nil, readAhead: read, warn: warn) { document in
                    let migrated = try migrator.migrateForWriting(document.tree)
                    report = migrated.report
                    switch migrated.result {
                    case .unchanged: return .nothingToChange
                    case .tree(let tree): return .tree(tree)
                    case .archive(let archive):
                        // Written from the tree read: no second tree, no copy of what did not change.
                        return .written { format, options, out, losses in
                            try archive.write(as: format, options: options, into: out, losses: &losses)
                        }
                    }
                }
            }
            guard outcome.status == .converted || outcome.status == .unchanged, let destination = outcome.destination else { return outcome }
            let name = destination == "-" ? item.source : "\(item.source) -> \(destination)"
            let lines = Self.reportLines(report, heading: name + ":", name: name)
            if destination == "-" { outcome.stderrLines += lines } else { outcome.stdoutLines += lines }
            return outcome
        }
        if !ok { throw ExitCode.failure }
    }

    /// Bytes of input whose documents the rules check keeps for the
    /// migration (64 MiB): beyond it, inputs are read again when migrated.
    static let readAheadBudget = 64 << 20

    /// The encoding --codable names.
    private var codableEncoding: CodableEncoding? {
        switch codable {
        case .json?: return .json(sortedKeys: sortedKeys)
        case .binary?: return .propertyList(.binary)
        case .xml?: return .propertyList(.xml)
        case nil: return nil
        }
    }

    /// Migrates a blob column in one transaction, after a backup copy.
    private func migrateStore(_ store: String, column: BlobColumn, migrator: Migrator) throws {
        var migration = StoreMigration(column: column, migrator: migrator)
        migration.keepGoing = batch.keepGoing
        migration.dryRun = dryRun
        // The rules check and the backup run inside the migration's
        // transaction: the backup is the store exactly as migrated (made
        // only when a row changes).
        let outcome = try database.change(backup: output.backup, dryRun: dryRun) { db, backUp in
            try migration.run(on: db) {
                try RulesFile.check(migrator.rules, against: try migration.census(in: db), rulesPath: rules)
            } beforeWriting: {
                try backUp()
            }
        }
        for (row, report) in outcome.migrated {
            Console.output("\(store): \(column.label) row \(row)\(dryRun ? ": would change" : ""):")
            for line in report.lines { Console.output("  " + line) }
        }
        database.reportLeftUntouched(outcome.failures)
        let verb = dryRun ? "would migrate" : "migrated"
        Console.output("\(store): \(column.label): \(verb) \(outcome.migrated.count) rows, \(outcome.unchanged) unchanged, \(outcome.failures.count) failed")
        if !outcome.failures.isEmpty { throw ExitCode.failure }
    }

    /// Migrates one input without writing; true when it would succeed. A file
    /// found in a folder that is not a property list, or holds no archive, is
    /// skipped as in a real run.
    private func dryRunOne(_ item: BatchItem, bytes: [UInt8]?, _ migrator: Migrator) -> Bool {
        let input = item.source
        do {
            // The input's bytes live only while its tree is read.
            let read: PlistDocument? = try {
                let bytes = try bytes ?? FileIO.read(item)
                if item.isFound, batch.folders.filtersByKind, !BatchPlan.readsInWalk(input, bytes) { return nil }
                return try PropertyList.read(bytes)
            }()
            guard let document = read else {
                if batch.folders.verbose { Console.error(FolderOptions.skippedLine(input)) }
                return true
            }
            let result: Migrator.Outcome
            // Without --to nothing is written: the report alone, with no result built.
            var reporting = migrator
            reporting.writesResult = to != nil
            do {
                result = try reporting.migrate(document.tree)
            } catch let error as PlistError where item.isFound && error.kind == .noArchive {
                if batch.folders.verbose { Console.error(FolderOptions.skippedLine(input, reason: error.message)) }
                return true
            }
            if let format = to { _ = try PropertyList.write(result.tree, as: format, options: style.writeOptions) }
            for line in Self.reportLines(result.report, heading: "\(input): would change:", name: input) { Console.output(line) }
            return true
        } catch {
            printFailure(error, for: input)
            return false
        }
    }

    /// True for the formats that keep a keyed archive's UIDs: XML and binary.
    /// JSON writes them as `{"CF$UID": n}` dictionaries that read back as
    /// dictionaries, and OpenStep has no UIDs (nor numbers) at all.
    static func holdsArchives(_ format: PlistFormat) -> Bool {
        switch format {
        case .xml, .binary: return true
        case .json, .openstep: return false
        }
    }

    /// A migration's report as printed: `heading` and an indented line per
    /// change, or `NAME: nothing to change`.
    static func reportLines(_ report: MigrationReport, heading: String, name: String) -> [String] {
        guard !report.isEmpty else { return ["\(name): nothing to change"] }
        return [heading] + report.lines.map { "  " + $0 }
    }

    private func printFailure(_ error: any Error, for input: String) {
        if let refused = error as? MigrationRefused {
            for e in refused.errors { Console.error(e.hinted(path: input)) }
            Console.error("\(input): error: not written: a secure decoder would still refuse the result")
        } else if let e = error as? PlistError {
            Console.error(e.hinted(path: input))
        } else {
            Console.error("\(input): error: \(error)")
        }
    }
}
