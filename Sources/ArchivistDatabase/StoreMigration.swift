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
    ///
    /// - Parameters:
    ///   - column: The column whose archives are migrated.
    ///   - migrator: The migration each row's archive goes through.
    public init(column: BlobColumn, migrator: Migrator) {
        self.column = column
        self.migrator = migrator
    }

    /// The classes and keys of the column's archives (blobs, and text that
    /// reads as a property list), to check the rules against.
    package func census(in db: SQLiteDatabase) throws -> RulesCensus {
        var census = RulesCensus()
        try column.forEachValue(in: db) { _, value in
            if let bytes = value.bytes, let tree = try? PropertyList.read(bytes).tree { census.add(tree) }
        }
        return census
    }

    /// Runs the migration in one transaction. `prepare` runs inside it
    /// before any row is read (the write lock is already held, unless
    /// `dryRun`), and `beforeWriting` after every row is read and migrated
    /// and before the first is written, only when some row changes: a backup
    /// written there (``SQLiteDatabase/backup(to:)``) is exactly the store
    /// the migration starts from, no other writer can commit until the
    /// migration does, and a run with nothing left to change (the retry of
    /// one killed after its commit) needs no backup. Every value that is not NULL is
    /// counted: a blob or text that reads as a property list is migrated (a
    /// result keeps its value's type and format), anything else is a failure.
    /// A row whose update SQLite did not carry out (a trigger skipped it
    /// with `RAISE(IGNORE)`, or refused it) is a failure too, never counted
    /// as migrated. Throws `Failure` for the first failing row when not
    /// `keepGoing`; the database is then as it was.
    ///
    /// - Parameters:
    ///   - db: The open database.
    ///   - prepare: Called in the transaction, with the write lock held, before
    ///     any row is read.
    ///   - beforeWriting: Called once every row is migrated and before the
    ///     first is written, only when some row changes.
    /// - Returns: The rows migrated (with their reports), unchanged and failed.
    /// - Throws: ``Failure`` for the first failing row when not `keepGoing`;
    ///   `PlistError` when the database or the column is wrong; what
    ///   `prepare` and `beforeWriting` throw.
    public func run(on db: SQLiteDatabase, prepare: () throws -> Void = {}, beforeWriting: () throws -> Void = {}) throws -> Outcome {
        var outcome = Outcome()
        try db.transaction(write: !dryRun) {
            try column.check(in: db)
            try prepare()
            var updates: [(rowid: Int64, value: StoredValue)] = []
            try column.forEachValue(in: db) { row, value in
                do {
                    let document = try PropertyList.read(try Self.propertyListBytes(value))
                    let result = try migrator.migrate(document.tree)
                    if result.report.isEmpty {
                        outcome.unchanged += 1
                    } else {
                        updates.append((row, value.replaced(by: try PropertyList.write(result.tree, as: document.format))))
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
            guard !updates.isEmpty else { return true }
            try beforeWriting()
            let notChanged = try db.updateValues(table: column.table, column: column.column, rowID: try db.rowID(of: column.table), updates)
            try outcome.failures += Self.failures(notChanged, keepGoing: keepGoing)
            let failed = Set(notChanged.map(\.rowid))
            outcome.migrated.removeAll { failed.contains($0.row) }
            return true
        }
        return outcome
    }

    /// The rows an update did not change (a trigger skipped or refused them),
    /// as failures; the first is thrown (rolling everything back) unless `keepGoing`.
    static func failures(_ notChanged: [(rowid: Int64, error: PlistError)], keepGoing: Bool) throws -> [Failure] {
        let failures = notChanged.map { Failure(row: $0.rowid, $0.error) }
        if !keepGoing, let first = failures.first { throw first }
        return failures
    }

    /// The bytes of a blob or a text, to read as a property list; an error
    /// for a number, which holds no archive.
    static func propertyListBytes(_ value: StoredValue) throws -> [UInt8] {
        guard let bytes = value.bytes else {
            throw PlistError(.invalidValue, "holds \(value.typeName == "integer" ? "an" : "a") \(value.typeName), not an archive")
        }
        return bytes
    }
}
