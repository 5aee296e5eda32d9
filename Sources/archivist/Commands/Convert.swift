import ArchivistCore
import ArgumentParser

/// `archivist convert`: reads any format and writes another.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert property lists between XML, binary, JSON and OpenStep.",
        discussion: """
            The input format is detected from the content. Without -o, --output-dir or
            --in-place the single input is written to standard output. An input is never
            overwritten unless you ask with --in-place, and one result never overwrites
            another; every file is written to a temporary file in the same folder and
            renamed into place, so a failed conversion leaves nothing behind.
            Diagnostics such as duplicate keys are printed as warnings on standard error.
            When an input fails, the others are still converted and the exit status is 1.

            Examples:
              archivist convert Info.plist --to json --pretty
              archivist convert Settings.plist --to binary1 -o Settings.bplist
              archivist convert *.plist --to xml --output-dir out/
              archivist convert Prefs.plist --to xml1 --in-place
              archivist convert Prefs.plist --to binary --in-place --backup .orig
              cat Info.plist | archivist convert - --to json
            """
    )

    @Argument(help: ArgumentHelp("Files to convert ('-' reads standard input).", valueName: "INPUT"))
    var inputs: [String]

    @Option(help: ArgumentHelp("Target format: xml (xml1), binary (binary1), json, openstep.", valueName: "FORMAT"))
    var to: PlistFormat

    @OptionGroup var output: OutputOptions

    @OptionGroup var style: StyleOptions

    func validate() throws {
        try output.validate(inputs: inputs)
    }

    func run() throws {
        var batch = BatchConverter(inputs: inputs, format: to, target: output.target, backupSuffix: output.backup,
                                   writeOptions: style.writeOptions)
        do {
            try batch.prepare()
        } catch let error as PlistError {
            Console.error("error: \(error.message)")
            throw ExitCode.failure
        }
        var failed = false
        for input in inputs {
            do {
                try batch.convert(input) { Console.error($0.formatted(path: input, severity: "warning")) }
            } catch let error as PlistError {
                Console.error(error.formatted(path: input))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
