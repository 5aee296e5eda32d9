import ArchivistDatabase
import ArgumentParser

/// Where archives stored in an SQLite database are: `--sqlite STORE --table T --column C`.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("An SQLite database (a Core Data store) whose blobs to work on.", valueName: "STORE"))
    var sqlite: String?

    @Option(help: ArgumentHelp("With --sqlite, the table.", valueName: "TABLE"))
    var table: String?

    @Option(help: ArgumentHelp("With --sqlite, the blob column.", valueName: "COLUMN"))
    var column: String?

    /// The column named, when both --table and --column are given.
    var blobColumn: BlobColumn? {
        guard let table, let column else { return nil }
        return BlobColumn(table: table, column: column)
    }

    /// Rejects --table/--column without --sqlite, and one without the other
    /// when `bothRequired` (or when either is given).
    func validate(requireColumn: Bool) throws {
        if sqlite == nil, table != nil || column != nil { throw ValidationError("--table and --column go with --sqlite.") }
        guard sqlite != nil else { return }
        if (table == nil) != (column == nil) { throw ValidationError("Give both --table and --column.") }
        if requireColumn, table == nil { throw ValidationError("--sqlite needs --table and --column here.") }
    }
}
