import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// Errors that point the right way: JSON comments, data that is not a
/// property list, plutil's spellings, and plutil's type names.
extension CLITests {
    func testJSONWithACommentIsReportedAsJSON() throws {
        make("Settings.json", "{\n  // the user's choice\n  \"theme\": \"dark\"\n}\n")
        let r = try run(["lint", "Settings.json"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "Settings.json:2:3: error: JSON has no comments: remove the comment that starts here (expected a string key)\n")
        make("Leading.json", "/* exported */\n[1, 2]\n")
        XCTAssertEqual(try run(["lint", "Leading.json"]).stdout, "Leading.json:1:1: error: JSON has no comments: remove the comment that starts here (expected a value)\n")
        // OpenStep has comments: a commented OpenStep file still reads, as Foundation reads it.
        let openStep = "// prefs\n{ theme = dark; /* default */ size = 12; }\n"
        make("Prefs.plist", openStep)
        XCTAssertEqual(try run(["lint", "Prefs.plist"]).stdout, "Prefs.plist: OK\n")
        let foundation = try PropertyListSerialization.propertyList(from: Data(openStep.utf8), format: nil) as? [String: String]
        XCTAssertEqual(foundation, ["theme": "dark", "size": "12"])
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: Data("{\n  // c\n  \"a\": 1\n}".utf8)), "Foundation's JSON has no comments either")
    }

    /// A blob of another kind in a store column is "not a property list".
    func testGarbageBlobIsNotAPropertyList() throws {
        let path = work.appendingPathComponent("Other.sqlite").path
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, ZDATA BLOB)")
        let insert = try db.prepare("INSERT INTO ZITEM VALUES (1, ?)")
        try insert.bind(1, blob: [UInt8](Self.png))
        _ = try insert.step()
        // Named by --row, it is read as asked (in a whole column it is skipped: StoreMixedBlobTests).
        let r = try run(["lint", "--sqlite", "Other.sqlite", "--table", "ZITEM", "--column", "ZDATA", "--row", "1"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "Other.sqlite: ZITEM.ZDATA row 1: error: not a property list: a PNG image, which Archivist does not read\n")
    }

    /// plutil's options are answered with the archivist command that does the same.
    func testPlutilSpellingsGetTheArchivistCommand() throws {
        let cases: [([String], String)] = [
            (["-convert", "xml1", "Info.plist"], "archivist convert Info.plist --to xml1 --in-place"),
            (["-convert", "swift", "dir/Info.plist"], "archivist convert dir/Info.plist --to swift -o dir/Info.swift"),
            (["-convert", "objc", "-o", "I.m", "Info.plist"], "archivist convert Info.plist --to objc -o I.m"),
            (["-convert", "json", "-r", "-o", "out.json", "Info.plist"], "archivist convert Info.plist --to json -o out.json --pretty"),
            (["-p", "Data.plist"], "archivist dump Data.plist"),
            (["-lint", "a.plist", "b.plist"], "archivist lint a.plist b.plist"),
            (["-lint", "-s", "a.plist"], "archivist lint --quiet a.plist"),
            (["-extract", "CFBundleURLTypes.0", "json", "Info.plist"], "archivist get Info.plist CFBundleURLTypes.0 --to json"),
            (["-extract", "CFBundleVersion", "raw", "-expect", "string", "Info.plist"], "archivist get Info.plist CFBundleVersion --expect string"),
            (["-extract", "CFBundleVersion", "raw", "-n", "Info.plist"], "archivist get Info.plist CFBundleVersion -n"),
            (["-replace", "CFBundleVersion", "-string", "43", "Info.plist"], "archivist set Info.plist CFBundleVersion 43 --type string"),
            (["-insert", "Ratio", "-float", "0.5", "Info.plist"], "archivist set Info.plist Ratio 0.5 --type real"),
            (["-insert", "Tags", "-array", "Info.plist"], "archivist set Info.plist Tags --type array"),
            (["-insert", "Tags", "-string", "new tag", "-append", "Info.plist"], "archivist set Info.plist Tags 'new tag' --type string --append"),
            (["-remove", "CFBundleURLTypes.0", "Info.plist"], "archivist remove Info.plist CFBundleURLTypes.0"),
        ]
        for (args, suggestion) in cases {
            let r = try run(args)
            XCTAssertEqual(r.status, 64, args.joined(separator: " "))
            XCTAssertEqual(r.stderr, "Error: Unknown option '\(args[0])' (archivist does not take plutil's options)\ndid you mean: \(suggestion)\n")
        }
        // -r stays --recursive, and convert --help says what plutil users mean by it.
        let help = try run(["convert", "--help"])
        XCTAssertTrue(help.stdout.contains("-r is --recursive (folders), not plutil's -r: pretty JSON is --pretty."), help.stdout)
    }

    /// plutil calls a real "float"; get --expect and set --type take both
    /// spellings, and set makes empty dictionaries and arrays as plutil does.
    func testPlutilTypeNames() throws {
        let bytes = try PropertyListSerialization.data(fromPropertyList: ["ratio": 0.5, "name": "x"], format: .binary, options: 0)
        try bytes.write(to: work.appendingPathComponent("Prefs.plist"))
        XCTAssertEqual(try run(["get", "Prefs.plist", "ratio", "--type"]).stdout, "real\n")
        XCTAssertEqual(try run(["get", "Prefs.plist", "ratio", "--expect", "float"]).stdout, "0.5\n")
        XCTAssertEqual(try run(["get", "Prefs.plist", "ratio", "--expect", "real"]).status, 0)
        XCTAssertEqual(try run(["get", "Prefs.plist", "name", "--expect", "float"]).status, 1)

        XCTAssertEqual(try run(["set", "Prefs.plist", "scale", "2.5", "--type", "float"]).status, 0)
        XCTAssertEqual(try run(["set", "Prefs.plist", "options", "--type", "dictionary"]).status, 0)
        XCTAssertEqual(try run(["set", "Prefs.plist", "tags", "--type", "array"]).status, 0)
        XCTAssertEqual(try run(["set", "Prefs.plist", "tags", "x", "--type", "array"]).status, 64, "an empty container takes no value")
        let data = try XCTUnwrap(contents("Prefs.plist"))
        var format = PropertyListSerialization.PropertyListFormat.xml
        let read = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: &format) as? [String: Any])
        XCTAssertEqual(format, .binary, "the file keeps its format")
        XCTAssertEqual(read["scale"] as? Double, 2.5)
        XCTAssertEqual((read["options"] as? [String: Any])?.count, 0)
        XCTAssertEqual((read["tags"] as? [Any])?.count, 0)
    }
}
