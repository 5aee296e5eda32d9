import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// A store row that holds no blob says what it holds.
extension CLITests {
    /// A store row asked for that holds no blob says what it holds.
    func testStoreRowThatHoldsNoBlobSaysWhat() throws {
        let path = work.appendingPathComponent("Notes.sqlite").path
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, ZBODY BLOB)")
        let insert = try db.prepare("INSERT INTO ZNOTE VALUES (1, ?)")
        try insert.bind(1, blob: try PropertyList.write(.array([]), as: .binary))
        _ = try insert.step()
        try db.execute("INSERT INTO ZNOTE VALUES (2, NULL); INSERT INTO ZNOTE VALUES (3, 'some text')")
        let column = ["--sqlite", "Notes.sqlite", "--table", "ZNOTE", "--column", "ZBODY"]
        let null = try run(["dump"] + column + ["--row", "2"])
        XCTAssertEqual(null.status, 1)
        XCTAssertEqual(null.stderr, "Notes.sqlite: error: row 2 of ZNOTE.ZBODY is NULL (no value, so nothing to read)\n")
        let text = try run(["info"] + column + ["--row", "3"])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(text.stderr, "Notes.sqlite: error: row 3 of ZNOTE.ZBODY holds text, not a blob\n")
    }
}
