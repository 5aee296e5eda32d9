import ArchivistCore
import Foundation
import XCTest

/// Scenario 3's target: `struct User: Codable`, read with
/// `JSONDecoder().decode(User.self, from: defaults.data(forKey: "currentUser")!)`.
struct MigratedUser: Codable, Equatable {
    var name: String
    var age: Int
    var email: String?
}

/// An NSCoding class with every kind of field JSONEncoder writes differently
/// from a plain JSON writer: strings with `/` and control characters, an
/// integral real, a date, data, a list and a nil.
final class SocialProfileV1: NSObject, NSCoding {
    let name: String, score: Double, ratio: Double, joined: Date, avatar: Data, tags: [String]
    init(name: String, score: Double, ratio: Double, joined: Date, avatar: Data, tags: [String]) {
        self.name = name; self.score = score; self.ratio = ratio; self.joined = joined; self.avatar = avatar; self.tags = tags
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(score, forKey: "score")
        coder.encode(NSNumber(value: ratio), forKey: "ratio")
        coder.encode(joined as NSDate, forKey: "joined")
        coder.encode(avatar as NSData, forKey: "avatar")
        coder.encode(tags as NSArray, forKey: "tags")
        coder.encode(nil as NSString?, forKey: "email")
    }
    init?(coder: NSCoder) { nil }
}

/// The struct SocialProfileV1 becomes.
struct MigratedProfile: Codable, Equatable {
    var name: String
    var score: Double
    var ratio: Double
    var joined: Date
    var avatar: Data
    var tags: [String]
    var email: String?
}

