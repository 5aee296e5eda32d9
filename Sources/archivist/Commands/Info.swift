import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `archivist info`: what files are, at a glance.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what files are: format, size, values, depth, binary trailer, archive classes.",
        discussion: """
            For each file: the detected format and size, the number of values and the
            deepest nesting; for binary plists the trailer (offset and reference sizes,
            object count, top object, offset table position) and how many objects repeat
            an earlier one byte for byte; for keyed archives the archiver, version, $top
            keys, the class census and whether it would pass lint --secure with no
            allowlist (and what to allow or box if not); archives nested in data, by key
            path. --json prints one JSON array with an object per file.

            Examples:
              archivist info Info.plist Data.plist
              archivist info --json Preferences.plist
            """
    )

    @Argument(help: ArgumentHelp("Files to inspect ('-' reads standard input).", valueName: "FILE"))
    var files: [String]

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        var reports: [PlistValue] = []
        var failed = false
        for file in files {
            do {
                let info = try FileInfo(try FileIO.read(file))
                if json {
                    var entry = PlistDictionary([("path", .string(file))])
                    for (k, v) in info.report { entry.appendUnchecked(key: k, value: v) }
                    reports.append(.dictionary(entry))
                } else {
                    Console.output(file)
                    for line in info.lines { Console.output("  " + line) }
                }
            } catch let error as PlistError {
                Console.error(error.formatted(path: file))
                failed = true
            }
        }
        if json {
            let bytes = try PropertyList.write(.array(reports), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true))
            Console.output(String(decoding: bytes, as: UTF8.self))
        }
        if failed { throw ExitCode.failure }
    }
}
