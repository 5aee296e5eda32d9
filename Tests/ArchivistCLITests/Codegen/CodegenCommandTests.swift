import ArchivistTestSupport
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// A profile as two versions of an app archived it: `age` an integer in one,
/// a string in the other; `email` only when there is one.
final class ProfileV1: NSObject, NSCoding {
    let name: String, age: Any, email: String?
    init(name: String, age: Any, email: String?) { self.name = name; self.age = age; self.email = email }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
        if let email { coder.encode(email, forKey: "email") }
    }
    init?(coder: NSCoder) { nil }
}

/// Keys that are no Swift names, or names NSObject has, and Foundation
/// values of every kind the generated classes bridge.
final class TrickyV1: NSObject, NSCoding {
    let note: String?
    init(note: String?) { self.note = note }
    func encode(with coder: NSCoder) {
        coder.encode("a tricky one", forKey: "description")
        coder.encode(NSNumber(value: 7), forKey: "class")
        coder.encode("Ada", forKey: "first name")
        coder.encode("Grace", forKey: "firstName")
        coder.encode(["x", "y"] as NSArray, forKey: "tags")
        coder.encode(Set(["s"]) as NSSet, forKey: "labels")
        coder.encode(["a": NSNumber(value: 1.5)] as NSDictionary, forKey: "scores")
        coder.encode(Date(timeIntervalSinceReferenceDate: 86_400) as NSDate, forKey: "when")
        coder.encode(NSUUID(uuidString: "0F7C0B8A-5E3D-4C1B-9A2F-6D8E4B3C2A10"), forKey: "id")
        coder.encode(NSURL(string: "https://example.org/a"), forKey: "link")
        coder.encode(Data([1, 2, 3]) as NSData, forKey: "bytes")
        coder.encode(true, forKey: "flag")
        coder.encode(note.map { $0 as NSString }, forKey: "note")
    }
    init?(coder: NSCoder) { nil }
}

/// A class hierarchy: a drawing of shapes, some of them circles.
class ShapeV1: NSObject, NSCoding {
    let name: String
    init(name: String) { self.name = name }
    func encode(with coder: NSCoder) { coder.encode(name, forKey: "name") }
    required init?(coder: NSCoder) { nil }
}

final class CircleV1: ShapeV1 {
    let radius: Double
    init(name: String, radius: Double) { self.radius = radius; super.init(name: name) }
    override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(radius, forKey: "radius")
    }
    required init?(coder: NSCoder) { nil }
}

final class DrawingV1: NSObject, NSCoding {
    let shapes: [ShapeV1]
    init(shapes: [ShapeV1]) { self.shapes = shapes }
    func encode(with coder: NSCoder) { coder.encode(shapes as NSArray, forKey: "shapes") }
    init?(coder: NSCoder) { nil }
}

/// An object archived under a `$top` key other than `root`.
final class TitleBox: NSObject, NSCoding {
    let title: String
    init(title: String) { self.title = title }
    func encode(with coder: NSCoder) { coder.encode(title, forKey: "title") }
    init?(coder: NSCoder) { nil }
}

/// `archivist codegen` and multi-input `schema`: the Swift they print is
/// compiled with `swiftc` together with a small driver, and the driver decodes
/// the migrated scenario archives with Foundation's real secure
/// `NSKeyedUnarchiver` (or the codable-json output with `JSONDecoder`). Each
/// driver runs as its own process, so a class Linux's Foundation refuses can
/// trap it without taking the tests down.
extension CLITests {
    struct Program {
        var status: Int32
        var output: String
    }

    /// Runs a tool found on PATH (swiftc) or a built program, in the scratch
    /// folder, with standard output and standard error on one pipe.
    func spawn(_ executable: String, _ args: [String]) throws -> Program {
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        let result = try shell([executable] + args, in: work, environment: env)
        return Program(status: result.status, output: result.stdout)
    }

