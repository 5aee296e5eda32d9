import Foundation
import XCTest

/// `archivist codegen --upgrade` for scenario 3: a `Prefs.User` archived
/// into the app's preferences under `currentUser`, its `age` an inline
/// integer. The rules only box it, so version 1 and version 2 share the
/// archived class name: the app (module Prefs, as on Linux the archived
/// name is the module and class) maps that name to the reader of version 1
/// on a fresh unarchiver only after version 2 failed on one. The code is
/// generated from the preferences file, and the app loads preferences into a
/// real `UserDefaults` suite and upgrades them there.
final class UpgradeScenarioThreeTests: XCTestCase {
    nonisolated(unsafe) private static var prepared: Result<(bench: UpgradeBench, source: String, writer: String, app: String), any Error>?

    static let users: [(name: String, age: String, email: String?)] = [("Ada", "36", "ada@example.com"), ("Grace", "-1", nil), ("Ünïcode 👤", "9223372036854775807", "")]

    /// Version 1's class; the writer stores each user in a preferences file
    /// as the app's `UserDefaults` did (a binary plist with other keys).
    static let writerSource = """
        import Foundation

        final class User: NSObject, NSCoding {
            let name: String, age: Int, email: String?

            init(name: String, age: Int, email: String?) {
                self.name = name
                self.age = age
                self.email = email
            }

            func encode(with coder: NSCoder) {
                coder.encode(name, forKey: "name")
                coder.encode(age, forKey: "age")
                coder.encode(email, forKey: "email")
            }

            init?(coder: NSCoder) { nil }
        }

        // Arguments: PATH NAME AGE EMAIL ("-" for none), repeated.
        var args = Array(CommandLine.arguments.dropFirst())
        while args.count >= 4 {
            let path = args.removeFirst(), name = args.removeFirst(), age = args.removeFirst(), email = args.removeFirst()
            guard let years = Int(age) else {
                print("not an age: \\(age)")
                exit(1)
            }
            let user = try NSKeyedArchiver.archivedData(withRootObject: User(name: name, age: years, email: email == "-" ? nil : email), requiringSecureCoding: false)
            let preferences: [String: Any] = ["currentUser": user, "launchCount": 12, "theme": "dark"]
            try PropertyListSerialization.data(fromPropertyList: preferences, format: .binary, options: 0).write(to: URL(fileURLWithPath: path))
        }

        """

    /// The app: `prefs:PLIST` loads a preferences file into a new
    /// `UserDefaults` suite, upgrades `currentUser` there twice and prints the
    /// results, the user read back securely and the other keys.
    static let appSource = """
        import Foundation

        for command in CommandLine.arguments.dropFirst() {
            let path = String(command.dropFirst("prefs:".count))
            let suite = "org.example.archivist-prefs-\\(UUID().uuidString)"
            guard let defaults = UserDefaults(suiteName: suite) else {
                print("NO SUITE")
                continue
            }
            defer { defaults.removePersistentDomain(forName: suite) }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard let preferences = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                    print("NOT PREFERENCES \\(path)")
                    continue
                }
                for (key, value) in preferences { defaults.set(value, forKey: key) }
                let first = try upgradeDefaults(defaults, forKey: "currentUser")
                let second = try upgradeDefaults(defaults, forKey: "currentUser")
                let user = try defaults.data(forKey: "currentUser").flatMap { try NSKeyedUnarchiver.unarchivedObject(ofClasses: [User.self], from: $0) as? User }
                let described = user.map { "\\($0.name)|\\($0.age)|\\($0.email ?? "none")" } ?? "nil"
                print("PREFS \\(path) \\(first) \\(second) \\(described) \\(defaults.integer(forKey: "launchCount")) \\(defaults.string(forKey: "theme") ?? "nil")")
            } catch {
                print("THREW \\(path) \\(error)")
            }
        }

        """

    override class func setUp() {
        super.setUp()
        prepared = Result {
            let bench = try UpgradeBench()
            try bench.copyCorpus("archives/preferences-with-user.plist", to: "Library/Preferences/org.example.prefs.plist")
            try bench.write("rules.json", Data(#"{"boxPrimitives": true, "allowedClasses": ["Prefs.User"]}"#.utf8))
            let source = try bench.generate(["Library", "--rules", "rules.json", "--upgrade"])
            let writer = try bench.program("writer", source: writerSource, module: "Prefs")
            let app = try bench.program("app", source: appSource, after: ["Upgrade.swift"], module: "Prefs")
            return (bench, source, writer, app)
        }
    }

    override class func tearDown() {
        if case .success(let p)? = prepared { p.bench.remove() }
        prepared = nil
        super.tearDown()
    }

    private func setup() throws -> (bench: UpgradeBench, source: String, writer: String, app: String) {
        try XCTUnwrap(Self.prepared).get()
    }

    /// The reader of version 1 reads the inline age with `decodeInteger`;
    /// both versions are mapped from the one archived name.
    func testGeneratedSourceReadsTheInlineAge() throws {
        let source = try setup().source
        XCTAssertTrue(source.contains("final class UserVersion1: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains(#"        self.age = coder.decodeInteger(forKey: "age")"#), source)
        XCTAssertTrue(source.contains(#"coder.decodeObject(of: NSNumber.self, forKey: "age")?.intValue"#), source)
        XCTAssertTrue(source.contains("        (\"Prefs.User\", User.self),\n"), source)
        XCTAssertTrue(source.contains("        (\"Prefs.User\", UserVersion1.self),\n"), source)
    }

    /// Preferences written by version 1 are upgraded once in `UserDefaults`
    /// (the second call changes nothing) and read back securely with equal
    /// values; the other keys stay. Preferences `archivist migrate` wrote
    /// are version 2 already.
    func testPreferencesAreUpgradedOnceInUserDefaults() throws {
        let p = try setup()
        var files: [String] = []
        var args: [String] = []
        for (i, user) in Self.users.enumerated() {
            files.append(p.bench.path("prefs\(i).plist"))
            args += [files[i], user.name, user.age, user.email ?? "-"]
        }
        let written = try p.bench.run(p.writer, args)
        XCTAssertEqual(written.status, 0, written.text)
        let corpus = p.bench.path("Library/Preferences/org.example.prefs.plist")
        var migrated: [String] = []
        for file in files + [corpus] {
            try p.bench.archivist(["migrate", file, "--rules", "rules.json", "-o", file + ".migrated"])
            migrated.append(file + ".migrated")
        }
        let result = try p.bench.run(p.app, (files + [corpus] + migrated).map { "prefs:" + $0 })
        XCTAssertEqual(result.status, 0, result.text)
        let values = Self.users.map { "\($0.name)|\($0.age)|\($0.email ?? "none")" } + ["Ada|36|none"]
        XCTAssertEqual(result.lines("PREFS"), zip(files + [corpus], values).map { "PREFS \($0) true false \($1) 12 dark" }
                           + zip(migrated, values).map { "PREFS \($0) false false \($1) 12 dark" },
                       result.text)
    }
}
