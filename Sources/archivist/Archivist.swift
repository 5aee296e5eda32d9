import ArgumentParser

/// The `archivist` command: converts, inspects and validates property lists.
@main
struct Archivist: ParsableCommand {
    /// The command's name. Every subcommand gives it as its
    /// `_superCommandName`, which only matters when the subcommand is parsed
    /// as a root of its own (``ChosenSubcommand``): ArgumentParser then skips
    /// its completion-script check, two pseudo-commands described through
    /// reflection. Help and errors always come from the root's parse.
    static let name = "archivist"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Convert, inspect, validate and migrate property lists and keyed archives.",
        discussion: """
            Reads XML, binary (bplist00), JSON and OpenStep property lists, detecting the format \
            from the content.
            Results go to standard output, errors and warnings to standard error.
            Exit status: 0 success, 1 a file failed (diff: the files differ; merge: conflicts), 2 \
            diff could not compare (merge: could not read an input), 64 usage error, 130 a batch \
            stopped by Ctrl-C.

            Examples:
              archivist convert Info.plist --to json --pretty
              archivist lint Resources/
              archivist dump Data.plist
              archivist migrate Data.plist --rules rules.json --in-place --backup .v1
              archivist convert Computer.plist --to codable-json --rules rules.json
              archivist get Info.plist CFBundleURLTypes.0.CFBundleURLSchemes
              archivist diff old.plist new.plist
              archivist merge Base.plist Ours.plist Theirs.plist -o Info.plist
            """,
        version: archivistVersion,
        // Every subcommand names itself (`commandName`): a name derived from
        // the type costs `String(describing:)`, whose conformance lookups scan
        // every conformance record of the static binary at start-up.
        subcommands: [Convert.self, Lint.self, Dump.self, Classes.self, Migrate.self, Schema.self, Codegen.self, Get.self, SetValue.self, Remove.self, Info.self, Diff.self, Merge.self]
    )
}
