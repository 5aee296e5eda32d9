import ArchivistTestSupport
import Foundation
import XCTest

/// `convert FOLDER --to codable-json`: the rules are checked against the
/// archives the folder holds, and `--suggest-rules` reads them too.
extension CLITests {
    func testCodableJSONConvertsTheArchivesAFolderHolds() throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("archives"), withIntermediateDirectories: true)
        for (i, contact) in Self.contacts.enumerated() {
            let data = try NSKeyedArchiver.archivedData(withRootObject: ContactV1(tel: contact.tel, fax: contact.fax, email: contact.email),
                                                        requiringSecureCoding: false)
            try data.write(to: work.appendingPathComponent("archives/contact\(i).plist"))
        }
        let rules = contactRules()
        let converted = try run(["convert", "archives", "--to", "codable-json", "--rules", rules, "--output-dir", "json"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(try listing("json"), ["contact0.json", "contact1.json", "contact2.json"])
        let first = try JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent("json/contact0.json"))) as? [String: Any]
        XCTAssertEqual(first?["email"] as? String, Self.contacts[0].email)

        // --suggest-rules reads the folder's archives as it reads named ones.
        try FileManager.default.createDirectory(at: work.appendingPathComponent("music"), withIntermediateDirectories: true)
        for name in ["computer", "order-with-cart"] {
            try FileManager.default.copyItem(atPath: corpus("archives/\(name).plist"), toPath: work.appendingPathComponent("music/\(name).plist").path)
        }
        let named = try run(["convert", corpus("archives/computer.plist"), corpus("archives/order-with-cart.plist"), "--to", "codable-json", "--suggest-rules"])
        let folder = try run(["convert", "music", "--to", "codable-json", "--suggest-rules"])
        XCTAssertEqual(folder.status, 0, folder.stderr)
        XCTAssertTrue(folder.stdout.contains(#""renameTo": "MusicBox.CPU""#), folder.stdout)
        XCTAssertEqual(folder.stdout, named.stdout)
    }
}
