import Foundation
import XCTest

/// `archivist codegen --upgrade` for scenario 1: the code generated from the
/// version-1 document and the rules is compiled (Swift 6, warnings as errors)
/// into an app of module ScaryCreatures2, the module the rules move the class
/// to. Version-1 archives are written by Foundation's `NSKeyedArchiver` in a
/// program of module ScaryCreatures (on Linux an archived class name is its
/// module and name), and everything the app writes is read back with
/// Foundation's secure `NSKeyedUnarchiver`.
final class UpgradeScenarioOneTests: XCTestCase {
    /// The shared folder with the generated source, the version-1 writer and
    /// the app, or why they could not be made.
    private static let prepared = PreparedBench<(bench: UpgradeBench, source: String, writer: String, app: String)>()

    /// Version 1's class as the app archived it.
    static let writerSource = """
        import Foundation

        final class ScaryCreatureData: NSObject, NSCoding {
            let title: String
            let rating: Float

            init(title: String, rating: Float) {
                self.title = title
                self.rating = rating
            }

            func encode(with coder: NSCoder) {
                coder.encode(title, forKey: "Title")
                coder.encode(rating, forKey: "Rating")
            }

            init?(coder: NSCoder) { nil }
        }

        // Arguments: PATH TITLE RATING, repeated.
        var args = Array(CommandLine.arguments.dropFirst())
        while args.count >= 3 {
            let path = args.removeFirst(), title = args.removeFirst(), rating = args.removeFirst()
            guard let value = Float(rating) else {
                print("not a rating: \\(rating)")
                exit(1)
            }
            let data = try NSKeyedArchiver.archivedData(withRootObject: ScaryCreatureData(title: title, rating: value), requiringSecureCoding: false)
            try data.write(to: URL(fileURLWithPath: path))
        }

        """

    /// The app: `upgrade:IN:OUT` upgrades IN into OUT and prints what the
    /// secure unarchiver reads from OUT; `read:IN` decodes IN as version 2;
    /// `defaults:IN` stores IN in a new `UserDefaults` suite and upgrades it
    /// there twice; `files:FOLDER:NAME` upgrades the files of that name.
    static let appSource = """
        import Foundation

        func read(_ data: Data) throws -> ScaryCreatureData? {
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: [ScaryCreatureData.self], from: data) as? ScaryCreatureData
        }

        for command in CommandLine.arguments.dropFirst() {
            let parts = command.split(separator: ":").map(String.init)
            do {
                if parts[0] == "files" {
                    let folder = URL(fileURLWithPath: parts[1])
                    let report = try upgradeFiles(in: folder, named: parts[2])
                    func relative(_ url: URL) -> String { String(url.path.dropFirst(folder.path.count + 1)) }
                    print("FILES upgraded \\(report.upgraded.map(relative).sorted())")
                    print("FILES unchanged \\(report.unchanged.map(relative).sorted())")
                    for failure in report.failed.sorted(by: { $0.file.path < $1.file.path }) {
                        print("FILES failed \\(relative(failure.file)): \\(failure.error)")
                    }
                    continue
                }
                let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
                if parts[0] == "defaults" {
                    let suite = "org.example.archivist-upgrade-\\(UUID().uuidString)"
                    guard let defaults = UserDefaults(suiteName: suite) else {
                        print("NO SUITE")
                        continue
                    }
                    defer { defaults.removePersistentDomain(forName: suite) }
                    defaults.set(data, forKey: "creature")
                    defaults.set("keep me", forKey: "other")
                    do {
                        let first = try upgradeDefaults(defaults, forKey: "creature")
                        let second = try upgradeDefaults(defaults, forKey: "creature")
                        let missing = try upgradeDefaults(defaults, forKey: "missing")
                        let stored = try defaults.data(forKey: "creature").flatMap(read)
                        print("DEFAULTS \\(parts[1]) \\(first) \\(second) \\(missing) \\(stored.map { "\\($0.title)|\\($0.rating)" } ?? "nil")")
                    } catch {
                        let untouched = defaults.data(forKey: "creature") == data
                        print("DEFAULTS THREW \\(parts[1]) untouched=\\(untouched) \\(error)")
                    }
                    let other = defaults.string(forKey: "other") ?? "nil"
                    print("OTHER \\(other)")
                    continue
                }
                if parts[0] == "read" {
                    let creature = try read(data)
                    print("READ \\(parts[1]) \\(creature.map { "\\($0.title)|\\($0.rating)" } ?? "nil")")
                    continue
                }
                let upgraded = try upgradeArchive(data)
                try upgraded.write(to: URL(fileURLWithPath: parts[2]))
                let creature = try read(upgraded)
                print("UPGRADED \\(parts[1]) \\(upgraded == data ? "unchanged" : "changed") \\(creature.map { "\\($0.title)|\\($0.rating)" } ?? "nil")")
            } catch {
                print("THREW \\(parts[1]) \\(error)")
            }
        }

        """