    /// Compiles Swift files of the scratch folder into a program of module
    /// `module` (the archived module, so that the classes' names are the
    /// archived ones) and returns its path.
    func compile(_ files: [String], module: String) throws -> String {
        let program = work.appendingPathComponent("bin-" + ([module] + files).joined(separator: "-").replacingOccurrences(of: "/", with: "_")).path
        let result = try spawn("swiftc", ["-module-name", module, "-o", program] + files)
        XCTAssertEqual(result.status, 0, result.output)
        return program
    }

    /// The lines a driver printed that start with `prefix`.
    func lines(_ program: Program, _ prefix: String) -> [String] {
        program.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// A driver: registers the archived names, decodes each file named on its
    /// command line with `unarchivedObject(ofClasses:from:)` and the classes
    /// `classes` evaluates to, prints `describe` of the result, and (when
    /// `roundTrip`) archives it again securely and decodes that too.
    func driver(_ name: String, root: String, classes: String, describe: String, roundTrip: Bool, extra: String = "") -> String {
        make(name, """
            import Foundation
            \(extra)
            registerArchivedClassNames()
            func describe(_ v: \(root)) -> String { \(describe) }
            for path in CommandLine.arguments.dropFirst() {
                do {
                    let data = try Data(contentsOf: URL(fileURLWithPath: path))
                    guard let value = try NSKeyedUnarchiver.unarchivedObject(ofClasses: \(classes), from: data) as? \(root) else {
                        print("NOT \\(path)")
                        continue
                    }
                    print("DECODED \\(describe(value))")
                    if \(roundTrip) {
                        let again = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
                        let back = try NSKeyedUnarchiver.unarchivedObject(ofClasses: \(classes), from: again) as? \(root)
                        print("AGAIN \\(back.map(describe) ?? "nil")")
                    }
                } catch {
                    print("THREW \\(error)")
                }
            }
            """)
    }

    /// Scenario 1: the classes and allowlist generated from the version-1
    /// document (with the rules) decode the migrated document securely, and
    /// archive it again; the version-1 document does not decode.
    func testCodegenSecureCodingScenarioOne() throws {
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        try copyCorpus("archives/scary-creature-v1.plist", to: "1.scarycreature/Data.plist")
        make("1.scarycreature/thumbImage.png", "\u{89}PNG\r\n\u{1A}\n\0\0\0\rIHDR")
        let migrated = try run(["migrate", "1.scarycreature/Data.plist", "--rules", "rules.json", "-o", "Migrated.plist"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)

        let generated = try run(["codegen", "1.scarycreature", "--rules", "rules.json", "--secure-coding", "--allowed-classes", "-o", "Model.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Model.swift")), as: UTF8.self)
        XCTAssertTrue(source.contains("final class ScaryCreatureData: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains(#"coder.decodeObject(of: NSNumber.self, forKey: "Rating")?.floatValue"#), source)
        XCTAssertTrue(source.contains(#"coder.decodeObject(of: NSString.self, forKey: "Title") as String?"#), source)
        XCTAssertTrue(source.contains("var archivedClasses: [AnyClass] { [ScaryCreatureData.self] }"), source)

        let main = driver("main.swift", root: "ScaryCreatureData", classes: "archivedClasses", describe: #""\(v.title) \(v.rating)""#, roundTrip: true)
        let program = try compile(["Model.swift", main], module: "ScaryCreatures2")
        let decoded = try spawn(program, [work.appendingPathComponent("Migrated.plist").path])
        XCTAssertEqual(lines(decoded, "DECODED"), ["DECODED Scary Bug 3.5"], decoded.output)
        XCTAssertEqual(lines(decoded, "AGAIN"), ["AGAIN Scary Bug 3.5"], decoded.output)
        let original = try spawn(program, [work.appendingPathComponent("1.scarycreature/Data.plist").path])
        XCTAssertEqual(lines(original, "DECODED"), [], "version 1 does not decode: \(original.output)")
    }

    /// Scenario 2: a class nested in a struct (`_TtCV8MusicBox3CPU8CPUCoder`)
    /// is declared in an extension of the struct; `classes --swift` of the
    /// migrated archive and the generated allowlist both compile and decode it.
    func testCodegenSecureCodingScenarioTwoAndClassesList() throws {
        try copyCorpus("archives/computer.plist", to: "computer.plist")
        make("allow.json", #"{"allowedClasses": ["MusicBox.Computer", "MusicBox.CPU.CPUCoder", "MusicBox.CPUCore"]}"#)
        let migrated = try run(["migrate", "computer.plist", "--rules", "allow.json", "-o", "Migrated.plist"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let generated = try run(["codegen", "computer.plist", "--secure-coding", "--allowed-classes"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        _ = make("Model.swift", generated.stdout)
        XCTAssertTrue(generated.stdout.contains("extension CPU {\n    /// Archived as _TtCV8MusicBox3CPU8CPUCoder.\n    final class CPUCoder: NSObject, NSSecureCoding {"), generated.stdout)
        XCTAssertTrue(generated.stdout.contains(#"coder.decodeObject(of: [NSArray.self, CPUCore.self], forKey: "cores") as? [CPUCore]"#), generated.stdout)
        XCTAssertTrue(generated.stdout.contains(#"NSKeyedUnarchiver.setClass(CPU.CPUCoder.self, forClassName: "_TtCV8MusicBox3CPU8CPUCoder")"#), generated.stdout)

        let list = try run(["classes", "--swift", "Migrated.plist"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout, "try NSKeyedUnarchiver.unarchivedObject(ofClasses: [Computer.self, CPU.CPUCoder.self, NSArray.self, CPUCore.self], from: data)\n")
        // Linux's Foundation cannot archive a class nested in a type, so no round trip here.
        // Without rules, every field holding an object is optional.
        let describe = #""\(v.cpu_name ?? "nil") \(v.cpu_coder?.clock ?? -1) \(v.cpu_coder?.constant ?? -1) \((v.cpu_coder?.cores ?? []).map { "\($0.coreID ?? "nil")=\($0.constant)" })""#
        let codegenDriver = driver("main.swift", root: "Computer", classes: "archivedClasses", describe: describe, roundTrip: false, extra: "struct CPU {}")
        let program = try compile(["Model.swift", codegenDriver], module: "MusicBox")
        let decoded = try spawn(program, [work.appendingPathComponent("Migrated.plist").path])
        XCTAssertEqual(lines(decoded, "DECODED"), ["DECODED Mac 3200 7 [\"A1B2=1494\", \"C3D4=1494\"]"], decoded.output)

        // The list classes --swift printed, used as it is.
        let printed = try XCTUnwrap(list.stdout.range(of: "ofClasses: ").map { list.stdout[$0.upperBound...] }?.components(separatedBy: ", from: data)").first)
        let listDriver = driver("list/main.swift", root: "Computer", classes: printed, describe: describe, roundTrip: false, extra: "struct CPU {}")
        let listProgram = try compile(["Model.swift", listDriver], module: "MusicBox")
        let viaList = try spawn(listProgram, [work.appendingPathComponent("Migrated.plist").path])
        XCTAssertEqual(lines(viaList, "DECODED"), lines(decoded, "DECODED"), viaList.output)
        let unmigrated = try spawn(program, [work.appendingPathComponent("computer.plist").path])
        XCTAssertEqual(lines(unmigrated, "DECODED"), [], "the inline constant of version 1 does not decode: \(unmigrated.output)")
    }

    /// Scenario 4: the blobs of the store's ZCONTACT column (as files), the
    /// rules that move Contact into ContactsCore: the generated class decodes
    /// every row `migrate --sqlite` rewrote, and the transformer parses and
    /// allows exactly that class.
    func testCodegenScenarioFourAndTransformer() throws {
        let store = try makeStore("Employees.sqlite")
        // The scenario's Contact declares its three fields String: the rules mark them required.
        let rules = make("contact-required-rules.json", """
            {"classes": {"\(NSStringFromClass(ContactV1.self))": {"renameTo": "ContactsCore.Contact", "keys": {"tel": {"required": true}, "fax": {"required": true}, "email": {"required": true}}}},
             "allowedClasses": ["ContactsCore.Contact"]}
            """)
        let column = BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT")
        func extract(into folder: String) throws -> [String] {
            let db = try SQLiteDatabase(path: work.appendingPathComponent(store).path, readOnly: true)
            var files: [String] = []
            try column.forEachBlob(in: db) { row, bytes in
                let file = "\(folder)/row\(row).plist"
                _ = make(file, "")
                try Data(bytes).write(to: work.appendingPathComponent(file))
                files.append(work.appendingPathComponent(file).path)
            }
            return files
        }
        _ = try extract(into: "v1")
        let generated = try run(["codegen", "v1", "--rules", rules, "--secure-coding", "--allowed-classes", "-o", "Contact.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Contact.swift")), as: UTF8.self)
        XCTAssertTrue(source.contains("/// Archived as ContactsCore.Contact.\nfinal class Contact: NSObject, NSSecureCoding {"), source)
        // Straight from the store's column: the same source.
        let fromStore = try run(["codegen", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules, "--secure-coding", "--allowed-classes"])
        XCTAssertEqual(fromStore.status, 0, fromStore.stderr)
        XCTAssertEqual(fromStore.stdout, source)

        let migrated = try run(["migrate", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", rules])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let rows = try extract(into: "v2")
        XCTAssertEqual(rows.count, Self.contacts.count)
        let main = driver("main.swift", root: "Contact", classes: "archivedClasses", describe: #""\(v.tel)|\(v.fax)|\(v.email)""#, roundTrip: true)
        let program = try compile(["Contact.swift", main], module: "ContactsCore")
        let decoded = try spawn(program, rows)
        XCTAssertEqual(lines(decoded, "DECODED"), Self.contacts.map { "DECODED \($0.tel)|\($0.fax)|\($0.email)" }, decoded.output)
        XCTAssertEqual(lines(decoded, "AGAIN"), Self.contacts.map { "AGAIN \($0.tel)|\($0.fax)|\($0.email)" }, decoded.output)

        let transformer = try run(["codegen", "v1", "--rules", rules, "--transformer", "ContactTransformer", "-o", "ContactTransformer.swift"])
        XCTAssertEqual(transformer.status, 0, transformer.stderr)
        let text = String(decoding: try XCTUnwrap(contents("ContactTransformer.swift")), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("#if canImport(CoreData)\nimport CoreData\n"), text)
        XCTAssertTrue(text.contains("final class ContactTransformer: NSSecureUnarchiveFromDataTransformer {"), text)
        XCTAssertTrue(text.contains("    override class var allowedTopLevelClasses: [AnyClass] {\n        [Contact.self]\n    }"), text)
        XCTAssertTrue(text.contains("ValueTransformer.setValueTransformer(ContactTransformer(), forName: name)"), text)
        let parsed = try spawn("swiftc", ["-parse", "ContactTransformer.swift"])
        XCTAssertEqual(parsed.status, 0, parsed.output)
        // Without Core Data (Linux) the file compiles to nothing beside the classes.
        let together = try spawn("swiftc", ["-typecheck", "-module-name", "ContactsCore", "Contact.swift", "ContactTransformer.swift"])
        XCTAssertEqual(together.status, 0, together.output)
    }

    /// `--codable`: the structs of `schema --swift` with CodingKeys where a rule
    /// renamed a key; they decode the codable-json output with `JSONDecoder`.
    func testCodegenCodableDecodesCodableJSON() throws {
        let rules = corpus("rules/music-box.json")
        let generated = try run(["codegen", corpus("archives/computer.plist"), "--rules", rules, "--codable", "-o", "Models.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Models.swift")), as: UTF8.self)
        XCTAssertTrue(source.contains("""
            struct Computer: Codable {
                var name: String
                var cpu: CPU

                enum CodingKeys: String, CodingKey {
                    case name // archived as "cpu_name"
                    case cpu // archived as "cpu_coder"
                }
            }
            """), source)
        let json = try run(["convert", corpus("archives/computer.plist"), "--to", "codable-json", "--rules", rules, "-o", "computer.json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        make("main.swift", """
            import Foundation
            let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
            let c = try JSONDecoder().decode(Computer.self, from: data)
            print("DECODED \\(c.name) \\(c.cpu.clock) \\(c.cpu.cores.map(\\.coreID))")
            """)
        let program = try compile(["Models.swift", "main.swift"], module: "Models")
        let decoded = try spawn(program, [work.appendingPathComponent("computer.json").path])
        XCTAssertEqual(lines(decoded, "DECODED"), [#"DECODED Mac 3200 ["A1B2", "C3D4"]"#], decoded.output)
    }

    func testCodegenRefusesBadInput() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        let typo = try run(["codegen", "Data.plist", "--rules", make("typo.json", #"{"classes": {"ScaryCreatures.ScaryCreatureDat": {"renameTo": "X.Y"}}}"#),
                            "--secure-coding", "-o", "Model.swift"])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stderr, #"typo.json: error: classes."ScaryCreatures.ScaryCreatureDat": class ScaryCreatures.ScaryCreatureDat occurs in none of the inputs (did you mean ScaryCreatures.ScaryCreatureData?)"# + "\n")
        let plain = try run(["codegen", "Data.plist", make("plain.plist", "<plist><dict><key>a</key><integer>1</integer></dict></plist>"), "--secure-coding", "-o", "Model.swift"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertEqual(plain.stderr, "plain.plist: error: not a keyed archive, and holds none in its data values\n")
        XCTAssertNil(contents("Model.swift"), "nothing is written when an input fails")
        XCTAssertEqual(try run(["codegen", "Data.plist"]).status, 64, "a kind is needed")
        XCTAssertEqual(try run(["codegen", "Data.plist", "--codable", "--secure-coding"]).status, 64)
        XCTAssertEqual(try run(["codegen", "Data.plist", "--transformer", "Contact-Transformer"]).status, 64)
        XCTAssertEqual(try run(["codegen", "Data.plist", "--secure-coding", "-o", "Data.plist"]).status, 64)

        // A class name that is no Swift type: codegen refuses it, classes --swift leaves it out and says so.
        let evil = "App.X {}\nfunc evil() {}"
        let classDict = PlistValue.dictionary(PlistDictionary([("$classname", .string(evil)), ("$classes", .array([.string(evil), .string("NSObject")]))]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)), ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([.string("$null"), .dictionary(PlistDictionary([("$class", .uid(2))])), classDict])),
        ]))
        try Data(try PropertyList.write(archive, as: .binary)).write(to: work.appendingPathComponent("evil.plist"))
        let refused = try run(["codegen", "evil.plist", "--secure-coding"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, #"evil.plist: $objects[1]: error: class "App.X {}\nfunc evil() {}" is not a Swift type name; give it one with renameTo in the rules file"# + "\n")
        let list = try run(["classes", "--swift", "evil.plist"])
        XCTAssertEqual(list.stdout, "try NSKeyedUnarchiver.unarchivedObject(ofClasses: [], from: data)\n")
        XCTAssertEqual(list.stderr, #"warning: class "App.X {}\nfunc evil() {}" is not a Swift type name; it is left out of the list"# + "\n")
    }

    /// `schema FILE...` and `schema DIR` merge: a key some archives lack is
    /// optional, a key seen with two types is reported with both places, and
    /// the Swift compiles.
    func testSchemaMergesManyInputs() throws {
        func save(_ name: String, _ profile: ProfileV1) throws {
            _ = make(name, "")
            try NSKeyedArchiver.archivedData(withRootObject: profile, requiringSecureCoding: false).write(to: work.appendingPathComponent(name))
        }
        try save("profiles/a.plist", ProfileV1(name: "Ada", age: NSNumber(value: 36), email: "ada@example.com"))
        try save("profiles/b.plist", ProfileV1(name: "Bob", age: NSString(string: "forty"), email: nil))
        make("profiles/plain.plist", "<plist><dict><key>a</key><integer>1</integer></dict></plist>")
        make("profiles/photo.png", "\u{89}PNG\r\n\u{1A}\n\0\0\0\rIHDR")
        let files = try run(["schema", "profiles/a.plist", "profiles/b.plist", "--swift"])
        XCTAssertEqual(files.status, 0, files.stderr)
        XCTAssertEqual(files.stderr, "warning: ProfileV1.age is Int at profiles/a.plist: root.age, String at profiles/b.plist: root.age\n")
        // Foundation writes an object's keys in hash order: compare the lines as a set.
        XCTAssertEqual(files.stdout.split(separator: "\n", omittingEmptySubsequences: false).sorted(), """
            import Foundation

            struct ProfileV1: Codable {
                var name: String
                var age: Int // Int at profiles/a.plist: root.age, String at profiles/b.plist: root.age: use an enum with a hand-written init(from:)
                var email: String?
            }

            """.split(separator: "\n", omittingEmptySubsequences: false).sorted())
        let folder = try run(["schema", "profiles", "--swift"])
        XCTAssertEqual(folder.stdout, files.stdout, "a folder gives its archives; the image and the plain plist are skipped")
        let properties = try run(["schema", "profiles"])
        XCTAssertEqual(properties.stdout.split(separator: "\n").sorted(), ["ProfileV1.age: Int", "ProfileV1.email: String?", "ProfileV1.name: String"])
        make("Profile.swift", files.stdout)
        let typecheck = try spawn("swiftc", ["-typecheck", "Profile.swift"])
        XCTAssertEqual(typecheck.status, 0, typecheck.output)
    }

    /// An archive whose `$top` key is not `root`: schema describes the object
    /// codable-json writes (`{"rooty": {...}}`), and its structs decode it.
    func testSchemaAndCodableJSONAgreeOnTopKeys() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(TitleBox(title: "yo"), forKey: "rooty")
        archiver.finishEncoding()
        try archiver.encodedData.write(to: work.appendingPathComponent("rooty.plist"))
        let json = try run(["convert", "rooty.plist", "--to", "codable-json", "-o", "rooty.json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(contents("rooty.json").map { String(decoding: $0, as: UTF8.self) }, #"{"rooty":{"title":"yo"}}"#)
        let schema = try run(["schema", "rooty.plist", "--swift"])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        XCTAssertEqual(schema.stdout, """
            import Foundation

            struct Root: Codable {
                var rooty: TitleBox
            }

            struct TitleBox: Codable {
                var title: String
            }

            """)
        make("Models.swift", schema.stdout)
        make("main.swift", """
            import Foundation
            let root = try JSONDecoder().decode(Root.self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
            print("DECODED \\(root.rooty.title)")
            """)
        let program = try compile(["Models.swift", "main.swift"], module: "Models")
        XCTAssertEqual(lines(try spawn(program, [work.appendingPathComponent("rooty.json").path]), "DECODED"), ["DECODED yo"])
    }

    /// Keys that are not Swift names (or are NSObject's) and every bridged
    /// Foundation kind: the generated class compiles and decodes them securely.
    /// The key `firstName` keeps its name; `first name` gets `firstName2`,
    /// whichever order Foundation wrote them in.
    func testCodegenHandlesTrickyKeysAndFoundationValues() throws {
        let name = NSStringFromClass(TrickyV1.self)
        for note in [("a.plist", "kept"), ("b.plist", nil)] {
            try NSKeyedArchiver.archivedData(withRootObject: TrickyV1(note: note.1), requiringSecureCoding: false).write(to: work.appendingPathComponent(note.0))
        }
        // Every field the describing code reads is marked required (all but "note").
        let required = ["description", "class", "first name", "firstName", "tags", "labels", "scores", "when", "id", "link", "bytes"]
            .map { #""\#($0)": {"required": true}"# }.joined(separator: ", ")
        make("rules.json", #"{"classes": {"\#(name)": {"renameTo": "Tricky.Tricky", "keys": {"flag": {"box": false}, \#(required)}}}, "allowedClasses": ["Tricky.Tricky"]}"#)
        let generated = try run(["codegen", "a.plist", "b.plist", "--rules", "rules.json", "--secure-coding", "--allowed-classes", "-o", "Tricky.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let migrated = try run(["migrate", "a.plist", "b.plist", "--rules", "rules.json", "--in-place"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Tricky.swift")), as: UTF8.self)
        XCTAssertTrue(source.contains("    var descriptionField: String\n"), source)
        XCTAssertTrue(source.contains(#"coder.decodeBool(forKey: "flag")"#), source)
        let describe = #"[v.descriptionField, "\(v.`class`)", v.firstName, v.firstName2, "\(v.tags)", "\(v.labels)", "\(v.scores)", "\(v.when.timeIntervalSinceReferenceDate)", v.id.uuidString, v.link.absoluteString, "\(Array(v.bytes))", "\(v.flag)", v.note ?? "nil"].joined(separator: "|")"#
        let main = driver("main.swift", root: "Tricky", classes: "archivedClasses", describe: describe, roundTrip: true)
        let program = try compile(["Tricky.swift", main], module: "Tricky")
        let decoded = try spawn(program, [work.appendingPathComponent("a.plist").path, work.appendingPathComponent("b.plist").path])
        let common = #"a tricky one|7|Grace|Ada|["x", "y"]|["s"]|["a": 1.5]|86400.0|0F7C0B8A-5E3D-4C1B-9A2F-6D8E4B3C2A10|https://example.org/a|[1, 2, 3]|true"#
        XCTAssertEqual(lines(decoded, "DECODED"), ["DECODED \(common)|kept", "DECODED \(common)|nil"], decoded.output)
        XCTAssertEqual(lines(decoded, "AGAIN"), ["AGAIN \(common)|kept", "AGAIN \(common)|nil"], decoded.output)
    }

    /// A subclass in the archive's `$classes` chain becomes a Swift subclass
    /// declaring only its own fields; a field holding both classes is typed
    /// by their common superclass, and the secure decoder reads it.
    func testCodegenFollowsClassHierarchies() throws {
        let drawing = DrawingV1(shapes: [CircleV1(name: "c", radius: 1.5), ShapeV1(name: "plain")])
        try NSKeyedArchiver.archivedData(withRootObject: drawing, requiringSecureCoding: false).write(to: work.appendingPathComponent("drawing.plist"))
        let names = [DrawingV1.self, ShapeV1.self, CircleV1.self].map { NSStringFromClass($0) }
        make("rules.json", #"{"classes": {"\#(names[0])": {"keys": {"shapes": {"required": true}}}, "\#(names[1])": {"keys": {"name": {"required": true}}}}, "allowedClasses": ["#
                + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]}")
        let generated = try run(["codegen", "drawing.plist", "--rules", "rules.json", "--secure-coding", "--allowed-classes", "-o", "Shapes.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let migrated = try run(["migrate", "drawing.plist", "--rules", "rules.json", "-o", "migrated.plist"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Shapes.swift")), as: UTF8.self)
        XCTAssertTrue(source.contains("final class CircleV1: ShapeV1 {\n    override class var supportsSecureCoding: Bool { true }\n\n    var radius: Double\n"), source)
        XCTAssertTrue(source.contains("\nclass ShapeV1: NSObject, NSSecureCoding {\n    class var supportsSecureCoding: Bool { true }\n"), source)
        XCTAssertTrue(source.contains(#"coder.decodeObject(of: [NSArray.self, ShapeV1.self], forKey: "shapes") as? [ShapeV1]"#), source)
        let describe = #"v.shapes.map { s in (s as? CircleV1).map { "circle \($0.name) \($0.radius)" } ?? "shape \(s.name)" }.joined(separator: ", ")"#
        let main = driver("main.swift", root: "DrawingV1", classes: "archivedClasses", describe: describe, roundTrip: true)
        let program = try compile(["Shapes.swift", main], module: "Shapes")
        let decoded = try spawn(program, [work.appendingPathComponent("migrated.plist").path])
        XCTAssertEqual(lines(decoded, "DECODED"), ["DECODED circle c 1.5, shape plain"], decoded.output)
        XCTAssertEqual(lines(decoded, "AGAIN"), ["AGAIN circle c 1.5, shape plain"], decoded.output)
    }

    /// Keys that are not Swift names, or collide once made Swift names: the
    /// printed structs compile and decode the codable-json output.
    func testSchemaOfAwkwardKeysCompilesAndDecodes() throws {
        make("awkward.json", #"{"first name": "Ada", "firstName": "Grace", "class": 3, "tags": ["a"], "self": {"x-y": 1.5}}"#)
        let schema = try run(["schema", "awkward.json", "--swift"])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        let json = try run(["convert", "awkward.json", "--to", "codable-json", "-o", "out.json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        make("Models.swift", schema.stdout)
        make("main.swift", """
            import Foundation
            let r = try JSONDecoder().decode(Root.self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
            print("DECODED \\(r.firstName) \\(r.firstName2) \\(r.`class`) \\(r.tags) \\(r.`self`.xY)")
            """)
        let program = try compile(["Models.swift", "main.swift"], module: "Models")
        let decoded = try spawn(program, [work.appendingPathComponent("out.json").path])
        XCTAssertEqual(lines(decoded, "DECODED"), [#"DECODED Grace Ada 3 ["a"] 1.5"#], schema.stdout + decoded.output)
    }

    /// Scenario 3: the User archived inside a preferences file; the generated
    /// class decodes the migrated value read back with PropertyListSerialization.
    func testCodegenSecureCodingScenarioThree() throws {
        try copyCorpus("archives/preferences-with-user.plist", to: "Prefs.plist")
        make("rules.json", #"{"classes": {"Prefs.User": {"keys": {"name": {"required": true}}}}, "allowedClasses": ["Prefs.User"]}"#)
        let generated = try run(["codegen", "Prefs.plist", "--rules", "rules.json", "--secure-coding", "--allowed-classes", "-o", "User.swift"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let migrated = try run(["migrate", "Prefs.plist", "--rules", "rules.json", "-o", "Migrated.plist"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        make("main.swift", """
            import Foundation
            registerArchivedClassNames()
            for path in CommandLine.arguments.dropFirst() {
                let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: path)), format: nil)
                guard let data = (plist as? [String: Any])?["currentUser"] as? Data else { print("NO DATA"); continue }
                do {
                    let user = try NSKeyedUnarchiver.unarchivedObject(ofClasses: archivedClasses, from: data) as? User
                    print("DECODED \\(user.map { "\\($0.name) \\($0.age) \\($0.email ?? "nil")" } ?? "nil")")
                } catch {
                    print("THREW \\(error)")
                }
            }
            """)
        let program = try compile(["User.swift", "main.swift"], module: "Prefs")
        let decoded = try spawn(program, [work.appendingPathComponent("Migrated.plist").path])
        XCTAssertEqual(lines(decoded, "DECODED"), ["DECODED Ada 36 nil"], decoded.output)
        let original = try spawn(program, [work.appendingPathComponent("Prefs.plist").path])
        XCTAssertEqual(lines(original, "DECODED"), [], "the inline age of version 1 does not decode")
        XCTAssertTrue(original.output.contains("Object 36 is not a reference"), original.output)
    }
}
