import ArgumentParser

/// Start-up: a command line that names a subcommand is parsed by that
/// subcommand alone first. ArgumentParser describes every command it parses
/// through reflection, and in the static binary each first look-up of a type's
/// conformance scans the binary's conformance records; parsing from the root
/// describes the root and two completion pseudo-commands before the
/// subcommand (a sixth of the instructions of `archivist lint -q FILE`).
/// Each subcommand names `archivist` as its `_superCommandName`, so parsed
/// alone it skips the completion pseudo-commands too (another 6%); that name
/// is read only for help, which this parse never prints.
/// Anything but a clean parse (help, `--version`, a usage error, a
/// completion-script request) gives nil, and the whole line is parsed from the
/// root as usual, so messages and exit statuses are ArgumentParser's own.
enum ChosenSubcommand {
    /// The command `arguments` (without the program name) names and its
    /// parsed, validated options; nil when the first word names no
    /// subcommand or the subcommand alone does not parse the rest.
    static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let name = arguments.first,
              let type = Archivist.configuration.subcommands.first(where: { $0.configuration.commandName == name }) else { return nil }
        return try? type.parseAsRoot(Array(arguments.dropFirst()))
    }
}
