import ArchivistCore

/// Fills a column with a value made from each blob of another column of the
/// same table (Codable JSON from archives), in one transaction: the column is
/// added (type BLOB) when missing, rows that already hold the result are not
/// rewritten, and a failing row rolls the whole transaction back (or, with
/// `keepGoing`, is left untouched and reported). An existing column that holds
/// anything but blobs and NULLs is refused, so no other data is overwritten.
public struct ColumnFill {
    /// What a run did.
    public struct Outcome: Sendable {
        /// True when the column was added.
        public var addedColumn = false
        /// Rows written, in rowid order.
        public var written: [Int64] = []
        /// Rows that already held their result.
        public var unchanged = 0
        /// Rows that failed (only with `keepGoing`; otherwise the run throws).
        public var failures: [StoreMigration.Failure] = []
    }

    /// The blobs the values are made from.
    public var source: BlobColumn
    /// The column to fill, in the source's table.
    public var target: String
    /// Only this rowid, when set.
    public var row: Int64?
    /// Leave failing rows untouched and go on, instead of rolling back.
    public var keepGoing = false
    /// True for a value already in the target that this command wrote
    /// there before (Codable JSON, for `convert --into-column`), which a
    /// run may replace; other data is never overwritten. By default nothing
    /// but the value the run writes is accepted.
    package var mayReplace: @Sendable ([UInt8]) -> Bool = { _ in false }

    /// A fill of `target` from the blobs of `source`.
    ///
    /// - Parameters:
    ///   - source: The column whose blobs the values are made from.
    ///   - target: The column of the same table to write them to.
    public init(source: BlobColumn, target: String) {
        self.source = source
        self.target = target
    }

    /// Fails as `BlobColumn.check` does, when the target is the source column,
    /// and when the target exists and holds anything but blobs and NULLs.
    ///
    /// - Parameter db: The open database.
    /// - Throws: `PlistError` saying what is wrong.
    public func check(in db: SQLiteDatabase) throws {
        try source.check(in: db)
        guard target != source.column else {
            throw PlistError(.invalidValue, "the values cannot replace the blobs they are made from (\(source.label)); name a new column")
        }
        guard try db.columns(of: source.table).contains(where: { $0.name == target }) else { return }
        let table = SQLiteDatabase.quote(source.table), column = SQLiteDatabase.quote(target)
        if try db.prepare("SELECT 1 FROM \(table) WHERE typeof(\(column)) NOT IN ('blob', 'null') LIMIT 1").step() {
            throw PlistError(.invalidValue, "\(source.table).\(target) holds values other than blobs; fill a new column (or one a previous run filled)")
        }
    }

    /// Runs the fill in one transaction: `transform` makes each row's value
    /// from its blob (or text). `beforeWriting` runs inside the transaction,
    /// with the write lock held, after every row is read and converted and
    /// before anything is written, only when something is written (the
    /// column is added, or a row's value changes), as
    /// ``StoreMigration/run(on:prepare:beforeWriting:)`` does: a backup
    /// written there (``SQLiteDatabase/backup(to:)``) is exactly the store
    /// the fill starts from, and a run with nothing left to write (a retry,
    /// or the retry of one killed after its commit) needs none.
    ///
    /// A value already in the target that is not what this run writes is
    /// replaced only when `mayReplace` says it is this command's own earlier
    /// output; any other is refused before anything is written. A source
    /// value that is neither NULL, a blob nor text is a failing row, and so
    /// is a row whose update SQLite did not carry out (a trigger skipped it
    /// with `RAISE(IGNORE)`, or refused it). Throws `StoreMigration.Failure`
    /// for the first failing row when not `keepGoing`; the database is then
    /// as it was.
    ///
    /// - Parameters:
    ///   - db: The open database.
    ///   - beforeWriting: Called in the transaction before the first write,
    ///     only when the run adds the column or changes a row.
    ///   - transform: Makes a row's value from its blob.
    /// - Returns: The rows written, unchanged and failed.
    /// - Throws: ``StoreMigration/Failure`` for the first failing row when not
    ///   `keepGoing`; `PlistError` when the database or the columns are wrong.
    public func run(on db: SQLiteDatabase, beforeWriting: () throws -> Void = {}, _ transform: ([UInt8]) throws -> [UInt8]) throws -> Outcome {
        var outcome = Outcome()
        try db.transaction(write: true) {
            try check(in: db)
            let table = SQLiteDatabase.quote(source.table), column = SQLiteDatabase.quote(target)
            let exists = try db.columns(of: source.table).contains(where: { $0.name == target })
            var updates: [(rowid: Int64, value: StoredValue)] = []
            var foreign: [Int64] = []
            let rowID = try db.rowID(of: source.table)
            let current = exists ? try db.prepare("SELECT \(column) FROM \(table) WHERE \(rowID) = ?") : nil
            try source.forEachValue(in: db, row: row) { rowid, stored in
                do {
                    let value = try transform(try StoreMigration.propertyListBytes(stored))
                    if let current {
                        current.reset()
                        try current.bind(1, int: rowid)
                        if try current.step(), let old = current.blob(0) {
                            if old == value {
                                outcome.unchanged += 1
                                return
                            }
                            if !mayReplace(old) { foreign.append(rowid) }
                        }
                    }
                    updates.append((rowid, .blob(value)))
                } catch {
                    let failure = StoreMigration.Failure(row: rowid, error)
                    guard keepGoing else { throw failure }
                    outcome.failures.append(failure)
                }
            }
            if !foreign.isEmpty {
                let named = foreign.prefix(10).map { "row \($0)" }.joined(separator: ", ") + (foreign.count > 10 ? " and \(foreign.count - 10) more" : "")
                throw PlistError(.invalidValue, "\(source.table).\(target) holds other data than this command writes (\(named)); nothing was written: fill a new column (or one a previous run filled)")
            }
            guard !exists || !updates.isEmpty else { return true }
            try beforeWriting()
            if !exists {
                try db.execute("ALTER TABLE \(table) ADD COLUMN \(column) BLOB")
                outcome.addedColumn = true
            }
            // Named again: the new column may shadow a name of the row id.
            let notChanged = try db.updateValues(table: source.table, column: target, rowID: try db.rowID(of: source.table), updates)
            try outcome.failures += StoreMigration.failures(notChanged, keepGoing: keepGoing)
            let failed = Set(notChanged.map(\.rowid))
            outcome.written = updates.map(\.rowid).filter { !failed.contains($0) }
            return true
        }
        return outcome
    }
}
