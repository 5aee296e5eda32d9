import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `archivist classes`: the classes keyed archives use.
struct Classes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classes",
        _superCommandName: Archivist.name,
        abstract: "List the classes of keyed archives, with counts and class chains.",
        discussion: """
            Each class is shown with its object count, readable and archived names and its \
            $classes chain, marked with its framework (Foundation, AppKit, UIKit, CloudKit; \
            Apple for other classes of Apple's frameworks) or custom.
            --swift prints the NSKeyedUnarchiver.unarchivedObject(ofClasses:from:) call that \
            decodes the archives under secure coding.

            With --sqlite STORE --table T --column C the archives are the column's blobs (every \
            row, or --row ID), counted together as files are; a row that fails is reported as \
            'STORE: T.C row N'.

            Example:
              archivist classes Data.plist
              archivist classes --swift *.plist
              archivist classes --swift --sqlite App.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT
            """
    )

    @Argument(help: ArgumentHelp("Keyed archives to read.", valueName: "FILE"))
    var files: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Flag(help: "Print the Swift allowlist for NSKeyedUnarchiver.unarchivedObject(ofClasses:from:).")
    var swift = false

    func validate() throws {
        try store.validate(requireColumn: true)
        if files.isEmpty, !store.isSet { throw ValidationError("Give keyed archives, or --sqlite STORE --table T --column C.") }
    }

    func run() throws {
        Console.stopsAtFailedOutput = true
        var census = ClassCensus()
        var failed = false
        /// Counts a graph's classes; one without objects is said to have none.
        func add(_ graph: ObjectGraph, label: String) {
            if graph.objectCount == 0 {
                Console.error("\(label): note: no objects, so no classes (the archive holds only values: strings, numbers, data or nil)")
            }
            census.add(graph)
        }
        for file in files {
            do {
                add(try ObjectGraph(try DocumentReading.read(file: file).tree), label: file)
            } catch let error as PlistError {
                Console.error(error.hinted(path: file))
                failed = true
            }
        }
        if try !store.forEachRowReportingErrors({ row in add(try ObjectGraph(try DocumentReading.read(row.bytes).tree), label: row.label) }) {
            failed = true
        }
        if swift {
            for name in census.unnamedInSwift {
                Console.error("warning: class \(PlistValue.quoted(name.readable)) is not a Swift type name; it is left out of the list")
            }
            Console.text(census.swiftAllowlist, terminator: "\n")
        } else {
            for e in census.entries {
                Console.output(columns: [String(e.count), e.name.description, e.framework, e.chain.map { TerminalText.escaped($0) }.joined(separator: " < ")])
            }
        }
        if failed { throw ExitCode.failure }
    }
}
