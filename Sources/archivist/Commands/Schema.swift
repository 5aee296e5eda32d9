import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// `archivist schema`: the Codable structs an archive's classes stand for.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        _superCommandName: Archivist.name,
        abstract: "Infer the Codable structs that replace archives' classes.",
        discussion: """
            Each custom class (after the renames, removals and unwrapping of a rules file) becomes \
            a struct with a property per key, typed from the values its objects hold and optional \
            where an object lacks the key or holds nil.
            Foundation values map to Swift types (NSArray to arrays, NSDictionary to dictionaries, \
            NSDate to Date, NSUUID to UUID, NSURL to URL, ...).
            Without --swift, one line per property (TYPE.KEY: SWIFT-TYPE); with --swift, \
            declarations to paste in, with CodingKeys where a key is not a Swift name.
            These are the types that read the output of convert --to codable-json with the same \
            rules, and that KeyedArchiveDecoder decodes the archive into.

            Several files, or folders (searched recursively for files holding keyed archives), are \
            merged into one schema: a field some archives lack is optional, and a field seen with \
            several types is reported on standard error with where each type was seen.

            With --sqlite STORE --table T --column C the blobs of a store's column are read too \
            (--row ID for one).

            Examples:
              archivist schema computer.plist --rules rules.json --swift
              archivist schema Documents/ --swift
              archivist schema --sqlite Model.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --swift
            """
    )

    @Argument(help: ArgumentHelp("Keyed archives, property lists holding them, or folders of them.", valueName: "FILE"))
    var files: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Option(help: ArgumentHelp("A rules file (the one convert --to codable-json reads).", valueName: "RULES"))
    var rules: String?

    @Flag(help: "Print Swift declarations.")
    var swift = false

    func validate() throws {
        try store.validate(requireColumn: true)
        if files.isEmpty, !store.isSet { throw ValidationError("Name the archives to read: files, folders or --sqlite STORE --table T --column C.") }
    }

    func run() throws {
        Console.stopsAtFailedOutput = true
        let (ruleSet, documents, unreadable) = try ArchiveInputs.readWithRules(files, store: store, rulesPath: rules)
        let (schema, unschematic) = try ArchiveInputs.schema(of: documents, rules: ruleSet)
        let failed = unreadable || unschematic
        if failed { throw ExitCode.failure }
        if swift {
            Console.text(schema.swift)
            return
        }
        for type in schema.types {
            for p in type.properties {
                Console.output("\(type.name).\(p.key): \(p.type.swift)\(p.optional ? "?" : "")")
            }
        }
    }
}
