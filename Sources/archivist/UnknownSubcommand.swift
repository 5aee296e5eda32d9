import ArchivistArchive
import ArgumentParser

/// A first word that is no subcommand (`archivist cat x`), answered as one:
/// ArgumentParser would say "2 unexpected arguments".
enum UnknownSubcommand {
    /// Words other tools use for what a subcommand does.
    private static let otherNames: [String: String] = [
        "cat": "dump", "print": "dump", "show": "dump", "check": "lint", "validate": "lint",
        "compare": "diff", "extract": "get", "read": "get", "write": "set", "replace": "set",
        "insert": "set", "rm": "remove", "delete": "remove", "upgrade": "migrate",
    ]

    /// The lines that say `arguments`' first word is not a subcommand,
    /// naming the close ones and listing all; nil when it is one, or an
    /// option, or there are no arguments.
    static func message(for arguments: [String]) -> [String]? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = Archivist.configuration.subcommands.map { $0._commandName }
        guard !names.contains(word), word != "help" else { return nil }
        let typed = Array(word.lowercased().prefix(64))
        var close: [(name: String, distance: Int)] = []
        for name in names {
            if otherNames[word.lowercased()] == name {
                close.append((name, -1))
            } else if typed.count >= 2, name.hasPrefix(String(typed)) {
                close.append((name, 0))
            } else {
                let d = NearMiss.distance(typed, Array(name))
                if d <= min(2, max(1, typed.count / 2)) { close.append((name, d)) }
            }
        }
        let suggestions = close.sorted { $0.distance < $1.distance }.map { "'\($0.name)'" }
        var first = "Error: '\(word)' is not an archivist subcommand"
        if !suggestions.isEmpty {
            first += "; did you mean " + (suggestions.count == 1 ? suggestions[0] : suggestions.dropLast().joined(separator: ", ") + " or " + (suggestions.last ?? "")) + "?"
        }
        return [first, "Subcommands: \(names.joined(separator: ", ")) (archivist help SUBCOMMAND says more)"]
    }
}
