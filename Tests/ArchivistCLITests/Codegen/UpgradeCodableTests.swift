import Foundation
import XCTest

/// `archivist codegen --upgrade --codable` for scenario 2: the computer's
/// struct-wrapper classes upgraded to the Codable structs. One file is
/// generated from the bundled archive (with macOS's mangled name
/// `_TtCV8MusicBox3CPU8CPUCoder`) and the scenario's rules, for JSON; another
/// from archives Foundation writes here (Linux cannot archive a class nested
/// in a type, so the wrapper is `MusicBox.CPUCoder`), for binary property
/// lists. Both are compiled into an app that decodes what `upgradeArchive`
/// returns with Foundation's `JSONDecoder` or `PropertyListDecoder`.
final class UpgradeCodableTests: XCTestCase {
    private static let prepared = PreparedBench<(bench: UpgradeBench, json: String, binary: String, source: String, v1: [String])>()

    static let computers: [(name: String, clock: Int, constant: Int, cores: [(id: String, constant: Int)])] = [
        ("Mac", 3200, 7, [("A1B2", 1494), ("C3D4", 1494)]),
        ("Ünïcode Box", -1, 0, []),
        ("Big", Int.max, Int.min, [("Z", 42)]),
    ]

    /// Version 1: the wrapper encodes the struct's optionals as objects, the
    /// core its constant inline.
    static let writerSource = """
        import Foundation

        final class CPUCore: NSObject, NSCoding {
            let constant: Int, coreID: String

            init(constant: Int, coreID: String) {
                self.constant = constant
                self.coreID = coreID
            }

            func encode(with coder: NSCoder) {
                coder.encode(constant, forKey: "constant")
                coder.encode(coreID, forKey: "coreID")
            }

            init?(coder: NSCoder) { nil }
        }

        final class CPUCoder: NSObject, NSCoding {
            let clock: Int?, constant: Int?, cores: [CPUCore]

            init(clock: Int?, constant: Int?, cores: [CPUCore]) {
                self.clock = clock
                self.constant = constant
                self.cores = cores
            }

            func encode(with coder: NSCoder) {
                coder.encode(clock.map { NSNumber(value: $0) }, forKey: "clock")
                coder.encode(constant.map { NSNumber(value: $0) }, forKey: "constant")
                coder.encode(cores as NSArray, forKey: "cores")
            }

            init?(coder: NSCoder) { nil }
        }

        final class Computer: NSObject, NSCoding {
            let name: String, cpu: CPUCoder

            init(name: String, cpu: CPUCoder) {
                self.name = name
                self.cpu = cpu
            }

            func encode(with coder: NSCoder) {
                coder.encode(name, forKey: "cpu_name")
                coder.encode(cpu, forKey: "cpu_coder")
            }

            init?(coder: NSCoder) { nil }
        }

        // Arguments: PATH NAME CLOCK CONSTANT CORES (ID=CONSTANT,... or -), repeated.
        var args = Array(CommandLine.arguments.dropFirst())
        while args.count >= 5 {
            let path = args.removeFirst(), name = args.removeFirst(), clock = Int(args.removeFirst()), constant = Int(args.removeFirst())
            let list = args.removeFirst()
            let cores: [CPUCore] = list == "-" ? [] : list.split(separator: ",").map { core in
                let parts = core.split(separator: "=")
                return CPUCore(constant: Int(parts.last ?? "") ?? 0, coreID: String(parts.first ?? ""))
            }
            let computer = Computer(name: name, cpu: CPUCoder(clock: clock, constant: constant, cores: cores))
            try NSKeyedArchiver.archivedData(withRootObject: computer, requiringSecureCoding: false).write(to: URL(fileURLWithPath: path))
        }

        """

    /// The app: `upgrade:IN:OUT` upgrades IN into OUT and prints the computer
    /// Foundation's decoder (JSON or property list, as OUT is) reads from OUT.
    static let appSource = """
        import Foundation

        for command in CommandLine.arguments.dropFirst() {
            let parts = command.split(separator: ":").map(String.init)
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
                let upgraded = try upgradeArchive(data)
                try upgraded.write(to: URL(fileURLWithPath: parts[2]))
                let c = upgraded.first == UInt8(ascii: "{")
                    ? try JSONDecoder().decode(Computer.self, from: upgraded)
                    : try PropertyListDecoder().decode(Computer.self, from: upgraded)
                let cores = c.cpu.cores.map { "\\($0.coreID)=\\($0.constant)" }.joined(separator: ",")
                print("UPGRADED \\(parts[1]) \\(upgraded == data ? "unchanged" : "changed") \\(c.name)|\\(c.cpu.clock)|\\(c.cpu.constant)|\\(cores)")
            } catch {
                print("THREW \\(parts[1]) \\(error)")
            }
        }

        """

    /// The scenario's rules, for the wrapper as Linux archives it.
    static let linuxRules = """
        {
          "classes": {
            "MusicBox.Computer": { "keys": { "cpu_name": { "renameTo": "name" }, "cpu_coder": { "renameTo": "cpu" } } },
            "MusicBox.CPUCoder": { "renameTo": "MusicBox.CPU" }
          }
        }
        """

    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            try bench.copyCorpus("archives/computer.plist", to: "computer.plist")
            try bench.copyCorpus("rules/music-box.json", to: "music-box.json")
            let source = try bench.generate(["computer.plist", "--rules", "music-box.json", "--upgrade", "--codable"], into: "UpgradeJSON.swift")

