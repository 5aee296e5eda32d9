import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import ArgumentParser

/// `convert --to swift|objc`: each input as the source of a literal constant
/// named after its file, as `plutil -convert swift|objc` writes it.
extension Convert {
    /// Writes every input to standard output, `-o FILE` or `--output-dir DIR`
    /// (as `DIR/NAME.swift` or `DIR/NAME.m`); an input that fails is reported
    /// and the others are still written (exit status 1).
    func convertToSource(_ language: SourceLanguage) throws {
        var failed = false
        var plan = RunOutputs()
        for input in inputs { plan.read(input, as: .input) }
        for input in inputs {
            do {
                try failing(at: input) {
                    let document = try SignedPlist.read(try FileIO.read(input, maxSize: limits.readOptions.limits.maxInputSize),
                                                         options: limits.readOptions)
                    document.diagnostics.forEach { Console.error($0.formatted(path: input, severity: "warning")) }
                    let name = input == "-" ? "plist" : input
                    let bytes = try SourceLiteralWriter.write(document.tree, language: language, name: name,
                                                              origin: input == "-" ? "standard input" : baseName(input),
                                                              options: style.writeOptions)
                    let destination = try sourceDestination(for: input, language: language, plan: &plan)
                    if let dir = output.outputDir {
                        // An output folder's results: through its descriptor, never through a link planted in it.
                        let folder = OutputFolder(path: dir, followLinks: batch.folders.followLinks)
                        try folder.write(bytes, to: folder.relative(destination) ?? destination).forEach(Console.error)
                    } else {
                        try FileIO.writeAtomically(bytes, to: destination).forEach(Console.error)
                    }
                }
            } catch let exit as ExitCode where exit == .failure {
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// Where an input's source goes, claimed in `plan` (see `RunOutputs`):
    /// never an input, and two inputs of one name are not written to one file.
    private func sourceDestination(for input: String, language: SourceLanguage, plan: inout RunOutputs) throws -> String {
        var destination = output.output ?? "-"
        if let dir = output.outputDir {
            try FileIO.createDirectories(dir)
            let identifier = SourceLanguage.identifier(from: input == "-" ? "plist" : input)
            destination = dir + (dir.hasSuffix("/") ? "" : "/") + identifier + "." + language.fileExtension
        }
        do {
            try plan.claim(destination, as: .result(of: input))
        } catch let refusal as RunOutputs.Refusal {
            throw refusal.error
        }
        return destination
    }

    /// The last component of a path.
    private func baseName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
