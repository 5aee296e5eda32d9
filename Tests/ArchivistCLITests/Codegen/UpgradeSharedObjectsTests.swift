import Foundation
import XCTest

/// `archivist codegen --upgrade` on an archive whose objects are shared: a
/// shelter holding the same creature twice in its array and once more as its
/// favourite. Both classes change (the creature's rating is boxed; the
/// shelter holds creatures, renames a key and loses one), so the shelter's
/// reader holds creature readers, and the conversion makes each creature
/// once: the upgraded archive, read with the secure `NSKeyedUnarchiver`,
/// shares them as version 1 did. (A cycle cannot be checked here: Linux's
/// Foundation overflows its stack decoding one with any Swift class.)
final class UpgradeSharedObjectsTests: XCTestCase {
    private static let prepared = PreparedBench<(bench: UpgradeBench, source: String, archive: String, app: String)>()

    /// Version 1, writing one shelter archive to the path given.
    static let writerSource = """
        import Foundation

        final class Creature: NSObject, NSCoding {
            let name: String, rating: Float

            init(name: String, rating: Float) {
                self.name = name
                self.rating = rating
            }

            func encode(with coder: NSCoder) {
                coder.encode(name, forKey: "name")
                coder.encode(rating, forKey: "rating")
            }

            init?(coder: NSCoder) { nil }
        }

        final class Shelter: NSObject, NSCoding {
            let creatures: [Creature], favorite: Creature?, visits: Int

            init(creatures: [Creature], favorite: Creature?, visits: Int) {
                self.creatures = creatures
                self.favorite = favorite
                self.visits = visits
            }

            func encode(with coder: NSCoder) {
                coder.encode(creatures, forKey: "creatures")
                coder.encode(favorite, forKey: "favorite")
                coder.encode(visits, forKey: "visits")
                coder.encode(true, forKey: "legacyFlag")
            }

            init?(coder: NSCoder) { nil }
        }

        let bug = Creature(name: "Bug", rating: 3.5), ghost = Creature(name: "Ghost", rating: -1.25)
        let shelter = Shelter(creatures: [bug, ghost, bug], favorite: ghost, visits: 7)
        let data = try NSKeyedArchiver.archivedData(withRootObject: shelter, requiringSecureCoding: false)
        try data.write(to: URL(fileURLWithPath: CommandLine.arguments[1]))

        """

    /// The app: `upgrade:IN:OUT` upgrades IN into OUT and prints the shelter
    /// the secure unarchiver reads from OUT, with which objects are one.
    static let appSource = """
        import Foundation

        for command in CommandLine.arguments.dropFirst() {
            let parts = command.split(separator: ":").map(String.init)
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
                let upgraded = try upgradeArchive(data)
                try upgraded.write(to: URL(fileURLWithPath: parts[2]))
                guard let shelter = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [Shelter.self], from: upgraded) as? Shelter else {
                    print("NOT A SHELTER \\(parts[1])")
                    continue
                }
                let c = shelter.creatures
                let names = c.map { "\\($0.name)=\\($0.rating)" }.joined(separator: ",")
                let shared = c.count == 3 && c[0] === c[2] && c[0] !== c[1] && shelter.favorite === c[1]
                print("UPGRADED \\(upgraded == data ? "unchanged" : "changed") \\(names) favorite=\\(shelter.favorite.name) visits=\\(shelter.visitCount) shared=\\(shared)")
            } catch {
                print("THREW \\(parts[1]) \\(error)")
            }
        }

        """

    static let rules = """
        {
          "classes": {
            "Sanctuary.Creature": { "renameTo": "Sanctuary2.Creature", "keys": { "name": { "required": true } } },
            "Sanctuary.Shelter": {
              "renameTo": "Sanctuary2.Shelter",
              "keys": {
                "visits": { "renameTo": "visitCount" }, "legacyFlag": { "remove": true },
                "creatures": { "required": true }, "favorite": { "required": true }
              }
            }
          },
          "allowedClasses": ["Sanctuary2.Creature", "Sanctuary2.Shelter"]
        }
        """

    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            let writer = try bench.program("writer", source: writerSource, module: "Sanctuary")
            let archive = bench.path("shelter.plist")
            let written = try bench.run(writer, [archive])
            guard written.status == 0 else { throw UpgradeBench.Failure(description: written.text) }
            try bench.write("rules.json", Data(rules.utf8))
            let source = try bench.generate(["shelter.plist", "--rules", "rules.json", "--upgrade"])
            let app = try bench.program("app", source: appSource, after: ["Upgrade.swift"], module: "Sanctuary2")
            return (bench, source, archive, app)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    private func setup() throws -> (bench: UpgradeBench, source: String, archive: String, app: String) {
        try Self.prepared.get()
    }

    /// The shelter's reader holds creature readers; its conversion renames
    /// `visits`, drops `legacyFlag` and converts every creature through the
    /// conversion.
    func testReadersHoldReaders() throws {
        let source = try setup().source
        XCTAssertTrue(source.contains(#"coder.decodeObject(of: [NSArray.self, CreatureVersion1.self], forKey: "creatures") as? [CreatureVersion1]"#), source)
        XCTAssertTrue(source.contains(#"self.favorite = coder.containsValue(forKey: "favorite") ? coder.decodeObject(of: CreatureVersion1.self, forKey: "favorite") : nil"#), source)
        XCTAssertTrue(source.contains(#"self.legacyFlag = coder.decodeBool(forKey: "legacyFlag")"#), source)
        // The archive's key order (the writer's dictionary order) gives the arguments' order.
        let call = try XCTUnwrap(source.split(separator: "\n").first { $0.hasPrefix("        Shelter(") }, source)
        // The readers accept nil; the fields the rules mark required throw naming the field.
        XCTAssertTrue(call.contains(#"favorite: try requiredField(try favorite.map { item0 in try conversion.upgrade(item0) }, "Shelter.favorite")"#), String(call))
        XCTAssertTrue(call.contains(#"creatures: try requiredField(try creatures.map { item0 in try item0.map { item1 in try conversion.upgrade(item1) } }, "Shelter.creatures")"#), String(call))
        XCTAssertTrue(call.contains("visitCount: visits"), String(call))
        XCTAssertFalse(call.contains("legacyFlag"), String(call))
    }

    /// The upgraded shelter keeps its values and its shared objects; upgrading
    /// it again changes nothing.
    func testSharedObjectsStayShared() throws {
        let p = try setup()
        let result = try p.bench.run(p.app, ["upgrade:\(p.archive):\(p.archive).v2", "upgrade:\(p.archive).v2:\(p.archive).again"])
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertEqual(result.lines("UPGRADED"), [
            "UPGRADED changed Bug=3.5,Ghost=-1.25,Bug=3.5 favorite=Ghost visits=7 shared=true",
            "UPGRADED unchanged Bug=3.5,Ghost=-1.25,Bug=3.5 favorite=Ghost visits=7 shared=true",
        ], result.text)
    }
}
