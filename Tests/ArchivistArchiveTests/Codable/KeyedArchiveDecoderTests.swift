import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// KeyedArchiveDecoder reads archives straight into Codable types, with the
/// same rules as the JSON export.
final class KeyedArchiveDecoderTests: XCTestCase {
    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: CodableExportTests.corpus.appendingPathComponent("archives/\(name)")))
    }

    func rules(_ name: String) throws -> MigrationRules {
        try MigrationRules(bytes: [UInt8](try Data(contentsOf: CodableExportTests.corpus.appendingPathComponent("rules/\(name)"))))
    }

    func testScenarioTwoArchivesDecodeDirectly() throws {
        XCTAssertEqual(try KeyedArchiveDecoder(rules: try rules("music-box.json")).decode(Computer.self, from: try bytes("computer.plist")), ScenarioTwo.computer)
        XCTAssertEqual(try KeyedArchiveDecoder(rules: try rules("coordinate.json")).decode(Coordinate.self, from: try bytes("coordinate.plist")), ScenarioTwo.coordinate)
        XCTAssertEqual(try KeyedArchiveDecoder(rules: try rules("shop.json")).decode(Order.self, from: try bytes("order-with-cart.plist")), ScenarioTwo.order)
        XCTAssertEqual(try KeyedArchiveDecoder(rules: try rules("shapes.json")).decode(Drawing.self, from: try bytes("drawing.plist")), ScenarioTwo.drawing)
    }

    /// Foundation's values decode as Swift's types: Date, Data, UUID, URL, sets as arrays.
    func testFoundationValuesDecode() throws {
        struct Values: Decodable {
            var date: Date
            var data: Data
            var uuid: UUID
            var url: URL
            var set: [Int]
            var bool: Int
            var real: Float
            var null: String?
        }
        let v = try KeyedArchiveDecoder().decode(Values.self, from: try bytes("foundation-values.plist"))
        XCTAssertEqual(v.date, Date(timeIntervalSinceReferenceDate: 700_000_000.25))
        XCTAssertEqual(v.data, Data([1, 2, 3]))
        XCTAssertEqual(v.uuid, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(v.url, URL(string: "https://example.com/a?b=c"))
        XCTAssertEqual(v.set, [1])
        XCTAssertEqual(v.bool, 1, "Foundation on Linux archives NSNumber(value: true) as 1")
        XCTAssertEqual(v.real, 2.5)
        XCTAssertNil(v.null)
        struct Shared: Decodable { var array: [String] }
        XCTAssertThrowsError(try KeyedArchiveDecoder().decode(Shared.self, from: try bytes("foundation-values.plist")), "the array ends with a number")
    }

    /// Errors are DecodingErrors with the coding path.
    func testErrorsCarryTheCodingPath() throws {
        struct WrongCore: Decodable { var coreID: Int }
        struct WrongCPU: Decodable { var cores: [WrongCore] }
        struct WrongComputer: Decodable { var cpu: WrongCPU }
        XCTAssertThrowsError(try KeyedArchiveDecoder(rules: try rules("music-box.json")).decode(WrongComputer.self, from: try bytes("computer.plist"))) { error in
            guard case DecodingError.typeMismatch(_, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["cpu", "cores", "Index 0", "coreID"])
        }
        struct Missing: Decodable { var name: String; var serial: String }
        XCTAssertThrowsError(try KeyedArchiveDecoder(rules: try rules("music-box.json")).decode(Missing.self, from: try bytes("computer.plist"))) { error in
            guard case DecodingError.keyNotFound(let key, _)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(key.stringValue, "serial")
        }
        struct Small: Decodable { var clock: Int8 }
        XCTAssertThrowsError(try KeyedArchiveDecoder(rules: try rules("music-box.json")).decode([String: Small].self, from: try bytes("computer.plist")))
    }

    /// nestedContainer and superDecoder work over the archive's objects.
    func testNestedContainersAndSuperDecoder() throws {
        struct Manual: Decodable {
            var clock: Int
            var firstCore: String
            var superName: String?
            enum Keys: String, CodingKey { case name, cpu }
            enum CPUKeys: String, CodingKey { case clock, cores }
            enum CoreKeys: String, CodingKey { case coreID }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: Keys.self)
                let cpu = try c.nestedContainer(keyedBy: CPUKeys.self, forKey: .cpu)
                clock = try cpu.decode(Int.self, forKey: .clock)
                var cores = try cpu.nestedUnkeyedContainer(forKey: .cores)
                let first = try cores.nestedContainer(keyedBy: CoreKeys.self)
                firstCore = try first.decode(String.self, forKey: .coreID)
                superName = try c.superDecoder(forKey: .name).singleValueContainer().decode(String.self)
            }
        }
        let m = try KeyedArchiveDecoder(rules: try rules("music-box.json")).decode(Manual.self, from: try bytes("computer.plist"))
        XCTAssertEqual(m.clock, 3200)
        XCTAssertEqual(m.firstCore, "A1B2")
        XCTAssertEqual(m.superName, "Mac")
    }

    func testCyclesFollowThePolicy() throws {
        struct Node: Decodable { var label: String; var children: [Node] }
        XCTAssertThrowsError(try KeyedArchiveDecoder().decode(Node.self, from: try bytes("cycle.plist")))
        let n = try KeyedArchiveDecoder(cycles: .omit).decode(Node.self, from: try bytes("cycle.plist"))
        XCTAssertEqual(n.label, "parent")
        XCTAssertEqual(n.children.map(\.label), ["child"])
    }
}
