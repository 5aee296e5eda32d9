import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// A top-level class (Foundation on Linux archives only those).
final class Pet: NSObject, NSCoding {
    let name: String, weight: Double, legs: Int, friend: Pet?
    init(name: String, weight: Double, legs: Int, friend: Pet?) {
        self.name = name; self.weight = weight; self.legs = legs; self.friend = friend
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(weight, forKey: "weight")
        coder.encode(legs, forKey: "legs")
        coder.encode(friend, forKey: "friend")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        // A boxed weight (an NSNumber object) reads as well as an inline one.
        if let boxed = coder.decodeObject(forKey: "weight") as? NSNumber {
            weight = boxed.doubleValue
        } else {
            weight = coder.decodeDouble(forKey: "weight")
        }
        legs = coder.decodeInteger(forKey: "legs")
        friend = coder.decodeObject(forKey: "friend") as? Pet
    }
}

final class ObjectGraphTests: XCTestCase {
    /// A Foundation-written archive: inline primitives and references are told
    /// apart, a shared object is one node, the class chain is kept.
    func testInlineAndReferencedFieldsFromFoundation() throws {
        let rex = Pet(name: "Rex", weight: 12.5, legs: 4, friend: nil)
        let pets = NSArray(array: [Pet(name: "Tom", weight: 4, legs: 4, friend: rex), rex])
        let data = try NSKeyedArchiver.archivedData(withRootObject: pets, requiringSecureCoding: false)
        let graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        guard let root = graph.object(graph.top[0].object), case .references(let items)? = root["NS.objects"] else {
            return XCTFail("root is not an NSArray")
        }
        XCTAssertEqual(root.className.archived, "NSArray")
        guard let tom = graph.object(items[0]) else { return XCTFail() }
        XCTAssertTrue(tom.className.readable.hasSuffix("Pet"))
        XCTAssertEqual(tom.classChain.last, "NSObject")
        XCTAssertEqual(tom["weight"], .inline(.double(4)))
        XCTAssertEqual(tom["legs"], .inline(.int(4)))
        guard case .reference(let nameRef)? = tom["name"], case .value(.string("Tom")) = graph.nodes[nameRef] else {
            return XCTFail("name is not a reference to a string")
        }
        // Rex is reached twice (Tom's friend and the array) but is one node.
        guard case .reference(let friend)? = tom["friend"] else { return XCTFail() }
        XCTAssertEqual(friend, items[1])
        XCTAssertEqual(graph.incomingCounts()[friend], 2)
        let dump = try ArchiveDumper.render(graph)
        XCTAssertTrue(dump.contains("Pet @\(friend) {"), dump)
        XCTAssertTrue(dump.contains("-> @\(friend)"), dump)
        XCTAssertTrue(dump.contains("weight = 12.5 (inline real)"), dump)
    }

    func testCensusAndAllowlist() throws {
        let url = TestPaths.corpus.appendingPathComponent("archives/computer.plist")
        var census = ClassCensus()
        census.add(try ObjectGraph(try PropertyList.read([UInt8](try Data(contentsOf: url))).tree))
        let names = census.entries.map(\.name.readable)
        XCTAssertEqual(Set(names), ["MusicBox.Computer", "MusicBox.CPU.CPUCoder", "MusicBox.CPUCore", "NSArray"])
        XCTAssertEqual(census.entries.first { $0.name.readable == "MusicBox.CPUCore" }?.count, 2)
        XCTAssertEqual(census.entries.first { $0.name.archived == "NSArray" }?.isFoundation, true)
        // A class nested in a struct is named as Swift code names it.
        XCTAssertEqual(census.swiftClassList, "[Computer.self, CPU.CPUCoder.self, NSArray.self, CPUCore.self]")
        XCTAssertEqual(census.swiftAllowlist, "try NSKeyedUnarchiver.unarchivedObject(ofClasses: \(census.swiftClassList), from: data)")
        XCTAssertEqual(ClassName(archived: "_TtGC4Main3BoxSS_").swiftType, "Box<Swift.String>")
        XCTAssertEqual(ClassName(archived: "App.Contact").swiftType, "Contact")
        XCTAssertEqual(ClassName(archived: "LegacyContact").swiftType, "LegacyContact")
    }
}
