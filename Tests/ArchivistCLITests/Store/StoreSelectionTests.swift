import ArchivistDatabase
import Foundation
import XCTest

/// `--label-column NAME` and `--where COLUMN=VALUE` on the read commands'
/// stores, on a store laid out as an iOS backup's `Manifest.db`.
extension CLITests {
    /// `Files(fileID, domain, relativePath, flags, file)`: rows 1-3 hold
    /// binary plists `{"n": N}` (row 2's path has an ESC, row 3's is NULL),
    /// row 4 text.
    func makeManifest(_ name: String) throws -> String {
        let path = work.appendingPathComponent(name).path
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)")
        let insert = try db.prepare("INSERT INTO Files VALUES (?, ?, ?, ?, ?)")
        let rows: [(String, String, String?, Int64)] = [("aa11", "HomeDomain", "Library/Preferences/a.plist", 1),
                                                        ("bb22", "AppDomain-x", "Documents/b\u{1B}[31mred.plist", 1),
                                                        ("cc33", "HomeDomain", nil, 2), ("dd44", "HomeDomain", "x", 2)]
        for (i, row) in rows.enumerated() {
            insert.reset()
            try insert.bind(1, text: row.0)
            try insert.bind(2, text: row.1)
            if let relativePath = row.2 { try insert.bind(3, text: relativePath) }
            try insert.bind(4, int: row.3)
            if i < 3 {
                let plist = try PropertyListSerialization.data(fromPropertyList: ["n": i + 1], format: .binary, options: 0)
                try insert.bind(5, blob: [UInt8](plist))
            } else {
                try insert.bind(5, text: "not a blob")
            }
            _ = try insert.step()
        }
        return name
    }

    private var filesColumn: [String] { ["--table", "Files", "--column", "file"] }

    func testLabelColumnLabelsEachRow() throws {
        let store = try makeManifest("Manifest.db")
        let dump = try run(["dump", "--sqlite", store] + filesColumn + ["--label-column", "relativePath"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout, """
            Manifest.db: Files.file row 1 (relativePath: Library/Preferences/a.plist):
            {
              "n" => 1
            }
            Manifest.db: Files.file row 2 (relativePath: Documents/b\\u{1b}[31mred.plist):
            {
              "n" => 2
            }
            Manifest.db: Files.file row 3 (relativePath: NULL):
            {
              "n" => 3
            }

            """)
        let lint = try run(["lint", "--sqlite", store] + filesColumn + ["--label-column", "fileID"])
        XCTAssertEqual(lint.stdout, (1...3).map { "Manifest.db: Files.file row \($0) (fileID: \(["aa11", "bb22", "cc33"][$0 - 1])): OK\n" }.joined())
        let one = try run(["dump", "--sqlite", store] + filesColumn + ["--row", "2", "--label-column", "flags"])
        XCTAssertTrue(one.stdout.hasPrefix("Manifest.db: Files.file row 2 (flags: 1):\n"), one.stdout)

        let json = try run(["dump", "--json", "--sqlite", store] + filesColumn + ["--label-column", "relativePath"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["Library/Preferences/a.plist", "Documents/b\u{1B}[31mred.plist", nil])
        XCTAssertTrue(rows[2]["label"] is NSNull)
        XCTAssertEqual(rows.map { $0["labelColumn"] as? String }, Array(repeating: "relativePath", count: 3))

        let info = try run(["info", "--json", "--sqlite", store] + filesColumn + ["--label-column", "fileID", "--where", "flags=1"])
        XCTAssertEqual(info.status, 0, info.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: info.output) as? [[String: Any]])
        XCTAssertEqual(reports.map { $0["row"] as? Int }, [1, 2])
        XCTAssertEqual(reports.map { $0["label"] as? String }, ["aa11", "bb22"])
        XCTAssertEqual(reports.map { $0["labelColumn"] as? String }, ["fileID", "fileID"])
        let infoText = try run(["info", "--sqlite", store] + filesColumn + ["--label-column", "fileID", "--row", "1"])
        XCTAssertTrue(infoText.stdout.hasPrefix("Manifest.db: Files.file row 1 (fileID: aa11)\n"), infoText.stdout)

        let missing = try run(["dump", "--sqlite", store] + filesColumn + ["--label-column", "path"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "Manifest.db: error: no column path in Files (columns: fileID, domain, relativePath, flags, file)\n")
        XCTAssertEqual(try run(["dump", "x.plist", "--label-column", "fileID"]).status, 64)
    }

    func testWhereSelectsRowsByABoundValue() throws {
        let store = try makeManifest("Manifest.db")
        let home = try run(["lint", "--sqlite", store] + filesColumn + ["--where", "domain=HomeDomain"])
        XCTAssertEqual(home.stdout, "Manifest.db: Files.file row 1: OK\nManifest.db: Files.file row 3: OK\n")
        XCTAssertEqual(home.stderr, "Manifest.db: Files.file: warning: 1 row holds a value that is not a blob and was not read: row 4 (text)\n")
        // An integer column: the text is compared with the column's affinity, as SQLite does.
        let flags = try run(["dump", "--json", "--sqlite", store] + filesColumn + ["--where", "flags=1", "--label-column", "fileID"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: flags.output) as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["row"] as? Int }, [1, 2])
        XCTAssertEqual(rows.map { $0["label"] as? String }, ["aa11", "bb22"])
        // The value after the first = is the value, = and quotes included; never SQL.
        let path = try run(["classes", "--sqlite", store] + filesColumn + ["--where", "relativePath=Library/Preferences/a.plist"])
        XCTAssertEqual(path.stderr, "Manifest.db: Files.file row 1: $archiver: error: $archiver is missing or not a string\n")
        for hostile in ["domain=x' OR 1=1 --", "domain=\" OR 1=1 --", "domain=HomeDomain' OR 'a'='a"] {
            let r = try run(["lint", "--sqlite", store] + filesColumn + ["--where", hostile])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, "", hostile)
            let value = hostile.split(separator: "=", maxSplits: 1)[1]
            XCTAssertEqual(r.stderr, "Manifest.db: Files.file: warning: no row has domain = \(value)\n")
        }
        let column = try run(["lint", "--sqlite", store] + filesColumn + ["--where", "\"domain\"=HomeDomain"])
        XCTAssertEqual(column.status, 1)
        XCTAssertEqual(column.stderr, "Manifest.db: error: no column \"domain\" in Files (columns: fileID, domain, relativePath, flags, file)\n")
        for usage in [["--where", "domain"], ["--where", "=x"], ["--where", "domain=x", "--row", "1"]] {
            XCTAssertEqual(try run(["dump", "--sqlite", store] + filesColumn + usage).status, 64, "\(usage)")
        }
        // --into-column fills every row: a selection there would be ignored, so it is refused.
        let fill = try run(["convert", "--sqlite", store] + filesColumn + ["--to", "codable-json", "--into-column", "json", "--where", "domain=HomeDomain"])
        XCTAssertEqual(fill.status, 64)
        XCTAssertTrue(fill.stderr.hasPrefix("Error: --into-column fills every row of the column: --where and --label-column do not apply.\n"), fill.stderr)
    }
}
