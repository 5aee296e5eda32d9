import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// `archivist schema`: the Codable structs an archive's classes stand for.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Infer the Codable structs that replace an archive's classes.",
        discussion: """
            Each custom class (after the renames, removals and unwrapping of a rules file)
            becomes a struct with a property per key, typed from the values its objects
            hold and optional where an object lacks the key or holds nil. Foundation
            values map to Swift types (NSArray to arrays, NSDictionary to dictionaries,
            NSDate to Date, NSUUID to UUID, NSURL to URL, ...). Without --swift, one line
            per property (TYPE.KEY: SWIFT-TYPE); with --swift, declarations to paste in,
            with CodingKeys where a key is not a Swift name. These are the types that
            read the output of convert --to codable-json with the same rules, and that
            KeyedArchiveDecoder decodes the archive into.

            Examples:
              archivist schema computer.plist --rules rules.json --swift
            """
    )

    @Argument(help: ArgumentHelp("A keyed archive, or a property list holding one.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("A rules file (the one convert --to codable-json reads).", valueName: "RULES"))
    var rules: String?

    @Flag(help: "Print Swift declarations.")
    var swift = false

    func run() throws {
        let ruleSet = try rules.map { try RulesFile.load($0) } ?? MigrationRules()
        let schema: CodableSchema
        do {
            let value = try PropertyList.read(try FileIO.read(file)).value
            if let rules {
                var census = RulesCensus()
                census.add(value)
                try RulesFile.check(ruleSet, against: census, rulesPath: rules)
            }
            schema = try CodableSchema(value, rules: ruleSet)
        } catch let error as PlistError {
            Console.error(error.formatted(path: file))
            throw ExitCode.failure
        }
        if swift {
            Console.output(schema.swift, terminator: "")
            return
        }
        for type in schema.types {
            for p in type.properties {
                Console.output("\(type.name).\(p.key): \(p.type.swift)\(p.optional ? "?" : "")")
            }
        }
    }
}
