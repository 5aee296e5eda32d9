import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// `BlobColumn.forEachRow(in:row:selection:_:)`: rows chosen by a bound
/// value, labelled by another column, names checked before any SQL is made.
final class RowSelectionTests: XCTestCase {
    var path = ""
    let column = BlobColumn(table: "Files", column: "file")

    override func setUpWithError() throws {
        path = try makeScratchFolder("rows").path("rows.sqlite")
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("""
            CREATE TABLE Files (domain TEXT, relativePath TEXT, flags INTEGER, file BLOB);
            INSERT INTO Files VALUES ('Home', 'a.plist', 1, x'01'), ('App', 'b''; DROP TABLE Files; --', 2, x'02'),
                                     ('Home', NULL, 2, NULL), ('Home', 'd', 1, 'text');
            """)
    }

    private func rows(_ selection: RowSelection, row: Int64? = nil) throws -> [SelectedRow] {
        let db = try SQLiteDatabase.openForReading(path: path).database
        var out: [SelectedRow] = []
        try column.forEachRow(in: db, row: row, selection: selection) { out.append($0) }
        return out
    }

    func testFilterAndLabel() throws {
        let home = try rows(RowSelection(labelColumn: "relativePath", filter: ("domain", "Home")))
        XCTAssertEqual(home, [SelectedRow(rowid: 1, value: .blob([1]), label: .text(Array("a.plist".utf8))),
                              SelectedRow(rowid: 3, value: nil, label: nil),
                              SelectedRow(rowid: 4, value: .text(Array("text".utf8)), label: .text([0x64]))])
        // Text compared with an INTEGER column's affinity, as SQLite compares.
        XCTAssertEqual(try rows(RowSelection(filter: ("flags", "2"))).map(\.rowid), [2, 3])
        XCTAssertEqual(try rows(RowSelection(labelColumn: "flags"), row: 2).map(\.label), [.integer(2)])
        // A value is never SQL; the table is still there.
        XCTAssertEqual(try rows(RowSelection(filter: ("relativePath", "b'; DROP TABLE Files; --"))).map(\.rowid), [2])
        XCTAssertEqual(try rows(RowSelection(filter: ("domain", "x' OR '1'='1"))).count, 0)
        XCTAssertEqual(try rows(RowSelection()).count, 4)
    }

    func testUnknownColumnsAreRefusedByName() throws {
        for selection in [RowSelection(labelColumn: "path"), RowSelection(filter: ("domain\" OR 1=1 --", "x"))] {
            XCTAssertThrowsError(try rows(selection)) { error in
                XCTAssertTrue((error as? PlistError)?.message.hasPrefix("no column ") == true, "\(error)")
            }
        }
    }
}