    /// The creatures of version 1: title and rating.
    static let creatures: [(title: String, rating: String)] = [("Scary Bug", "3.5"), ("Ghost 👻 Ünïcode", "0.1"), ("", "-2.25"), ("Zero", "0.0")]

    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            try bench.copyCorpus("rules/scary-creatures.json", to: "rules.json")
            try bench.copyCorpus("archives/scary-creature-v1.plist", to: "1.scarycreature/Data.plist")
            let source = try bench.generate(["1.scarycreature", "--rules", "rules.json", "--upgrade"])
            let writer = try bench.program("writer", source: writerSource, module: "ScaryCreatures")
            let app = try bench.program("app", source: appSource, after: ["Upgrade.swift"], module: "ScaryCreatures2")
            return (bench, source, writer, app)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    private func setup() throws -> (bench: UpgradeBench, source: String, writer: String, app: String) {
        try Self.prepared.get()
    }

    /// Writes each creature as a version-1 document with Foundation's archiver.
    private func writeVersionOne(into folder: String) throws -> [String] {
        let p = try setup()
        var args: [String] = []
        var paths: [String] = []
        for (i, c) in Self.creatures.enumerated() {
            let path = p.bench.path("\(folder)/\(i).scarycreature/Data.plist")
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            args += [path, c.title, c.rating]
            paths.append(path)
        }
        let written = try p.bench.run(p.writer, args)
        XCTAssertEqual(written.status, 0, written.text)
        return paths
    }

    /// What version 2 reads for a creature: its title and its rating as `Float` prints it.
    private func expected(_ c: (title: String, rating: String)) -> String {
        "\(c.title)|\(Float(c.rating).map { "\($0)" } ?? "?")"
    }