            let writer = try bench.program("writer", source: writerSource, module: "MusicBox")
            try FileManager.default.createDirectory(atPath: bench.path("v1"), withIntermediateDirectories: true)
            let v1 = computers.indices.map { bench.path("v1/computer\($0).plist") }
            let written = try bench.run(writer, zip(v1, computers).flatMap { path, c in
                [path, c.name, String(c.clock), String(c.constant), c.cores.isEmpty ? "-" : c.cores.map { "\($0.id)=\($0.constant)" }.joined(separator: ",")]
            })
            guard written.status == 0 else { throw UpgradeBench.Failure(description: written.text) }
            try bench.write("linux-rules.json", Data(linuxRules.utf8))
            try bench.archivist(["codegen", "v1", "--rules", "linux-rules.json", "--upgrade", "--codable", "--encoding", "binary", "-o", "UpgradeBinary.swift"])

            try bench.write("json/main.swift", Data(appSource.utf8))
            try bench.write("binary/main.swift", Data(appSource.utf8))
            let json = try bench.compile(["UpgradeJSON.swift", "json/main.swift"], module: "MusicBox2")
            let binary = try bench.compile(["UpgradeBinary.swift", "binary/main.swift"], module: "MusicBox2")
            return (bench, json, binary, source, v1)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    private func setup() throws -> (bench: UpgradeBench, json: String, binary: String, source: String, v1: [String]) {
        try Self.prepared.get()
    }

    /// Every class is read by a reader of version 1 (the core's inline
    /// constant with `decodeInteger`) and converted to its struct, keys
    /// renamed as the rules say.
    func testEveryClassIsReadAndConverted() throws {
        let source = try setup().source
        XCTAssertTrue(source.contains("struct Computer: Codable {"), source)
        XCTAssertTrue(source.contains("/// Archived as _TtCV8MusicBox3CPU8CPUCoder.\nfinal class CPUCPUCoderVersion1: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains(#"self.constant = coder.decodeInteger(forKey: "constant")"#), source)
        // The readers accept nil in every object field; the structs' fields that are
        // not optional throw naming the field when a version-1 object holds nil.
        XCTAssertTrue(source.contains(#"Computer(name: try requiredField(cpu_name, "Computer.name"), cpu: try requiredField(try cpu_coder.map { item0 in try conversion.upgrade(item0) }, "Computer.cpu"))"#), source)
        XCTAssertTrue(source.contains(#"CPU(clock: try requiredField(clock, "CPU.clock"), constant: try requiredField(constant, "CPU.constant"), cores: try requiredField(try cores.map { item0 in try item0.map { item1 in try conversion.upgrade(item1) } }, "CPU.cores"))"#), source)
        XCTAssertTrue(source.contains("return try JSONEncoder().encode(decoded.root)"), source)
    }

    /// The bundled archive comes out as the JSON `convert --to codable-json`
    /// writes (equal as JSON values); that JSON and the upgrade's own output
    /// come back unchanged.
    func testJSONUpgradeEqualsTheConvertedJSON() throws {
        let p = try setup()
        let converted = try p.bench.archivist(["convert", "computer.plist", "--to", "codable-json", "--rules", "music-box.json", "-o", "converted.json"])
        XCTAssertEqual(converted.status, 0)
        let archive = p.bench.path("computer.plist"), json = p.bench.path("converted.json")
        let result = try p.bench.run(p.json, ["upgrade:\(archive):\(archive).json", "upgrade:\(json):\(json).out", "upgrade:\(archive).json:\(archive).again"])
        XCTAssertEqual(result.status, 0, result.text)
        let expected = "Mac|3200|7|A1B2=1494,C3D4=1494"
        XCTAssertEqual(result.lines("UPGRADED"), ["UPGRADED \(archive) changed \(expected)", "UPGRADED \(json) unchanged \(expected)", "UPGRADED \(archive).json unchanged \(expected)"],
                       result.text)
        let upgraded = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: archive + ".json"))) as? NSDictionary
        let reference = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: json))) as? NSDictionary
        XCTAssertNotNil(upgraded)
        XCTAssertEqual(upgraded, reference)
    }

    /// Archives Foundation writes come out as binary property lists with
    /// equal values; upgrading those again changes nothing.
    func testBinaryUpgradeOfFoundationArchives() throws {
        let p = try setup()
        let outputs = p.v1.map { $0 + ".v2" }
        let result = try p.bench.run(p.binary, zip(p.v1, outputs).map { "upgrade:\($0):\($1)" } + outputs.map { "upgrade:\($0):\($0).again" })
        XCTAssertEqual(result.status, 0, result.text)
        let values = Self.computers.map { c in "\(c.name)|\(c.clock)|\(c.constant)|" + c.cores.map { "\($0.id)=\($0.constant)" }.joined(separator: ",") }
        XCTAssertEqual(result.lines("UPGRADED"), zip(p.v1, values).map { "UPGRADED \($0) changed \($1)" } + zip(outputs, values).map { "UPGRADED \($0) unchanged \($1)" },
                       result.text)
        for output in outputs {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(8), Data("bplist00".utf8))
        }
    }

    /// JSON of another shape and another app's archive throw, naming what they are.
    func testForeignDataThrows() throws {
        let p = try setup()
        let json = try p.bench.write("other.json", Data(#"{"a":1}"#.utf8))
        let archive = try p.bench.copyCorpus("archives/scary-creature-v1.plist", to: "scary.plist")
        let result = try p.bench.run(p.json, ["upgrade:\(json):\(json).out", "upgrade:\(archive):\(archive).out"])
        XCTAssertEqual(result.status, 0, result.text)
        let threw = result.lines("THREW")
        XCTAssertEqual(threw.count, 2, result.text)
        XCTAssertTrue(threw.first?.hasPrefix("THREW \(json) JSON (7 bytes), which neither version reads") == true, result.text)
        XCTAssertTrue(threw.last?.hasPrefix("THREW \(archive) a keyed archive of ScaryCreatures.ScaryCreatureData, which neither version reads") == true, result.text)
    }
}
