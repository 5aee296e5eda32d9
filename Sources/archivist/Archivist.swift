import ArgumentParser

/// The `archivist` command: converts, inspects and validates property lists.
@main
struct Archivist: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archivist",
        abstract: "Convert, inspect, validate and migrate property lists and keyed archives.",
        version: "0.1.0",
        subcommands: [Convert.self, Lint.self, Dump.self, Classes.self]
    )
}
