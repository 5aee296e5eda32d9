import ArchivistArchive
import ArchivistCore

/// Migrates every archive of a blob column in one transaction: rows that need
/// no change are not rewritten, each result keeps its blob's format, and a
/// failing row rolls the whole transaction back (or, with `keepGoing`, is left
/// untouched and reported).
public struct StoreMigration {
    /// A row that could not be migrated.
    public struct Failure: Error, Sendable {
        /// Its rowid.
        public var row: Int64
        /// Why, as located errors (several when a secure decoder would refuse the result).
        public var errors: [PlistError]
        /// True when the result was refused by the secure-coding check.
        public var refused: Bool

        init(row: Int64, _ error: any Error) {
            self.row = row
            if let r = error as? MigrationRefused {
                errors = r.errors
                refused = true
            } else {
                errors = [(error as? PlistError) ?? PlistError(.invalidValue, "\(error)")]
                refused = false
            }
        }
    }

    /// What a run did.
    public struct Outcome: Sendable {
        /// Rows rewritten (or that would be, in a dry run), with what changed.
        public var migrated: [(row: Int64, report: MigrationReport)] = []
        /// Rows that needed no change.
        public var unchanged = 0
        /// Rows that failed (only with `keepGoing`; otherwise the run throws).
        public var failures: [Failure] = []
    }

    /// The column.
    public var column: BlobColumn
    /// The migrator.
    public var migrator: Migrator
    /// Leave failing rows untouched and go on, instead of rolling back.
    public var keepGoing = false
    /// Compute everything, write nothing.
    public var dryRun = false

    /// A migration of a column.
    public init(column: BlobColumn, migrator: Migrator) {
        self.column = column
        self.migrator = migrator
    }

    /// The classes and keys of the column's archives, to check the rules against.
    package func census(in db: SQLiteDatabase) throws -> RulesCensus {
        var census = RulesCensus(maxNesting: migrator.maxNesting)
        try column.forEachBlob(in: db) { _, bytes in
            if let value = try? PropertyList.read(bytes).value { census.add(value) }
        }
        return census
    }

    /// Runs the migration. Throws `Failure` for the first failing row when not
    /// `keepGoing`; the database is then as it was.
    public func run(on db: SQLiteDatabase) throws -> Outcome {
        try column.check(in: db)
        var outcome = Outcome()
        try db.transaction(write: !dryRun) {
            var updates: [(rowid: Int64, bytes: [UInt8])] = []
            try column.forEachBlob(in: db) { row, bytes in
                do {
                    let document = try PropertyList.read(bytes)
                    let result = try migrator.migrate(document.value)
                    if result.report.isEmpty {
                        outcome.unchanged += 1
                    } else {
                        updates.append((row, try PropertyList.write(result.value, as: document.format)))
                        outcome.migrated.append((row, result.report))
                    }
                } catch {
                    let failure = Failure(row: row, error)
                    guard keepGoing else { throw failure }
                    outcome.failures.append(failure)
                }
            }
            // A dry run computes everything and rolls back.
            guard !dryRun else { return false }
            try db.updateBlobs(table: column.table, column: column.column, updates)
            return true
        }
        return outcome
    }
}
