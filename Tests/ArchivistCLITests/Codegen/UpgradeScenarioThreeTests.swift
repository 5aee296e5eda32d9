import Foundation
import XCTest

/// `archivist codegen --upgrade` for scenario 3: a `Prefs.User` archived
/// into the app's preferences under `currentUser`, its `age` an inline
/// integer, its `email` nil for some users. The rules box the age and mark
/// the name required, so version 1 and version 2 share the archived class
/// name: the app (module Prefs, as on Linux the archived name is the module
/// and class) maps that name to the reader of version 1 on a fresh
/// unarchiver only after version 2 failed on one. The code is generated from
/// preferences whose user has no email and from preferences whose user has
/// one, and the app loads preferences into a real `UserDefaults` suite and
/// upgrades them there, users with and without an email alike.
final class UpgradeScenarioThreeTests: XCTestCase {
    typealias Prepared = (bench: UpgradeBench, sources: [String], writer: String, apps: [String], wrongModule: String)
    private static let prepared = PreparedBench<Prepared>()

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

    /// The rules: box the age, and mark the name required (version 1's class
    /// always has one), so that version 2 declares `name: String`; `email`,
    /// like every other field holding an object, is optional in version 2
    /// whatever the sample holds.
    static let rules = #"{"boxPrimitives": true, "allowedClasses": ["Prefs.User"], "classes": {"Prefs.User": {"keys": {"name": {"required": true}}}}}"#

    /// The code is generated from either sample: the corpus's preferences,
    /// whose user has no email, and preferences whose user has one. Each is
    /// compiled into an app of module Prefs; the second also into module
    /// `demo`, the wrong one.
    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            try bench.copyCorpus("archives/preferences-with-user.plist", to: "Library/Preferences/org.example.prefs.plist")
            try bench.write("rules.json", Data(rules.utf8))
            let writer = try bench.program("writer", source: writerSource, module: "Prefs")
            try FileManager.default.createDirectory(atPath: bench.path("WithEmail/Library/Preferences"), withIntermediateDirectories: true)
            let sample = try bench.run(writer, [bench.path("WithEmail/Library/Preferences/org.example.prefs.plist"), "Ada", "36", "ada@example.com"])
            guard sample.status == 0 else { throw UpgradeBench.Failure(description: "writer: \(sample.text)") }
            let withoutEmail = try bench.generate(["Library", "--rules", "rules.json", "--upgrade"], into: "UpgradeFromNil.swift")
            let withEmail = try bench.generate(["WithEmail", "--rules", "rules.json", "--upgrade"], into: "UpgradeFromEmail.swift")
            let apps = [try bench.program("app", source: appSource, after: ["UpgradeFromNil.swift"], module: "Prefs"),
                        try bench.program("app", source: appSource, after: ["UpgradeFromEmail.swift"], module: "Prefs")]
            let wrongModule = try bench.program("app", source: appSource, after: ["UpgradeFromEmail.swift"], module: "demo")
            return (bench, [withoutEmail, withEmail], writer, apps, wrongModule)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    private func setup() throws -> Prepared {
        try Self.prepared.get()
    }

    /// The reader of version 1 reads the inline age with `decodeInteger` and
    /// accepts nil in every object field; version 2 requires only the name.
    /// Both versions are mapped from the one archived name. The same from
    /// either sample.
    func testGeneratedSourceReadsTheInlineAge() throws {
        for source in try setup().sources {
            XCTAssertTrue(source.contains("final class User: NSObject, NSSecureCoding {"), source)
            XCTAssertTrue(source.contains("    var name: String\n"), source)
            XCTAssertTrue(source.contains("    var email: String?\n") || source.contains("    var email: String? // only nulls seen: the type is a guess\n"), source)
            XCTAssertTrue(source.contains("    var age: Int\n"), source)
            XCTAssertTrue(source.contains("final class UserVersion1: NSObject, NSSecureCoding {"), source)
            XCTAssertTrue(source.contains("    var name: String?\n"), source)
            XCTAssertTrue(source.contains(#"        self.age = coder.decodeInteger(forKey: "age")"#), source)
            XCTAssertTrue(source.contains(#"coder.decodeObject(of: NSNumber.self, forKey: "age")?.intValue"#), source)
            XCTAssertTrue(source.contains(#"try requiredField(name, "User.name")"#), source)
            XCTAssertTrue(source.contains("        (\"Prefs.User\", User.self),\n"), source)
            XCTAssertTrue(source.contains("        (\"Prefs.User\", UserVersion1.self),\n"), source)
            XCTAssertTrue(source.contains("build this file into module \" + \"Prefs\""), source)
        }
        // Version 2 does not depend on the sample, but for the order of the fields
        // (the archive's, which the initializer's parameters follow) and a note on
        // the field only nil was seen in.
        let declarations = try setup().sources.map { source in
            Set((source.components(separatedBy: "// MARK: - Version 1").first ?? "").components(separatedBy: "\n")
                .filter { !$0.contains("init(") }.map { $0.components(separatedBy: " //").first ?? "" })
        }
        XCTAssertEqual(declarations[0], declarations[1])
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
        let values = Self.users.map { "\($0.name)|\($0.age)|\($0.email ?? "none")" } + ["Ada|36|none"]
        for app in p.apps {
            // The app loads each file into a new UserDefaults suite: the files stay version 1.
            let result = try p.bench.run(app, (files + [corpus] + migrated).map { "prefs:" + $0 })
            XCTAssertEqual(result.status, 0, result.text)
            XCTAssertEqual(result.lines("PREFS"), zip(files + [corpus], values).map { "PREFS \($0) true false \($1) 12 dark" }
                               + zip(migrated, values).map { "PREFS \($0) false false \($1) 12 dark" },
                           result.text)
            XCTAssertFalse(result.text.contains("Invalid class"), result.text)
        }
    }

    /// A version-1 user without the name version 2 requires is not upgraded:
    /// the conversion throws naming the field, and the value stays.
    func testAUserWithoutTheRequiredNameThrows() throws {
        let p = try setup()
        let file = p.bench.path("nameless.plist")
        let written = try p.bench.run(p.writer, [file, "Nobody", "3", "-"])
        XCTAssertEqual(written.status, 0, written.text)
        try p.bench.archivist(["remove", file, "currentUser.root.name"])
        for app in p.apps {
            let result = try p.bench.run(app, ["prefs:" + file])
            XCTAssertEqual(result.lines("THREW"), ["THREW \(file) User.name is nil in this version-1 archive, and version 2 requires it"], result.text)
        }
    }

    /// Built into module `demo` instead of Prefs, the app would archive
    /// `demo.User`, which version 2 refuses: the upgrade throws naming the
    /// module it needs, and stores nothing.
    func testTheWrongModuleThrowsNamingTheRightOne() throws {
        let p = try setup()
        let file = p.bench.path("wrong-module.plist")
        let written = try p.bench.run(p.writer, [file, "Ada", "36", "ada@example.com"])
        XCTAssertEqual(written.status, 0, written.text)
        let result = try p.bench.run(p.wrongModule, ["prefs:" + file])
        XCTAssertEqual(result.lines("THREW"),
                       ["THREW \(file) this build archives demo.User, which version 2 does not read: build this file into module Prefs"], result.text)
    }
}
