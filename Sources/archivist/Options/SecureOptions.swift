import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// Loads a migration rules file, printing its problem as `RULES: error: ...`.
enum RulesFile {
    /// The rules in a file; prints the problem and exits with status 64 when
    /// the file cannot be read or is not valid rules.
    static func load(_ path: String) throws -> MigrationRules {
        do {
            return try MigrationRules(bytes: try FileIO.read(path))
        } catch let error as PlistError {
            Console.error(error.formatted(path: path))
            throw ExitCode.validationFailure
        }
    }

    /// Fails (status 64) when a class the rules name occurs in none of `names`:
    /// a typo is the likely cause. A class already renamed counts as present.
    static func requireClasses(of rules: MigrationRules, in names: [ClassName], rulesPath: String) throws {
        var missing = false
        for rule in rules.classes where !names.contains(where: { rule.matches($0) }) {
            Console.error("\(rulesPath): error: classes.\(rule.name): class \(rule.name) occurs in none of the inputs")
            missing = true
        }
        if missing { throw ExitCode.validationFailure }
    }
}
