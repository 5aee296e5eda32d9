import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// Loads a migration rules file, printing its problem as `RULES: error: ...`.
enum RulesFile {
    /// The rules in a file; prints the problem and exits with status 64 when
    /// the file cannot be read, is larger than `MigrationRules.maxFileSize`
    /// (checked as it is read, so a device or pipe is not read to its end),
    /// or is not valid rules.
    static func load(_ path: String) throws -> MigrationRules {
        do {
            return try MigrationRules(bytes: try FileIO.read(path, maxSize: MigrationRules.maxFileSize))
        } catch let error as PlistError {
            Console.error(error.hinted(path: path))
            throw ExitCode.validationFailure
        }
    }

    /// Checks the rules against the inputs' classes and keys: prints a warning
    /// for each key rule no object has, and fails (status 64) when a class the
    /// rules name occurs in none of the inputs (a typo is the likely cause);
    /// both suggest near misses. A class already renamed counts as present.
    static func check(_ rules: MigrationRules, against census: RulesCensus, rulesPath: String) throws {
        let problems = census.problems(of: rules)
        for problem in problems { Console.error(problem.formatted(rulesPath: rulesPath)) }
        if problems.contains(where: { $0.severity == .error }) { throw ExitCode.validationFailure }
    }
}
