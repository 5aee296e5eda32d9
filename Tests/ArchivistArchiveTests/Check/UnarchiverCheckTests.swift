import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// What the unarchiver reads, checked against Foundation's own
/// NSKeyedUnarchiver: each broken payload is one Foundation does not decode
/// to what the archive held.
final class UnarchiverCheckTests: XCTestCase {
    /// Written by Foundation's NSKeyedArchiver: one object of every Foundation class dump shows as a value.
    static let base = PlistEditorTests.corpus.appendingPathComponent("archives/foundation-classes.plist")

    func baseTree() throws -> PlistValue {
        try PropertyList.read([UInt8](try Data(contentsOf: Self.base))).tree.value
    }

    /// The envelope and `$objects` of a tree.
    func parts(_ tree: PlistValue) throws -> (PlistDictionary, [PlistValue]) {
        guard case .dictionary(let envelope) = tree, case .array(let objects)? = envelope["$objects"] else {
            throw XCTSkip("not an archive")
        }
        return (envelope, objects)
    }

    /// The first object of a class (with a field, when given) changed by `edit`;
    /// the tree and that object's index.
    func mutated(_ className: String, having field: String? = nil, _ edit: (inout PlistDictionary) -> Void) throws -> (PlistValue, Int) {
        var (envelope, objects) = try parts(try baseTree())
        let cls = try XCTUnwrap(objects.firstIndex { value in
            if case .dictionary(let d) = value, d["$classname"] == .string(className) { return true }
            return false
        }, className)
        let index = try XCTUnwrap(objects.firstIndex { value in
            guard case .dictionary(let d) = value, d["$class"] == .uid(UInt64(cls)) else { return false }
            return field.map { d[$0] != nil } ?? true
        }, "an object of \(className)")
        guard case .dictionary(var object) = objects[index] else { throw XCTSkip("not an object") }
        edit(&object)
        objects[index] = .dictionary(object)
        envelope["$objects"] = .array(objects)
        return (.dictionary(envelope), index)
    }

    /// What Foundation's NSKeyedUnarchiver makes of a tree, in a child process.
    func foundationReads(_ tree: PlistValue) throws -> SecureDecoding.ChildOutcome {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("unarchiver-check-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try PropertyList.write(tree, as: .binary)).write(to: file)
        return try SecureDecoding.decodeInChild(file, names: [:], secure: false)
    }

    func testFoundationArchivesPass() throws {
        for name in ["foundation-classes.plist", "foundation-values.plist", "attributed-strings.plist", "counted-set.plist",
                     "computer.plist", "cycle.plist"] {
            let tree = try PropertyList.read([UInt8](try Data(contentsOf: PlistEditorTests.corpus.appendingPathComponent("archives/\(name)")))).tree.value
            XCTAssertEqual(UnarchiverCheck.errors(in: try KeyedArchive(tree)).map(\.message), [], name)
        }
    }

    func testBrokenPayloadsAreLocatedAndFoundationAgrees() throws {
        let original = try foundationReads(try baseTree())
        let decoded = try XCTUnwrap(original.decoded, original.output)
        let cases: [(String, String?, (inout PlistDictionary) -> Void, String)] = [
            ("NSArray", "NS.objects", { $0["NS.objects"] = .string("x") }, "NSArray: NS.objects is a string, not an array of references"),
            ("NSSet", "NS.objects", { $0["NS.objects"] = .array([.uid(1), .int(2)]) }, "NSSet: NS.objects is an array, not an array of references"),
            ("NSDictionary", "NS.objects", { d in
                if case .array(let values)? = d["NS.objects"] { d["NS.objects"] = .array(Array(values.dropLast())) }
            }, "NSDictionary: NS.keys holds"),
            ("NSDate", nil, { $0["NS.time"] = .string("yesterday") }, "NSDate: NS.time is a string, not a real (seconds since 2001)"),
            ("NSUUID", nil, { $0["NS.uuidbytes"] = .data(Array(repeating: 7, count: 15)) }, "NSUUID: NS.uuidbytes holds 15 bytes, not 16"),
            ("NSURL", "NS.relative", { $0["NS.relative"] = .string("https://example.org") }, "NSURL: NS.relative is a string, not a reference to a string"),
            ("NSTimeZone", nil, { $0["NS.name"] = .bool(true) }, "NSTimeZone: NS.name is a bool, not a string"),
            ("NSLocale", nil, { $0["NS.identifier"] = .int(3) }, "NSLocale: NS.identifier is an integer, not a string"),
            ("NSValue", "NS.special", { $0["NS.special"] = .string("rect") }, "NSValue: NS.special is a string, not an integer"),
        ]
        for (className, field, edit, message) in cases {
            let (tree, index) = try mutated(className, having: field, edit)
            let errors = UnarchiverCheck.errors(in: try KeyedArchive(tree))
            XCTAssertEqual(errors.count, 1, "\(className): \(errors.map(\.message))")
            let error = try XCTUnwrap(errors.first)
            XCTAssertTrue(error.message.hasPrefix(message), error.message)
            guard case .archive(let object, let keyPath) = error.location else { return XCTFail("\(error)") }
            XCTAssertEqual(object, index, className)
            XCTAssertNoThrow(try PlistKeyPath(keyPath).resolve(in: tree), "\(className): get takes \(keyPath)")
            // CoreFoundation's verdict: the broken payload does not read back as what was archived.
            let foundation = try foundationReads(tree)
            XCTAssertNotEqual(foundation.decoded, decoded, "\(className): Foundation reads the broken payload as the original")
        }
    }

    func testTopEntriesAndClassChains() throws {
        var (envelope, objects) = try parts(try baseTree())
        let cls = try XCTUnwrap(objects.firstIndex { value in
            if case .dictionary(let d) = value, d["$classname"] == .string("NSDate") { return true }
            return false
        })
        // A $top entry pointing at a class description.
        var top = PlistDictionary()
        if case .dictionary(let t)? = envelope["$top"] { top = t }
        top["root"] = .uid(UInt64(cls))
        var pointed = envelope
        pointed["$top"] = .dictionary(top)
        let topErrors = UnarchiverCheck.errors(in: try KeyedArchive(.dictionary(pointed)))
        XCTAssertEqual(topErrors.map(\.message), ["$top.root refers to object \(cls), a class description, not an object"])
        XCTAssertEqual(topErrors.first?.location, .archive(object: cls, keyPath: "$top.root"))
        // Foundation hands back the class description itself as a plain
        // dictionary: no object of the archive.
        let read = try foundationReads(.dictionary(pointed))
        XCTAssertTrue(read.decoded?.contains("$classname") ?? true, read.output)

        // An empty $classes.
        guard case .dictionary(var classDict) = objects[cls] else { return XCTFail("class dictionary") }
        classDict["$classes"] = .array([])
        objects[cls] = .dictionary(classDict)
        envelope["$objects"] = .array(objects)
        let errors = UnarchiverCheck.errors(in: try KeyedArchive(.dictionary(envelope)))
        XCTAssertEqual(errors.map(\.message), ["the class dictionary of NSDate (object \(cls)) has an empty $classes"])
        guard case .archive(let object, let keyPath)? = errors.first?.location else { return XCTFail("\(errors)") }
        XCTAssertEqual(object, cls)
        XCTAssertTrue(keyPath.hasSuffix(".$class.$classes"), keyPath)
        let original = try foundationReads(try baseTree())
        XCTAssertNotEqual(try foundationReads(.dictionary(envelope)).decoded, original.decoded, "Foundation cannot read the class")
    }
}
