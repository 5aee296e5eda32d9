import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// Where converted output goes: one file, a folder, in place, or standard output.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the result to FILE (one input only; '-' for standard output); its folder must exist.", valueName: "FILE"))
    var output: String?

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Write each result into DIR as NAME.plist (NAME.json for JSON); DIR is created if missing.", valueName: "DIR"))
    var outputDir: String?

    @Flag(name: .customLong("in-place"), help: "Replace each input with its result.")
    var inPlace = false

    @Option(name: .customLong("backup"), help: ArgumentHelp("With --in-place, keep each original beside it as PATH+SUFFIX (with --sqlite: the store's backup path).", valueName: "SUFFIX"))
    var backup: String?

    /// The target the options name; standard output when none is given.
    var target: OutputTarget {
        if let output { return .file(output) }
        if let outputDir { return .directory(outputDir) }
        return inPlace ? .inPlace : .standardOutput
    }

    /// Rejects conflicting options and targets that cannot take the inputs.
    func validate(inputs: [String]) throws {
        if [output != nil, outputDir != nil, inPlace].filter({ $0 }).count > 1 {
            throw ValidationError("Use only one of -o, --output-dir and --in-place.")
        }
        if let backup {
            guard inPlace else { throw ValidationError("--backup needs --in-place.") }
            guard !backup.isEmpty, !backup.contains("/") else { throw ValidationError("--backup needs a suffix without '/', such as .bak.") }
        }
        if let problem = target.usageProblem(inputs: inputs) {
            throw ValidationError(problem.prefix(1).uppercased() + problem.dropFirst() + ".")
        }
    }
}
