import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// `archivist lint`: checks that files are well-formed property lists.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check property lists; print PATH: OK or located errors.",
        discussion: """
            Prints 'PATH: OK' for each valid file, and for an invalid one
            'PATH:LINE:COL: error: MESSAGE' (XML, JSON, OpenStep) or
            'PATH: offset N (object I): error: MESSAGE' (binary). Duplicate dictionary
            keys and lone UTF-16 surrogates, which Apple's parsers accept silently, are
            errors here. A keyed archive (NSKeyedArchiver) is also checked as an archive:
            $archiver, $version, $top, $objects, UIDs in range and class dictionaries;
            its errors name the $objects index and the key path that leads there. Folders are searched recursively (hidden entries skipped).
            Exit status: 0 when every file is valid, 1 when any is not, 64 for usage errors.

            Example:
              archivist lint Info.plist Resources/
            """
    )

    @Argument(help: ArgumentHelp("Files or folders to check ('-' reads standard input).", valueName: "PATH"))
    var paths: [String]

    @Flag(name: [.short, .long], help: "Print nothing for valid files.")
    var quiet = false

    func run() throws {
        var invalid = false
        for path in paths {
            let files: [String]
            do {
                files = path != "-" && FileIO.isDirectory(path) ? try FileIO.files(under: path) : [path]
            } catch let error as PlistError {
                Console.error(error.formatted(path: path))
                invalid = true
                continue
            }
            for file in files where !lintFile(file) { invalid = true }
        }
        if invalid { throw ExitCode.failure }
    }

    /// Checks one file and prints the verdict; returns true when it is valid.
    private func lintFile(_ path: String) -> Bool {
        do {
            let document = try PropertyList.read(try FileIO.read(path))
            if KeyedArchive.looksLikeArchive(document.value) {
                _ = try KeyedArchive(document.value)
            }
            if document.diagnostics.isEmpty {
                if !quiet { Console.output("\(path): OK") }
                return true
            }
            for diagnostic in document.diagnostics {
                var line = diagnostic.formatted(path: path)
                if let related = diagnostic.related, !related.shortDescription.isEmpty {
                    line += " (see \(related.shortDescription))"
                }
                Console.output(line)
            }
        } catch let error as PlistError {
            Console.output(error.formatted(path: path))
        } catch {
            Console.output("\(path): error: \(error)")
        }
        return false
    }
}