/// `migrate --codable`: archives nested in preferences become the bytes
/// Foundation's encoders write, read back with Foundation's decoders.
extension CLITests {
    /// The scenario-3 preferences file and a rules file naming its class.
    private func preferencesAndRules() throws -> (prefs: String, rules: String) {
        try copyCorpus("archives/preferences-with-user.plist", to: "Prefs.plist")
        return ("Prefs.plist", make("user-rules.json", #"{"classes": {"Prefs.User": {"renameTo": "Accounts.User"}}}"#))
    }

    /// The outer file as Foundation reads it, and the data under `currentUser`.
    private func readPreferences(_ name: String) throws -> (dictionary: [String: Any], user: Data) {
        let bytes = try XCTUnwrap(contents(name))
        let outer = try XCTUnwrap(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any])
        return (outer, try XCTUnwrap(outer["currentUser"] as? Data))
    }

    func testScenarioThreeBecomesCodableJSONInPlace() throws {
        let (prefs, rules) = try preferencesAndRules()
        let original = try XCTUnwrap(contents(prefs))
        let dry = try run(["migrate", prefs, "--rules", rules, "--codable", "json", "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, """
            Prefs.plist: would change:
              in currentUser: replace the archive of Prefs.User with its Codable JSON (1 object)

            """)
        XCTAssertEqual(contents(prefs), original, "a dry run writes nothing")

        let migrated = try run(["migrate", prefs, "--rules", rules, "--codable", "json", "--sorted-keys", "--in-place", "--backup", ".v1"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertEqual(migrated.stdout, """
            Prefs.plist -> Prefs.plist:
              in currentUser: replace the archive of Prefs.User with its Codable JSON (1 object)

            """)
        XCTAssertEqual(contents("Prefs.plist.v1"), original)
        let result = try XCTUnwrap(contents(prefs))
        XCTAssertEqual(result.prefix(8), Data("bplist00".utf8), "the outer file keeps its format")
        let (outer, user) = try readPreferences(prefs)
        XCTAssertEqual(outer["launchCount"] as? Int, 12)
        XCTAssertEqual(outer["theme"] as? String, "dark")
        XCTAssertEqual(try JSONDecoder().decode(MigratedUser.self, from: user), MigratedUser(name: "Ada", age: 36, email: nil))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(user, try encoder.encode(MigratedUser(name: "Ada", age: 36, email: nil)), "the bytes JSONEncoder writes")

        let dump = try run(["dump", prefs])
        XCTAssertEqual(dump.stdout, """
            {
              "currentUser" => <data 23 bytes 0x7b22616765223a33362c226e616d65223a22416461227d> holding JSON {
                "age" => 36
                "name" => "Ada"
              }
              "launchCount" => 12
              "theme" => "dark"
            }

            """)
        XCTAssertEqual(try run(["get", prefs, "currentUser.name"]).stdout, "Ada\n")
        XCTAssertEqual(try run(["get", prefs, "currentUser"]).stdout, """
            <data 23 bytes 0x7b22616765223a33362c226e616d65223a22416461227d> holding JSON {
              "age" => 36
              "name" => "Ada"
            }

            """)
        XCTAssertEqual(try run(["get", prefs, "currentUser", "--raw"]).output, user)
    }

    func testScenarioThreeBecomesPropertyListEncoderData() throws {
        let (prefs, rules) = try preferencesAndRules()
        let user = MigratedUser(name: "Ada", age: 36, email: nil)
        let binary = try run(["migrate", prefs, "--rules", rules, "--codable", "binary", "-o", "binary.plist"])
        XCTAssertEqual(binary.status, 0, binary.stderr)
        let binaryUser = try readPreferences("binary.plist").user
        XCTAssertEqual(binaryUser.prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(try PropertyListDecoder().decode(MigratedUser.self, from: binaryUser), user)

        let xml = try run(["migrate", prefs, "--rules", rules, "--codable", "xml", "--to", "xml", "-o", "xml.plist"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(contents("xml.plist")?.prefix(5), Data("<?xml".utf8), "--to changes the outer format")
        let xmlUser = try readPreferences("xml.plist").user
        XCTAssertEqual(try PropertyListDecoder().decode(MigratedUser.self, from: xmlUser), user)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        XCTAssertEqual(xmlUser, try encoder.encode(user), "the bytes PropertyListEncoder writes")
        XCTAssertTrue(try run(["dump", "xml.plist"]).stdout.contains("holding an XML property list {\n    \"age\" => 36\n"))
    }

    /// Every field kind, compared byte for byte with JSONEncoder and
    /// PropertyListEncoder, and decoded by their decoders.
    func testCodableDataMatchesFoundationsEncoders() throws {
        let profile = MigratedProfile(name: "Ada/Lovelace \t\u{1}\"é\"", score: 120, ratio: 0.25, joined: Date(timeIntervalSinceReferenceDate: 720_000_000),
                                      avatar: Data([0, 1, 2, 250]), tags: ["a/b", "c"], email: nil)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: SocialProfileV1(name: profile.name, score: profile.score, ratio: profile.ratio, joined: profile.joined,
                                                                                 avatar: profile.avatar, tags: profile.tags), requiringSecureCoding: false)
        let outer = try PropertyListSerialization.data(fromPropertyList: ["profile": archive, "other": [1, 2]], format: .xml, options: 0)
        try outer.write(to: work.appendingPathComponent("prefs.plist"))
        let rules = make("rules.json", #"{"classes": {"\#(NSStringFromClass(SocialProfileV1.self))": {"renameTo": "Social.MigratedProfile"}}}"#)

        let json = try run(["migrate", "prefs.plist", "--rules", rules, "--codable", "json", "--sorted-keys", "-o", "json.plist"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let jsonOuter = try XCTUnwrap(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("json.plist")), format: nil) as? [String: Any])
        let jsonData = try XCTUnwrap(jsonOuter["profile"] as? Data)
        XCTAssertEqual(jsonOuter["other"] as? [Int], [1, 2])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: jsonData, as: UTF8.self), String(decoding: try encoder.encode(profile), as: UTF8.self))
        XCTAssertEqual(try JSONDecoder().decode(MigratedProfile.self, from: jsonData), profile)

        let iso = try run(["migrate", "prefs.plist", "--rules", rules, "--codable", "json", "--sorted-keys", "--dates", "iso8601", "-o", "iso.plist"])
        XCTAssertEqual(iso.status, 0, iso.stderr)
        let isoOuter = try XCTUnwrap(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("iso.plist")), format: nil) as? [String: Any])
        encoder.dateEncodingStrategy = .iso8601
        XCTAssertEqual(String(decoding: try XCTUnwrap(isoOuter["profile"] as? Data), as: UTF8.self), String(decoding: try encoder.encode(profile), as: UTF8.self))

        let unsorted = try run(["migrate", "prefs.plist", "--rules", rules, "--codable", "json", "-o", "unsorted.plist"])
        XCTAssertEqual(unsorted.status, 0, unsorted.stderr)
        let unsortedOuter = try XCTUnwrap(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("unsorted.plist")), format: nil) as? [String: Any])
        XCTAssertEqual(try JSONDecoder().decode(MigratedProfile.self, from: try XCTUnwrap(unsortedOuter["profile"] as? Data)), profile)

        let xml = try run(["migrate", "prefs.plist", "--rules", rules, "--codable", "xml", "-o", "xml.plist"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        let xmlOuter = try XCTUnwrap(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("xml.plist")), format: nil) as? [String: Any])
        let xmlData = try XCTUnwrap(xmlOuter["profile"] as? Data)
        let plistEncoder = PropertyListEncoder()
        plistEncoder.outputFormat = .xml
        XCTAssertEqual(String(decoding: xmlData, as: UTF8.self), String(decoding: try plistEncoder.encode(profile), as: UTF8.self))
        XCTAssertEqual(try PropertyListDecoder().decode(MigratedProfile.self, from: xmlData), profile)
    }

    /// What cannot become Codable data is an error naming it; nothing is written.
    func testCodableMigrationRefusesWhatCodableCannotHold() throws {
        let (prefs, _) = try preferencesAndRules()
        let unmapped = try run(["migrate", prefs, "--rules", make("empty.json", "{}"), "--codable", "json", "-o", "out.plist"])
        XCTAssertEqual(unmapped.status, 1)
        XCTAssertEqual(unmapped.stderr, #"Prefs.plist: $objects[1] (currentUser.root): error: the rules do not map class Prefs.User, so its Codable type is unknown; name it under "classes" ("renameTo" gives the struct)"# + "\n")
        XCTAssertNil(contents("out.plist"))

        let cycle = try XCTUnwrap(FileManager.default.contents(atPath: corpus("archives/cycle.plist")))
        try PropertyListSerialization.data(fromPropertyList: ["tree": cycle], format: .binary, options: 0).write(to: work.appendingPathComponent("tree.plist"))
        let before = contents("tree.plist")
        let cyclic = try run(["migrate", "tree.plist", "--rules", make("tree.json", #"{"classes": {"Tree.Node": {"renameTo": "Node"}}}"#), "--codable", "json", "--in-place"])
        XCTAssertEqual(cyclic.status, 1)
        XCTAssertEqual(cyclic.stderr, "tree.plist: $objects[1] (tree.root.children.0.parent): error: root.children.0.parent refers back to root, a cycle JSON cannot hold (--cycles omit leaves such references out)\n")
        XCTAssertEqual(contents("tree.plist"), before, "the input is untouched")
        let omitted = try run(["migrate", "tree.plist", "--rules", "tree.json", "--codable", "json", "--sorted-keys", "--cycles", "omit", "-o", "omitted.plist"])
        XCTAssertEqual(omitted.status, 0, omitted.stderr)
        let tree = try XCTUnwrap(try PropertyListSerialization.propertyList(from: try XCTUnwrap(contents("omitted.plist")), format: nil) as? [String: Any])
        XCTAssertEqual((tree["tree"] as? Data).map { String(decoding: $0, as: UTF8.self) }, #"{"children":[{"children":[],"label":"child"}],"label":"parent"}"#)

        let archive = try run(["migrate", corpus("archives/cycle.plist"), "--rules", "tree.json", "--codable", "json", "-o", "out.plist"])
        XCTAssertEqual(archive.status, 1)
        XCTAssertTrue(archive.stderr.hasSuffix("error: the input is a keyed archive itself; Codable encoding replaces archives nested in data values (convert --to codable-json writes this archive's JSON)\n"), archive.stderr)
        XCTAssertNil(contents("out.plist"))

        XCTAssertEqual(try run(["migrate", prefs, "--rules", "user-rules.json", "--codable", "xml", "--sorted-keys", "-o", "x.plist"]).status, 64)
        XCTAssertEqual(try run(["migrate", prefs, "--rules", "user-rules.json", "--codable", "xml", "--dates", "iso8601", "-o", "x.plist"]).status, 64)
        XCTAssertEqual(try run(["migrate", prefs, "--rules", "user-rules.json", "--cycles", "omit", "-o", "x.plist"]).status, 64)
        XCTAssertEqual(try run(["migrate", prefs, "--rules", "user-rules.json", "--codable", "yaml", "-o", "x.plist"]).status, 64)
    }
}
