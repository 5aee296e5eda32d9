import ArgumentParser

/// Where converted output goes: one file, a folder, in place, or standard output.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the result to FILE (one input only; '-' for standard output).", valueName: "FILE"))
    var output: String?

    @Option(name: .customLong("output-dir"), help: ArgumentHelp("Write each result into DIR under the input's base name.", valueName: "DIR"))
    var outputDir: String?

    @Flag(name: .customLong("in-place"), help: "Replace each input with its result.")
    var inPlace = false

    func validate(inputs: [String]) throws {
        let chosen = [output != nil, outputDir != nil, inPlace].filter { $0 }.count
        if chosen > 1 { throw ValidationError("Use only one of -o, --output-dir and --in-place.") }
        if output != nil, inputs.count != 1 { throw ValidationError("-o takes exactly one input; use --output-dir for several.") }
        if chosen == 0, inputs.count != 1 {
            throw ValidationError("Several inputs need --output-dir DIR or --in-place (standard output takes one).")
        }
        if inPlace, inputs.contains("-") { throw ValidationError("--in-place cannot replace standard input.") }
    }

    /// The destination for one input.
    func destination(for input: String, extension ext: String) -> String {
        if let output { return output }
        if inPlace { return input }
        guard let outputDir else { return "-" }
        let name = input == "-" ? "stdin" : String(input.split(separator: "/").last ?? "output")
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? String(name[..<(name.lastIndex(of: ".") ?? name.endIndex)]) : name
        return (outputDir.hasSuffix("/") ? outputDir : outputDir + "/") + stem + "." + ext
    }
}
