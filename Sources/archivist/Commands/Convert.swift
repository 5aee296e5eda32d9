import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `archivist convert`: reads any format and writes another.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert property lists between XML, binary, JSON and OpenStep, or archives to Codable JSON.",
        discussion: """
            The input format is detected from the content. Without -o, --output-dir or
            --in-place the single input is written to standard output. An input is never
            overwritten unless you ask with --in-place, and one result never overwrites
            another; every file is written to a temporary file in the same folder and
            renamed into place, so a failed conversion leaves nothing behind.
            Diagnostics such as duplicate keys are printed as warnings on standard error.
            -r is --recursive (folders), not plutil's -r: pretty JSON is --pretty.
            When an input fails, the others are still converted and the exit status is 1.

            --to codable-json writes a keyed archive as the JSON that Swift's JSONEncoder
            writes for the structs its classes stand for: custom objects as objects of
            their fields, collections as arrays and objects, NSDate per --dates, NSData as
            base64, NSUUID and NSURL as strings, shared objects at every reference. A
            rules file (the one migrate reads) renames and removes keys, unwraps wrapper
            objects ("unwrap": "FIELD", decoding data that holds a plist or JSON) and
            names types in arrays that mix classes ("typeKey"). --suggest-rules prints a
            starter rules file for the inputs instead of converting them.

            Examples:
              archivist convert Info.plist --to json --pretty
              archivist convert Settings.plist --to binary1 -o Settings.bplist
              archivist convert *.plist --to xml --output-dir out/
              archivist convert Prefs.plist --to xml1 --in-place
              archivist convert Prefs.plist --to binary --in-place --backup .orig
              cat Info.plist | archivist convert - --to json
              archivist convert computer.plist --to codable-json --rules rules.json --pretty
              archivist convert computer.plist --to codable-json --suggest-rules -o rules.json
            """
    )

    @Argument(help: ArgumentHelp("Files to convert ('-' reads standard input).", valueName: "INPUT"))
    var inputs: [String]

    @Option(help: ArgumentHelp("Target format: xml (xml1), binary (binary1), json, openstep, codable-json.", valueName: "FORMAT"))
    var to: ConvertTarget

    @Option(help: ArgumentHelp("codable-json: a rules file (renames, removals, unwrap, typeKey).", valueName: "RULES"))
    var rules: String?

    @Option(help: ArgumentHelp("codable-json: how dates are written: deferred (seconds since 2001, JSONEncoder's default), iso8601, seconds1970, milliseconds1970.", valueName: "STRATEGY"))
    var dates: CodableOptions.DateStrategy = .deferred

    @Option(help: ArgumentHelp("codable-json: what a reference back into its own container becomes: error, or omit (left out).", valueName: "POLICY"))
    var cycles: CodableOptions.CyclePolicy = .error

    @Flag(name: .customLong("suggest-rules"), help: "codable-json: print a starter rules file for the inputs instead of converting them.")
    var suggestRules = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var style: StyleOptions

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if to != .codableJSON, rules != nil || suggestRules || dates != .deferred || cycles != .error {
            throw ValidationError("--rules, --dates, --cycles and --suggest-rules go with --to codable-json.")
        }
        if suggestRules {
            if output.outputDir != nil || output.inPlace { throw ValidationError("--suggest-rules writes one file: use -o or standard output.") }
        } else {
            try output.validate(inputs: inputs)
        }
    }

    func run() throws {
        var ruleSet = MigrationRules()
        if let rules {
            ruleSet = try RulesFile.load(rules)
        }
        var stdinBytes: [UInt8]?
        var failed = false
        if to == .codableJSON {
            // Every input reads, and every class the rules name occurs.
            var census = RulesCensus()
            for input in inputs {
                do {
                    let bytes = try FileIO.read(input)
                    if input == "-" { stdinBytes = bytes }
                    census.add(try PropertyList.read(bytes).value)
                } catch let error as PlistError {
                    Console.error(error.formatted(path: input))
                    failed = true
                }
            }
            if let rules { try RulesFile.check(ruleSet, against: census, rulesPath: rules) }
            if suggestRules {
                try suggest(stdinBytes: stdinBytes)
                if failed { throw ExitCode.failure }
                return
            }
        }
        let session = try BatchSession(inputs: inputs, options: batch)
        let converter = try session.converter(format: to.plistFormat, output: output, style: style, readOptions: limits.readOptions)
        let options = CodableOptions(dates: dates, cycles: cycles)
        let codable = to == .codableJSON
        let stdin = stdinBytes
        let workRules = ruleSet
        let ok = try session.run { index in
            let item = converter.items[index]
            return Self.outcome(item) { warn in
                try converter.convert(index, bytes: item.source == "-" ? stdin : nil, warn: warn) { document in
                    codable ? try CodableExport.tree(document.value, rules: workRules, options: options) : document.value
                }
            }
        }
        if !ok || failed { throw ExitCode.failure }
    }

    /// Runs one item's conversion and turns what happened into an outcome:
    /// warnings and errors as lines, a file in a folder that is not a
    /// property list skipped.
    static func outcome(_ item: BatchItem, _ convert: ((PlistDiagnostic) -> Void) throws -> BatchConverter.Written) -> BatchOutcome {
        var outcome = BatchOutcome(item: item, status: .failed)
        do {
            let result = try convert { outcome.stderrLines.append($0.formatted(path: item.source, severity: "warning")) }
            outcome.status = result.status == .converted ? .converted : .unchanged
            outcome.destination = result.destination
            outcome.bytesIn = result.bytesIn
            outcome.bytesOut = result.status == .converted ? result.bytesOut : 0
        } catch {
            let errors = (error as? MigrationRefused)?.errors ?? [(error as? PlistError) ?? PlistError(.invalidValue, "\(error)")]
            if item.relative != nil, let bytes = try? FileIO.read(item.source), !BatchPlan.mayBePropertyList(bytes) {
                outcome.status = .skipped
                outcome.errors = [PlistError(.unsupported, "not a property list")]
                return outcome
            }
            outcome.errors = errors
            outcome.stderrLines += errors.map { $0.formatted(path: item.source) }
            if error is MigrationRefused {
                outcome.stderrLines.append("\(item.source): error: not written: a secure decoder would still refuse the result")
            }
        }
        return outcome
    }

    /// Writes a starter rules file for every archive among the inputs.
    private func suggest(stdinBytes: [UInt8]?) throws {
        var suggestion = RulesSuggestion()
        for input in inputs {
            guard let bytes = input == "-" ? stdinBytes : try? FileIO.read(input),
                  let document = try? PropertyList.read(bytes) else { continue }
            suggestion.add(document.value)
        }
        let text = Array((try suggestion.rulesJSON()).utf8)
        do {
            try FileIO.writeAtomically(text, to: output.output ?? "-")
        } catch let error as PlistError {
            Console.error("error: \(error.message)")
            throw ExitCode.failure
        }
    }
}
