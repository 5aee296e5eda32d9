import Foundation
import XCTest

/// `archivist codegen --upgrade --codable` for scenario 3 as `migrate
/// --codable json` does it: the `Prefs.User` archived under `currentUser` of
/// the preferences becomes the JSON of its struct. The code is generated from
/// the bundled preferences file and compiled into an app that loads
/// preferences into a real `UserDefaults` suite and upgrades them there; the
/// JSON is compared with what `migrate --codable json` writes into the file.
final class UpgradeCodableDefaultsTests: XCTestCase {
    private static let prepared = PreparedBench<(bench: UpgradeBench, app: String)>()

    /// The app: `prefs:PLIST:OUT` loads PLIST into a new suite, upgrades
    /// `currentUser` twice, writes the stored value to OUT and prints the
    /// results and the user `JSONDecoder` reads.
    static let appSource = """
        import Foundation

        for command in CommandLine.arguments.dropFirst() {
            let parts = command.split(separator: ":").map(String.init)
            let suite = "org.example.archivist-codable-\\(UUID().uuidString)"
            guard let defaults = UserDefaults(suiteName: suite) else {
                print("NO SUITE")
                continue
            }
            defer { defaults.removePersistentDomain(forName: suite) }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
                guard let preferences = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                    print("NOT PREFERENCES \\(parts[1])")
                    continue
                }
                for (key, value) in preferences { defaults.set(value, forKey: key) }
                let first = try upgradeDefaults(defaults, forKey: "currentUser")
                let second = try upgradeDefaults(defaults, forKey: "currentUser")
                let stored = defaults.data(forKey: "currentUser") ?? Data()
                try stored.write(to: URL(fileURLWithPath: parts[2]))
                let user = try JSONDecoder().decode(User.self, from: stored)
                print("PREFS \\(parts[1]) \\(first) \\(second) \\(user.name)|\\(user.age)|\\(user.email ?? "none") \\(defaults.string(forKey: "theme") ?? "nil")")
            } catch {
                print("THREW \\(parts[1]) \\(error)")
            }
        }

        """

    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            try bench.copyCorpus("archives/preferences-with-user.plist", to: "Prefs.plist")
            try bench.write("rules.json", Data(#"{"classes": {"Prefs.User": {"renameTo": "Accounts.User"}}}"#.utf8))
            try bench.archivist(["codegen", "Prefs.plist", "--rules", "rules.json", "--upgrade", "--codable", "-o", "Upgrade.swift"])
            let app = try bench.program("app", source: appSource, after: ["Upgrade.swift"], module: "PrefsApp")
            return (bench, app)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    /// The preferences' user is upgraded once to its JSON, the JSON `migrate
    /// --codable json` writes into the file (equal as JSON values); the
    /// migrated preferences are version 2 already.
    func testDefaultsUpgradeToTheMigratedJSON() throws {
        let p = try Self.prepared.get()
        try p.bench.archivist(["migrate", "Prefs.plist", "--rules", "rules.json", "--codable", "json", "-o", "Migrated.plist"])
        let original = p.bench.path("Prefs.plist"), migrated = p.bench.path("Migrated.plist")
        let result = try p.bench.run(p.app, ["prefs:\(original):\(original).json", "prefs:\(migrated):\(migrated).json"])
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertEqual(result.lines("PREFS"), ["PREFS \(original) true false Ada|36|none dark", "PREFS \(migrated) false false Ada|36|none dark"], result.text)

        let migratedFile = try XCTUnwrap(PropertyListSerialization.propertyList(from: try Data(contentsOf: URL(fileURLWithPath: migrated)), format: nil) as? [String: Any])
        let reference = try XCTUnwrap(migratedFile["currentUser"] as? Data)
        let upgraded = try Data(contentsOf: URL(fileURLWithPath: original + ".json"))
        XCTAssertEqual(try JSONSerialization.jsonObject(with: upgraded) as? NSDictionary, try JSONSerialization.jsonObject(with: reference) as? NSDictionary)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: migrated + ".json")), reference, "version 2 is left as it was")
    }
}
