import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// `archivist lint`: checks that files are well-formed property lists.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check property lists; print PATH: OK or located errors.",
        discussion: """
            Prints 'PATH: OK' for each valid file, and for an invalid one every problem as
            'PATH:LINE:COL: error: MESSAGE' (XML, JSON, OpenStep) or
            'PATH: offset N (object I): error: MESSAGE' (binary). Duplicate dictionary
            keys, lone UTF-16 surrogates and XML encoding declarations that contradict
            the bytes, which Apple's parsers accept silently, are errors here. A keyed
            archive (NSKeyedArchiver) is also checked as an archive: $archiver, $version,
            $top, $objects, UIDs in range and class dictionaries; its errors name the
            $objects index and the key path that leads there. Folders are searched
            recursively in sorted order, hidden entries skipped. Files that cannot be
            read are reported on standard error.
            Exit status: 0 when every file is valid, 1 when any is not, 64 for usage errors.

            Examples:
              archivist lint Info.plist
              archivist lint --quiet Resources/ Settings.bundle/
            """
    )

    @Argument(help: ArgumentHelp("Files or folders to check ('-' reads standard input).", valueName: "PATH"))
    var paths: [String]

    @Flag(name: [.short, .long], help: "Print nothing for valid files.")
    var quiet = false

    func run() throws {
        var invalid = false
        for path in paths {
            do {
                for file in try Linter.files(for: path) where !check(file) { invalid = true }
            } catch let error as PlistError {
                Console.error(error.formatted(path: path))
                invalid = true
            }
        }
        if invalid { throw ExitCode.failure }
    }

    /// Checks one file and prints the verdict; true when it is valid.
    private func check(_ path: String) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch let error as PlistError {
            Console.error(error.formatted(path: path))
            return false
        } catch {
            Console.error("\(path): error: \(error)")
            return false
        }
        let problems = Linter.problems(in: bytes, path: path) { document in
            if KeyedArchive.looksLikeArchive(document.value) { _ = try KeyedArchive(document.value) }
        }
        if problems.isEmpty {
            if !quiet { Console.output("\(path): OK") }
            return true
        }
        for line in problems { Console.output(line) }
        return false
    }
}
