import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// `CodableEncoding`: scenario-2 archives as the bytes Foundation's
/// `JSONEncoder` and `PropertyListEncoder` write for their structs, read back
/// with Foundation's decoders.
final class CodableEncodingTests: XCTestCase {
    private func archive(_ name: String) throws -> PlistTree {
        try PropertyList.read([UInt8](try Data(contentsOf: MigratorTests.archives.appendingPathComponent(name)))).tree
    }

    private func rules(_ json: String) throws -> MigrationRules {
        try MigrationRules(bytes: Array(json.utf8))
    }

    private let musicBox = #"""
        {"classes": {"MusicBox.Computer": {"keys": {"cpu_name": {"renameTo": "name"}, "cpu_coder": {"renameTo": "cpu"}}},
                     "_TtCV8MusicBox3CPU8CPUCoder": {"renameTo": "MusicBox.CPU"}, "MusicBox.CPUCore": {"renameTo": "CPUCore"}}}
        """#

    private let expectedComputer = Computer(name: "Mac", cpu: CPU(clock: 3200, constant: 7, cores: [CPUCore(constant: 1494, coreID: "A1B2"), CPUCore(constant: 1494, coreID: "C3D4")]))

    func testJSONIsWhatJSONEncoderWrites() throws {
        let bytes = try CodableEncoding.json(sortedKeys: true).encode(archive: try ObjectGraph(try archive("computer.plist")), rules: try rules(musicBox))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), String(decoding: try encoder.encode(expectedComputer), as: UTF8.self))
        XCTAssertEqual(try JSONDecoder().decode(Computer.self, from: Data(bytes)), expectedComputer)

        let order = try rules(#"{"classes": {"Shop.Cart.Box": {"renameTo": "Shop.Cart", "unwrap": "payload"}, "Shop.Order": {"renameTo": "Order"}}}"#)
        let orderJSON = try CodableEncoding.json(sortedKeys: true).encode(archive: try ObjectGraph(try archive("order-with-cart.plist")), rules: order)
        let decoded = try JSONDecoder().decode(Order.self, from: Data(orderJSON))
        XCTAssertEqual(decoded.cart.updated, Date(timeIntervalSinceReferenceDate: 720_000_000))
        XCTAssertEqual(String(decoding: orderJSON, as: UTF8.self), String(decoding: try encoder.encode(decoded), as: UTF8.self))
    }

    func testPropertyListsAreWhatPropertyListEncoderWrites() throws {
        let binary = try CodableEncoding.propertyList(.binary).encode(archive: try ObjectGraph(try archive("computer.plist")), rules: try rules(musicBox))
        XCTAssertEqual(try PropertyListDecoder().decode(Computer.self, from: Data(binary)), expectedComputer)
        let xml = try CodableEncoding.propertyList(.xml).encode(archive: try ObjectGraph(try archive("computer.plist")), rules: try rules(musicBox))
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        XCTAssertEqual(String(decoding: xml, as: UTF8.self), String(decoding: try encoder.encode(expectedComputer), as: UTF8.self))
    }

    func testWhatCodableCannotHoldIsLocated() throws {
        let unmapped = #"{"classes": {"MusicBox.Computer": {"renameTo": "Computer"}, "_TtCV8MusicBox3CPU8CPUCoder": {"renameTo": "MusicBox.CPU"}}}"#
        XCTAssertThrowsError(try CodableEncoding.json(sortedKeys: false).encode(archive: try ObjectGraph(try archive("computer.plist")), rules: try rules(unmapped))) { error in
            let e = error as? PlistError
            XCTAssertEqual(e?.kind, .notRepresentable)
            XCTAssertEqual(e?.message, #"the rules do not map class MusicBox.CPUCore, so its Codable type is unknown; name it under "classes" ("renameTo" gives the struct)"#)
            guard case .archive(_, let keyPath)? = e?.location else { return XCTFail("\(error)") }
            XCTAssertEqual(keyPath, "root.cpu_coder.cores.0")
        }
        XCTAssertThrowsError(try CodableEncoding.propertyList(.binary).encode(archive: try ObjectGraph(try archive("cycle.plist")), rules: try rules(#"{"classes": {"Tree.Node": {"renameTo": "Node"}}}"#))) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .cycle)
        }
    }
}
