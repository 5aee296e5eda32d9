import Foundation
import XCTest

/// `diff` shows whatever `migrate` changed, in words.
extension CLITests {
    func testDiffShowsWhatMigrateChanged() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        let migrated = try run(["migrate", "Data.plist", "--rules", corpus("rules/scary-creatures.json"), "--in-place", "--backup", ".v1"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let diff = try run(["diff", "Data.plist.v1", "Data.plist"])
        XCTAssertEqual(diff.status, 1, "the files differ")
        XCTAssertEqual(diff.stdout, """
            ~ root: class ScaryCreatures.ScaryCreatureData -> ScaryCreatures2.ScaryCreatureData
            ~ root.Rating: inline real 3.5 -> NSNumber 3.5

            """)
        let json = try run(["diff", "--json", "Data.plist.v1", "Data.plist"])
        let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(entries.map { "\($0["path"] ?? "") \($0["oldType"] ?? "") \($0["newType"] ?? "")" },
                       ["root class class", "root.Rating inline real NSNumber"])

        // A key renamed and a key removed, as a user's rules say.
        let rules = make("keys.json", #"{"classes": {"ScaryCreatures.ScaryCreatureData": {"keys": {"Title": {"renameTo": "name"}, "Rating": {"remove": true}}}}, "boxPrimitives": false, "allowedClasses": ["ScaryCreatures.ScaryCreatureData"]}"#)
        let keys = try run(["migrate", "Data.plist.v1", "--rules", rules, "-o", "keys.plist"])
        XCTAssertEqual(keys.status, 0, keys.stderr)
        let keyDiff = try run(["diff", "Data.plist.v1", "keys.plist"])
        XCTAssertEqual(keyDiff.status, 1)
        XCTAssertEqual(keyDiff.stdout, """
            - root.Rating: inline real 3.5
            - root.Title: string "Scary Bug"
            + root.name: string "Scary Bug"

            """)
        // The same archive in another format is no change.
        XCTAssertEqual(try run(["convert", "Data.plist", "--to", "xml", "-o", "Data.xml"]).status, 0)
        let same = try run(["diff", "Data.plist", "Data.xml"])
        XCTAssertEqual(same.status, 0, same.stdout)
        XCTAssertEqual(same.stdout, "")
    }
}
