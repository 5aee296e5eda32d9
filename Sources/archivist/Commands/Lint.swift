import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArchivistDatabase
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `archivist lint`: checks that files are well-formed property lists.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        _superCommandName: Archivist.name,
        abstract: "Check property lists; print PATH: OK or located errors.",
        discussion: """
            Prints 'PATH: OK' for each valid file, and for an invalid one every problem as \
            'PATH:LINE:COL: error: MESSAGE' (XML, JSON, OpenStep) or 'PATH: offset N (object I): \
            error: MESSAGE' (binary).
            Duplicate dictionary keys, lone UTF-16 surrogates and XML encoding declarations that \
            contradict the bytes, which Apple's parsers accept silently, are errors here.
            A JSON integer beyond 64 bits, which Apple's parsers read as a real, is a warning \
            ('PATH:LINE:COL: warning: MESSAGE'; the file stays valid).
            A keyed archive (NSKeyedArchiver) is also checked as an archive: $archiver, $version, \
            $top (UIDs, or plain values as a top-level encodeBool writes), $objects, UIDs in range \
            and class dictionaries, and what the unarchiver reads: $top entries that are objects, \
            non-empty $classes, and the fields of Foundation classes (NS.objects an array of \
            references, NS.keys and NS.objects of one length, NS.string a string, NS.time a real, \
            NS.uuidbytes 16 bytes, ...); its errors name the $objects index and the key path (as \
            get takes it) that leads there.
            An NSArchiver typedstream (an iMessage attributedBody) is checked as the keyed archive \
            it reads as.
            With --secure, keyed archives (and archives nested in data values) are also checked \
            against a secure-coding policy, as NSKeyedUnarchiver's \
            unarchivedObject(ofClasses:from:) would apply it: every object's class (or a \
            superclass) must be one of Foundation's secure classes or allowed by --allow or the \
            rules file's allowedClasses, and no custom object may hold an inline integer, real or \
            boolean that decodeObject(of:forKey:) cannot read (unless the rules say "box": false \
            for that key or "boxPrimitives": false).
            --require-format makes any other format an error (a repository policy).
            --format json prints one JSON report; --format github prints GitHub Actions \
            annotations (::error file=...,line=...,col=...::MESSAGE, ::warning for warnings); \
            --format xcode prints 'PATH:LINE:COL: error: MESSAGE' for every problem, as clang and \
            swiftc do, so Xcode and build logs show it in place (a binary or archive problem at \
            1:1, its offset or $objects index starting the message).
            --config FILE reads settings from a configuration file (archivist.json): {"secure": \
            true, "allowedClasses": [...], "rules": "rules.json", "requireFormat": "xml", \
            "exclude": ["Generated/*"]}; relative paths are taken from the file's folder, an \
            exclude glob leaves out named files too, any other key is a usage error.
            --rules, --allow and --require-format replace the file's values; --secure turns the \
            check on.
            --stamp FILE writes FILE (one line, a '//' comment) when every input is valid and \
            removes it otherwise, an output for a build system to track (the build tool plugin \
            makes it a Swift file the target compiles to nothing).
            With --sqlite STORE --table T --column C every blob of the column is checked (rows \
            named 'STORE: T.C row N'; --row ID checks one); a table or column that does not exist \
            or holds no blobs is an error listing the blob columns.
            With --sqlite alone, every column whose blobs are property lists or archives is listed \
            with its counts.
            Folders are searched recursively in sorted order, hidden entries skipped; --include \
            and --exclude filter the files found in them.
            A file found in a folder is checked when its extension is one of the property-list \
            family's (.plist, .strings, .stringsdict, .xcstrings, .entitlements, .xcprivacy, .nib, \
            .pbxproj, .mobileprovision, .mobileconfig, .webarchive, .btm, .sfl*...) or its content \
            starts like a format Archivist reads (bplist00, <?xml, <plist, NIBArchive, \
            streamtyped, a CMS envelope, Bud1, cook, book, SQLite format 3); other files (.txt, \
            .css, .json, no extension) are skipped and counted (--verbose lists them, --all-files \
            checks every file).
            A named file is always checked, and a file of another kind is named (an SQLite database).
            -r (--recursive), as convert takes it, is accepted and changes nothing.
            Files that cannot be read are reported on standard error.
            With --rules, a class the rules name that occurs in none of the inputs' archives is an \
            error (status 64) and a key rule no object has is a warning, both with near misses \
            suggested.
            Exit status: 0 when every file is valid, 1 when any is not, 64 for usage errors.

            Examples:
              archivist lint Info.plist
              archivist lint --quiet Resources/ Settings.bundle/
              archivist lint --secure --allow MyApp.Document Documents/
              archivist lint --secure --rules migration.json Data.plist
              archivist lint --require-format xml --format github Resources/
              archivist lint --config archivist.json --format xcode Resources/
              archivist lint --sqlite App.sqlite
              archivist lint --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --secure --allow App.Contact
            """
    )

    enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
        case text, json, github, xcode

        static var allValueDescriptions: [String: String] {
            [
                "text": "PATH: OK, or located errors",
                "json": "one JSON report",
                "github": "GitHub Actions annotations",
                "xcode": "PATH:LINE:COL: error: lines, as clang writes them",
            ]
        }
    }

    @Argument(help: ArgumentHelp("Files or folders to check ('-' reads standard input).", valueName: "PATH"))
    var paths: [String] = []

    @Flag(name: [.short, .long], help: "Print nothing for valid files.")
    var quiet = false

    @Flag(help: "Also check keyed archives against a secure-coding policy.")
    var secure = false

    @Option(help: ArgumentHelp("With --secure, take the allowed classes and key settings from a migration rules file.", valueName: "RULES"))
    var rules: String?

    @Option(name: .customLong("allow"), help: ArgumentHelp("With --secure, allow a class (repeat, or separate with commas); mangled or readable names.", valueName: "CLASS"))
    var allow: [String] = []

    @Option(name: .customLong("require-format"), help: ArgumentHelp("Report files in any other format.", valueName: "FORMAT"))
    var requireFormat: PlistFormat?

    @Option(help: ArgumentHelp("What to print.", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("Read secure, allowedClasses, rules, requireFormat and exclude from a configuration file (archivist.json); options given here win.", valueName: "FILE"))
    var config: String?

    @Option(help: ArgumentHelp("Write FILE when every input is valid, remove it otherwise (an output for build systems).", valueName: "FILE"))
    var stamp: String?

    @Flag(name: [.customShort("r"), .long], help: "Accepted as convert takes it: lint always searches folders recursively.")
    var recursive = false

    @Option(help: ColorChoice.help)
    var color: ColorChoice = .auto

    @OptionGroup var folders: FolderOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Files checked at once (default: the number of cores); what is printed does not depend on it.", valueName: "N"))
    var jobs: Int?

    @OptionGroup var store: StoreRowOptions

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of at least 1.") }
        if !secure, config == nil, rules != nil || !allow.isEmpty {
            throw ValidationError("--rules and --allow go with --secure.")
        }
        try store.validate(requireColumn: false)
        if paths.isEmpty, !store.isSet { throw ValidationError("Give files or folders to check, or --sqlite STORE.") }
    }

    /// What checking one planned input gave.
    private enum Checked: Sendable {
        /// The input's problems (none: valid).
        case findings(String, [Linter.Finding])
        /// A file found in a folder that cannot be a property list at all.
        case skipped(String)
        /// A file or folder that could not be read.
        case unreadable(String, PlistError)
        /// A line about the walk (a link left out), printed in its place.
        case warning(String)
    }

    /// What listing the inputs hands to the checks, in order: a file, a path
    /// that could not be listed (and why), or a line about what a folder
    /// walk left out.
    private enum Listed: Sendable {
        case file(BatchItem)
        case unlisted(BatchItem, PlistError)
        case warning(String)
    }

    func run() throws {
        // Without a stamp lint writes no file: it ends at a closed output.
        Console.stopsAtFailedOutput = stamp == nil
        var command = self
        let settings = try config.map { try command.apply(LintConfig.load($0), from: $0) }
        if let stamp { try command.claim(stamp: stamp) }
        do {
            try command.check(excluding: settings)
        } catch {
            if let stamp { _ = SystemPath.with(stamp) { unlink($0) } }
            throw error
        }
        if let stamp { try Self.write(stamp: stamp) }
    }

    /// Takes the configuration's settings the command line did not give;
    /// returns the configuration (for its excludes).
    private mutating func apply(_ settings: LintConfig, from path: String) throws -> LintConfig {
        if settings.secure == true { secure = true }
        if rules == nil { rules = settings.rules }
        if allow.isEmpty { allow = settings.allowedClasses ?? [] }
        if requireFormat == nil { requireFormat = settings.requireFormat }
        if !secure, rules != nil || !allow.isEmpty {
            Console.error("\(path): error: rules and allowedClasses (or --rules and --allow) go with \"secure\": true or --secure")
            throw ExitCode.validationFailure
        }
        return settings
    }

    /// Claims the stamp (see `RunOutputs`) before anything is checked, so
    /// that neither the stamp nor its removal after a failed check can touch
    /// an input (a file named or found in a named folder), the configuration,
    /// the rules file or the store; an earlier stamp is replaced.
    private func claim(stamp: String) throws {
        // The stamp of an earlier run (found again in a linted folder, and
        // skipped there as no property list) is this run's to replace.
        if let earlier = try? FileIO.read(stamp, maxSize: 4096), earlier == Array(Self.stampText.utf8) { return }
        var plan = RunOutputs()
        let selection = BatchSelection(recursive: true, include: folders.include, exclude: folders.exclude, followLinks: folders.followLinks,
                                       hidden: folders.hidden)
        for path in paths {
            plan.read(path, as: .input)
            for item in (try? BatchPlan.items([path], selection: selection) { _ in }) ?? [] {
                plan.read(item.source, as: .input, identity: item.identity)
            }
        }
        if let config { plan.read(config, as: .configuration) }
        if let rules { plan.read(rules, as: .rules) }
        if let path = store.database.sqlite { plan.read(path, as: .store) }
        try claimOutput(stamp, as: .stamp, in: &plan)
    }

    /// What `--stamp` writes: one comment line, so that a build tool plugin
    /// can make the stamp a Swift (or C) source the target compiles to nothing.
    static let stampText = "// archivist lint: every input is valid\n"

    /// Writes the stamp of a run where every input was valid.
    private static func write(stamp: String) throws {
        do {
            try FileIO.writeAtomically(Array(Self.stampText.utf8), to: stamp)
        } catch let error as PlistError {
            Console.error(error.hinted(path: stamp))
            throw ExitCode.failure
        }
    }

    /// What checking each input reads of the options, read once per run:
    /// each read of a parsed option goes through ArgumentParser's property
    /// wrapper (hundreds of instructions, thousands per file of a batch).
    private struct EachInput {
        let readOptions: ReadOptions
        let requireFormat: PlistFormat?
        let filtersByKind: Bool
    }

    /// Checks every input (less those `settings` excludes) and prints the results.
    private func check(excluding settings: LintConfig?) throws {
        let (policy, ruleSet) = try securePolicy()
        let each = EachInput(readOptions: limits.readOptions, requireFormat: requireFormat, filtersByKind: folders.filtersByKind)
        var census: RulesCensus? = ruleSet == nil ? nil : RulesCensus()
        var reporter = LintReporter(format: format, quiet: quiet, color: color.enabled)
        let selection = BatchSelection(recursive: true, include: folders.include, exclude: folders.exclude, followLinks: folders.followLinks,
                                       hidden: folders.hidden)
        // The inputs are checked as the folder walks find them (on several
        // threads: what is printed stays in input order). A path that cannot
        // be listed is an item carrying its error, after what its walk found.
        let feed: ((Listed) throws -> Void) throws -> Void = { add in
            for path in paths {
                // A subfolder that cannot be listed (or a name that is not
                // UTF-8) is an unreadable item; links left out are warnings,
                // in their place among the files.
                var unreadable: [Listed] = [], warnings: [String] = []
                do {
                    try BatchPlan.forEachItem([path], selection: selection) { problem in
                        if problem.isError {
                            unreadable.append(.unlisted(BatchItem(source: problem.path), PlistError(.io, problem.message)))
                        } else {
                            warnings.append(FolderOptions.line(for: problem))
                        }
                    } found: { item in
                        for line in warnings { try add(.warning(line)) }
                        warnings.removeAll()
                        if settings?.excludes(item.source) != true { try add(.file(item)) }
                    }
                    for line in warnings { try add(.warning(line)) }
                    for entry in unreadable { try add(entry) }
                } catch let error as PlistError {
                    try add(.unlisted(BatchItem(source: path), error))
                }
            }
        }
        var skipped = 0, skippedBlobs = 0
        // One input at a time, each input's findings printed as they are
        // found (one input need not hold them all: `lint --secure` may find
        // millions); checking against rules fills one census.
        func checkHere(_ listed: Listed, census: inout RulesCensus?, reporter: inout LintReporter) -> Bool {
            let checked = check(listed, each, policy: policy, census: &census) { reporter.found($0) }
            return report(checked, into: &reporter)
        }
        // Read once (it asks the system for the processors online).
        let jobCount = self.jobCount
        if census != nil || jobCount == 1 {
            try feed { listed in
                if checkHere(listed, census: &census, reporter: &reporter) { skipped += 1 }
            }
        } else {
            let shared = Locked((reporter: reporter, skipped: 0))
            let command = self
            try BatchRunner<Checked>(jobs: jobCount).run(feeding: feed, { listed in
                var none: RulesCensus?
                var found: [Linter.Finding] = []
                let checked = command.check(listed, each, policy: policy, census: &none) { found.append($0) }
                if case .findings(let path, _) = checked { return .findings(path, found) }
                return checked
            }, report: { _, checked in
                shared.withLock { state in
                    if command.report(checked, into: &state.reporter) { state.skipped += 1 }
                }
            }, alone: { listed in
                shared.withLock { state in
                    var none: RulesCensus?
                    if checkHere(listed, census: &none, reporter: &state.reporter) { state.skipped += 1 }
                }
            })
            (reporter, skipped) = shared.withLock { ($0.reporter, $0.skipped) }
        }
        if let path = store.database.sqlite {
            do {
                skippedBlobs = try lintStore(path, each, policy: policy, census: &census, reporter: &reporter)
            } catch let error as PlistError {
                Console.error(format == .xcode ? Linter.Finding(path: path, error: error).xcodeLine : error.hinted(path: path))
                reporter.failedToRead(path, error)
            }
        }
        reporter.finish()
        if skippedBlobs > 0 {
            let what = skippedBlobs == 1 ? "1 blob skipped (not a property list or archive" : "\(skippedBlobs) blobs skipped (not property lists or archives"
            Console.error(what + (folders.verbose ? ")" : "; --verbose lists them)"))
        }
        if skipped > 0 {
            let what = skipped == 1 ? "1 file skipped (not a property list" : "\(skipped) files skipped (not property lists"
            Console.error(what + (folders.verbose ? ")" : "; --verbose lists them)"))
        }
        if let rules, let ruleSet, let census { try RulesFile.check(ruleSet, against: census, rulesPath: rules) }
        if reporter.invalid { throw ExitCode.failure }
    }

    /// The blobs of a column, or (without one) the columns that hold property
    /// lists or typedstreams. Returns the blobs skipped: other data beside the
    /// archives (gzip bodies), listed with --verbose.
    private func lintStore(_ path: String, _ each: EachInput, policy: SecurePolicy?, census: inout RulesCensus?, reporter: inout LintReporter) throws -> Int {
        guard store.database.blobColumn != nil else {
            for s in try BlobColumnSummary.scan(try StoreRowOptions.open(path)) {
                var counts = [counted(s.blobs, "blob")]
                if s.propertyLists > 0 || s.typedstreams == 0 {
                    counts.append("\(counted(s.propertyLists, "property list")) (\(counted(s.archives, "keyed archive")))")
                }
                if s.typedstreams > 0 { counts.append(counted(s.typedstreams, "typedstream")) }
                Console.output("\(path): \(s.column.label): " + counts.joined(separator: ", "))
            }
            return 0
        }
        var skipped = 0
        try store.forEachRow(other: { row, kind in
            skipped += 1
            if folders.verbose { Console.error(FolderOptions.skippedLine(row.label, reason: kind)) }
        }) { row in
            row.bytes.withUnsafeBytes { findings(in: $0, path: row.label, each, policy: policy, census: &census) { reporter.found($0) } }
            reporter.add(row.label, [])
        }
        return skipped
    }

    /// The number of inputs checked at once: --jobs, else the online processors.
    private var jobCount: Int {
        jobs ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// Reads and checks one input, handing each finding to `found` as it is
    /// found (`.findings` then holds none); a path that could not be listed
    /// and a walk's warning are passed on.
    private func check(_ listed: Listed, _ each: EachInput, policy: SecurePolicy?, census: inout RulesCensus?,
                       found: (Linter.Finding) -> Void) -> Checked {
        let item: BatchItem
        switch listed {
        case .file(let file): item = file
        case .unlisted(let path, let error): return .unreadable(path.source, error)
        case .warning(let line): return .warning(line)
        }
        do {
            let input = try FileIO.input(item, maxSize: each.readOptions.limits.maxInputSize)
            // A file found in a folder is read when its name or its first
            // bytes say it is of the property-list family (or with --all-files
            // or --include, which choose files by name).
            if item.isFound, each.filtersByKind, !input.withUnsafeBytes({ BatchPlan.readsInWalk(item.source, $0) }) {
                return .skipped(item.source)
            }
            // A mapped input's pages go back to the system as they are read,
            // and the rest once it is read into a tree, while the checks run.
            let each = EachInput(readOptions: input.readOptions(each.readOptions), requireFormat: each.requireFormat, filtersByKind: each.filtersByKind)
            withoutActuallyEscaping(found) { found in
                input.withUnsafeBytes {
                    findings(in: $0, path: item.source, each, policy: policy, census: &census, afterRead: input.releaseResidentPages) { finding in
                        // A file of another kind says what to use instead (`--sqlite`).
                        var hinted = finding
                        hinted.message = FormatHint.adding(to: finding.message, path: item.source)
                        found(hinted)
                    }
                }
            }
            return .findings(item.source, [])
        } catch let error as PlistError {
            return .unreadable(item.source, error)
        } catch {
            return .unreadable(item.source, PlistError(.io, "cannot read \(item.source): \(error)"))
        }
    }

    /// Prints or records one checked input; true when it was skipped.
    private func report(_ checked: Checked, into reporter: inout LintReporter) -> Bool {
        switch checked {
        case .findings(let path, let found):
            reporter.add(path, found)
            return false
        case .skipped(let path):
            if folders.verbose { Console.error(FolderOptions.skippedLine(path)) }
            return true
        case .unreadable(let path, let error):
            Console.error(format == .xcode ? Linter.Finding(path: path, error: error).xcodeLine : error.hinted(path: path))
            reporter.failedToRead(path, error)
            return false
        case .warning(let line):
            Console.error(line)
            return false
        }
    }

    /// The policy of --secure (nil without it) and the rules it came from.
    private func securePolicy() throws -> (SecurePolicy?, MigrationRules?) {
        guard secure else { return (nil, nil) }
        let allowed = allow.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }.filter { !$0.isEmpty }
        guard let rules else { return (SecurePolicy(allowing: allowed), nil) }
        let loaded = try RulesFile.load(rules)
        var widened = loaded
        widened.allowedClasses += allowed
        return (SecurePolicy(rules: widened), loaded)
    }

    /// Every problem of one input; its archives' classes and keys go into
    /// `census` (when the rules are checked). Without --secure and --rules a
    /// binary plist that is no archive is checked in place, building no tree.
    /// `afterRead` runs once a document is read, before its checks (the
    /// bytes are not read again by these checks).
    /// Each finding goes to `found` as it is found.
    private func findings(in bytes: UnsafeRawBufferPointer, path: String, _ each: EachInput, policy: SecurePolicy?, census: inout RulesCensus?,
                          afterRead: () -> Void = {}, _ found: (Linter.Finding) -> Void) {
        if Typedstream.isArchiveStream(bytes) { return typedstreamFindings(in: bytes, path: path, requireFormat: each.requireFormat, policy: policy, census: &census).forEach(found) }
        var expiry: Linter.Finding?
        Linter.forEachFinding(in: bytes, path: path, options: each.readOptions, inPlace: census == nil && policy == nil,
                              requiredFormat: each.requireFormat, check: { document, emit in
            afterRead()
            // A signed profile reads as its property list: an expired one is a warning.
            if SignedPlist.isSigned(bytes) { expiry = Self.expiryWarning(document.tree, path: path) }
            // Every check reads the compact tree reading built, and the
            // archive checks share one walk of the archive.
            let tree = document.tree
            let archive = KeyedArchive.looksLikeArchive(tree) ? try KeyedArchive(tree) : nil
            let checks = ArchiveChecks(tree, archive: archive)
            checks.unarchiverErrors(emit)
            // A bookmark file reads as its data: lint checks that it decodes.
            if let kind = FormatSniffer.kind(bytes), kind == .bookmark || kind == .finderAlias, Bookmark.decode(Array(bytes)) == nil {
                emit(PlistError(.corrupt, "\(kind.name) that does not decode as a bookmark", at: .binary(offset: 0, object: nil)))
            }
            census?.add(tree, archive: archive)
            if let policy { try checks.secureErrors(policy: policy, emit) }
        }, found)
        if let expiry { found(expiry) }
    }

    /// A warning when a provisioning profile's `ExpirationDate` has passed
    /// (now: the clock, or `ARCHIVIST_NOW`); an error when `ARCHIVIST_NOW`
    /// is not a date.
    private static func expiryWarning(_ tree: PlistTree, path: String) -> Linter.Finding? {
        let now: PlistDate
        do {
            now = try SignedProfileReport.now()
        } catch let error as PlistError {
            return Linter.Finding(path: path, error: error)
        } catch {
            return nil
        }
        guard let expired = SignedProfileReport.expired(tree.value, now: now) else { return nil }
        var finding = Linter.Finding(path: path, error: PlistError(.invalidValue, "the provisioning profile expired on \(expired) (now is \(now))"))
        finding.severity = .warning
        return finding
    }

    /// The problems of an NSArchiver typedstream (an iMessage `attributedBody`)
    /// or an iOS compiled nib: where it cannot be read, else the checks of the
    /// keyed archive it reads as (the class census and --secure's policy too);
    /// with --require-format, that it is none of the property-list formats.
    private func typedstreamFindings(in bytes: UnsafeRawBufferPointer, path: String, requireFormat: PlistFormat?, policy: SecurePolicy?,
                                     census: inout RulesCensus?) -> [Linter.Finding] {
        var errors: [PlistError] = []
        if let requireFormat {
            let kind = FormatSniffer.isTypedstream(bytes) ? "an NSArchiver typedstream" : FormatSniffer.kind(bytes)?.name ?? "not a property list"
            errors.append(PlistError(.invalidValue, "the file is \(kind); this check requires \(requireFormat.rawValue)"))
        }
        do {
            let tree = try Typedstream.readDocument(Array(bytes)).tree
            let archive = try KeyedArchive(tree)
            let checks = ArchiveChecks(tree, archive: archive)
            checks.unarchiverErrors { errors.append($0) }
            census?.add(tree, archive: archive)
            if let policy { try checks.secureErrors(policy: policy) { errors.append($0) } }
        } catch let error as PlistError {
            errors.append(error)
        } catch {
            errors.append(PlistError(.io, "\(error)"))
        }
        return errors.map { Linter.Finding(path: path, error: $0) }
    }
}
