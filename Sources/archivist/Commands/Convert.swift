import ArchivistCore
import ArgumentParser

/// `archivist convert`: reads any format and writes another.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert property lists between XML, binary, JSON and OpenStep.",
        discussion: """
            The input format is detected from the content. Without -o, --output-dir or
            --in-place a single input is written to standard output; an existing file is
            never overwritten unless you ask with --in-place, and every file is written
            through a temporary file that is renamed into place.

            Example:
              archivist convert Info.plist --to json --pretty
              archivist convert Settings.plist --to binary1 -o Settings.bplist
              archivist convert *.plist --to xml --output-dir out/
            """
    )

    @Argument(help: ArgumentHelp("Files to convert ('-' reads standard input).", valueName: "INPUT"))
    var inputs: [String]

    @Option(help: ArgumentHelp("Target format: xml (xml1), binary (binary1), json, openstep.", valueName: "FORMAT"))
    var to: String

    @OptionGroup var output: OutputOptions

    @Flag(name: .customLong("keep-key-order"), help: "XML and OpenStep: keep dictionary keys in the order read instead of sorting them.")
    var keepKeyOrder = false

    @Flag(help: "JSON: indent for people.")
    var pretty = false

    func validate() throws {
        guard PlistFormat(name: to) != nil else {
            throw ValidationError("Unknown format '\(to)': use xml, xml1, binary, binary1, json or openstep.")
        }
        try output.validate(inputs: inputs)
    }

    func run() throws {
        guard let format = PlistFormat(name: to) else { throw ExitCode.validationFailure }
        let options = WriteOptions(keepKeyOrder: keepKeyOrder, pretty: pretty)
        var failed = false
        if let dir = output.outputDir {
            do {
                try FileIO.createDirectories(dir)
            } catch let error as PlistError {
                Console.error("error: \(error.message)")
                throw ExitCode.failure
            }
        }
        for input in inputs {
            let destination = output.destination(for: input, extension: format == .json ? "json" : "plist")
            do {
                if !output.inPlace, destination != "-", FileIO.exists(destination) {
                    throw PlistError(.io, "\(destination) exists; use --in-place to replace inputs or choose another -o")
                }
                let bytes = try FileIO.read(input)
                let document = try PropertyList.read(bytes)
                for diagnostic in document.diagnostics {
                    Console.error(diagnostic.formatted(path: input, severity: "warning"))
                }
                let result = try PropertyList.write(document.value, as: format, options: options)
                try FileIO.writeAtomically(result, to: destination)
            } catch let error as PlistError {
                Console.error(error.formatted(path: input))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