    /// The generated source: version 2's class with Swift property names, and
    /// a secure reader of version 1's shape reading the inline rating with
    /// `decodeFloat`.
    func testGeneratedSourceReadsVersionOneSecurely() throws {
        let source = try setup().source
        XCTAssertEqual(source.components(separatedBy: "import Foundation").count, 2, "one import")
        XCTAssertTrue(source.contains("final class ScaryCreatureData: NSObject, NSSecureCoding {\n    static var supportsSecureCoding: Bool { true }\n\n    var rating: Float\n    var title: String\n"), source)
        XCTAssertTrue(source.contains("/// Archived as ScaryCreatures.ScaryCreatureData.\nfinal class ScaryCreatureDataVersion1: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains(#"        self.rating = coder.decodeFloat(forKey: "Rating")"#), source)
        XCTAssertTrue(source.contains(#"guard let title = coder.decodeObject(of: NSString.self, forKey: "Title") as String? else { return nil }"#), source)
        XCTAssertTrue(source.contains(#"ScaryCreatureData(rating: rating, title: try requiredField(title, "ScaryCreatureData.title"))"#), source)
        XCTAssertTrue(source.contains("    var title: String?\n"), "the reader accepts nil: \(source)")
        XCTAssertTrue(source.contains("func upgradeArchive(_ data: Data) throws -> Data {"), source)
    }

    /// Version 1 documents (which version 2 cannot read) come out as version
    /// 2 with equal values; upgrading that output again changes nothing.
    func testVersionOneComesOutAsVersionTwo() throws {
        let p = try setup()
        let documents = try writeVersionOne(into: "v1")
        let unread = try p.bench.run(p.app, documents.map { "read:" + $0 })
        XCTAssertEqual(unread.status, 0, unread.text)
        XCTAssertEqual(unread.lines("READ"), [], "version 2 does not read version 1: \(unread.text)")

        let outputs = documents.map { $0 + ".v2" }
        let upgraded = try p.bench.run(p.app, zip(documents, outputs).map { "upgrade:\($0):\($1)" })
        XCTAssertEqual(upgraded.status, 0, upgraded.text)
        XCTAssertEqual(upgraded.lines("UPGRADED"), zip(documents, Self.creatures).map { "UPGRADED \($0) changed \(expected($1))" }, upgraded.text)
        // Version 2 is not tried on version 1's class names, so Foundation prints no
        // "Invalid class ... The data may be corrupt" for them.
        XCTAssertFalse(upgraded.text.contains("Invalid class"), upgraded.text)

        let again = try p.bench.run(p.app, outputs.map { "upgrade:\($0):\($0).again" })
        XCTAssertEqual(again.lines("UPGRADED"), zip(outputs, Self.creatures).map { "UPGRADED \($0) unchanged \(expected($1))" }, again.text)
        for output in outputs {
            XCTAssertEqual(FileManager.default.contents(atPath: output), FileManager.default.contents(atPath: output + ".again"))
        }
    }

    /// Version 2 data as `archivist migrate` writes it comes back unchanged.
    func testMigratedDataComesBackUnchanged() throws {
        let p = try setup()
        var documents = try writeVersionOne(into: "migrate")
        documents.append(p.bench.path("1.scarycreature/Data.plist"))
        var commands: [String] = []
        for document in documents {
            try p.bench.archivist(["migrate", document, "--rules", "rules.json", "-o", document + ".migrated"])
            commands.append("upgrade:\(document).migrated:\(document).out")
        }
        let result = try p.bench.run(p.app, commands)
        XCTAssertEqual(result.status, 0, result.text)
        let values = Self.creatures.map(expected) + ["Scary Bug|3.5"]
        XCTAssertEqual(result.lines("UPGRADED"), zip(documents, values).map { "UPGRADED \($0).migrated unchanged \($1)" }, result.text)
    }

    /// Anything else throws an error naming what it holds, and the app goes
    /// on (no trap): another app's archive, a plain property list, bytes that
    /// are no property list, an empty file.
    func testForeignDataThrows() throws {
        let p = try setup()
        let computer = try p.bench.copyCorpus("archives/computer.plist", to: "foreign/computer.plist")
        let plist = try p.bench.copyCorpus("foundation/info-plist.bplist", to: "foreign/Info.plist")
        let bytes = try p.bench.write("foreign/noise.bin", Data("not an archive at all".utf8))
        let empty = try p.bench.write("foreign/empty", Data())
        let result = try p.bench.run(p.app, [computer, plist, bytes, empty].map { "upgrade:\($0):\($0).out" })
        XCTAssertEqual(result.status, 0, result.text)
        let threw = result.lines("THREW")
        XCTAssertEqual(threw.count, 4, result.text)
        XCTAssertEqual(result.lines("UPGRADED"), [], result.text)
        XCTAssertTrue(threw.first?.hasPrefix("THREW \(computer) a keyed archive of ") == true, result.text)
        XCTAssertTrue(threw.first?.contains("MusicBox.Computer") == true, result.text)
        XCTAssertFalse(result.text.contains("Invalid class"), result.text)
        XCTAssertTrue(threw.dropFirst().first?.hasPrefix("THREW \(plist) a property list that is no keyed archive, which neither version reads") == true, result.text)
        XCTAssertTrue(threw.dropFirst(2).first?.hasPrefix("THREW \(bytes) not a property list (21 bytes), which neither version reads") == true, result.text)
        XCTAssertTrue(threw.dropFirst(3).first?.hasPrefix("THREW \(empty) not a property list (0 bytes)") == true, result.text)
        for path in [computer, plist, bytes, empty] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".out"), "nothing written for \(path)")
        }
    }

    /// `upgradeDefaults` on a real `UserDefaults` suite: version 1 is
    /// upgraded once (the second call returns false), version 2 is left
    /// alone, a missing key is no change, foreign data throws and stays; the
    /// suite's other keys are kept.
    func testDefaultsAreUpgradedOnce() throws {
        let p = try setup()
        let documents = try writeVersionOne(into: "defaults")
        let migrated = documents[0] + ".migrated"
        try p.bench.archivist(["migrate", documents[0], "--rules", "rules.json", "-o", migrated])
        let foreign = try p.bench.copyCorpus("archives/computer.plist", to: "defaults/computer.plist")
        let result = try p.bench.run(p.app, (documents + [migrated, foreign]).map { "defaults:" + $0 })
        XCTAssertEqual(result.status, 0, result.text)
        let values = Self.creatures.map(expected)
        XCTAssertEqual(result.lines("DEFAULTS"),
                       zip(documents, values).map { "DEFAULTS \($0) true false false \($1)" } + ["DEFAULTS \(migrated) false false false \(values[0])"]
                           + result.lines("DEFAULTS THREW \(foreign) untouched=true a keyed archive of "),
                       result.text)
        XCTAssertEqual(result.lines("DEFAULTS THREW").count, 1, result.text)
        XCTAssertEqual(result.lines("OTHER"), Array(repeating: "OTHER keep me", count: documents.count + 2), result.text)
    }

    /// `upgradeFiles` on a folder of documents: version 1 files are replaced
    /// by version 2 (read back securely), version 2 files and other files are
    /// left as they were, a bad file is reported and kept, and no temporary
    /// file is left behind.
    func testFilesAreUpgradedAndFailuresReported() throws {
        let p = try setup()
        let documents = try writeVersionOne(into: "Documents")
        let migratedPath = p.bench.path("Documents-0-migrated.plist")
        try p.bench.archivist(["migrate", documents[0], "--rules", "rules.json", "-o", migratedPath])
        let migrated = try Data(contentsOf: URL(fileURLWithPath: migratedPath))
        try migrated.write(to: URL(fileURLWithPath: documents[0]))
        let bad = try p.bench.write("Documents/bad.scarycreature/Data.plist", Data("<plist>broken".utf8))
        let image = try p.bench.write("Documents/1.scarycreature/thumbImage.png", Data([0x89, 0x50, 0x4E, 0x47]))
        let deeper = try p.bench.copyCorpus("archives/scary-creature-v1.plist", to: "Documents/old/9.scarycreature/Data.plist")

        let result = try p.bench.run(p.app, ["files:\(p.bench.path("Documents")):Data.plist"])
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertEqual(result.lines("FILES upgraded"), [#"FILES upgraded ["1.scarycreature/Data.plist", "2.scarycreature/Data.plist", "3.scarycreature/Data.plist", "old/9.scarycreature/Data.plist"]"#], result.text)
        XCTAssertEqual(result.lines("FILES unchanged"), [#"FILES unchanged ["0.scarycreature/Data.plist"]"#], result.text)
        let failed = result.lines("FILES failed")
        XCTAssertEqual(failed.count, 1, result.text)
        XCTAssertTrue(failed.first?.hasPrefix("FILES failed bad.scarycreature/Data.plist: ") == true, result.text)

        XCTAssertEqual(FileManager.default.contents(atPath: documents[0]), migrated, "version 2 is not rewritten")
        XCTAssertEqual(FileManager.default.contents(atPath: bad), Data("<plist>broken".utf8))
        XCTAssertEqual(FileManager.default.contents(atPath: image), Data([0x89, 0x50, 0x4E, 0x47]))
        let read = try p.bench.run(p.app, (documents + [deeper]).map { "read:" + $0 })
        XCTAssertEqual(read.lines("READ"), zip(documents + [deeper], Self.creatures.map(expected) + ["Scary Bug|3.5"]).map { "READ \($0) \($1)" }, read.text)
        for folder in ["0", "1", "2", "3", "bad"].map({ "Documents/\($0).scarycreature" }) + ["Documents/old/9.scarycreature"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: p.bench.path(folder))
            XCTAssertEqual(names.filter { $0 != "Data.plist" && $0 != "thumbImage.png" }, [], "no temporary file left in \(folder)")
        }
    }
}
