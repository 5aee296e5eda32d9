@testable import ArchivistNIB
import ArchivistArchive
import ArchivistCore
import ArchivistTestSupport
import XCTest

/// Hostile nibs: every one fails with a corrupt-file error (or reads into a
/// graph every view can walk), never a crash, a hang or a huge allocation.
final class NIBArchiveHostileTests: XCTestCase {
    typealias Sample = NIBArchiveSample

    private func read(_ bytes: [UInt8]) throws -> PlistValue {
        let tree = try bytes.withUnsafeBytes { try NIBArchive.tree($0) }
        return tree.value(at: tree.root)
    }

    /// The error reading `bytes` gives, or a failure when they read.
    private func failure(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> PlistError? {
        do {
            _ = try read(bytes)
            XCTFail("read", file: file, line: line)
        } catch let error as PlistError {
            XCTAssertEqual(error.kind, .corrupt, error.message, file: file, line: line)
            XCTAssertTrue(error.message.hasPrefix("NIBArchive: "), error.message, file: file, line: line)
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    /// The example with header field `n` (0: format version ... 9: class table offset) set to `value`.
    private func withHeaderField(_ n: Int, _ value: UInt32) -> [UInt8] {
        var b = Sample.example
        b.replaceSubrange((10 + 4 * n)..<(14 + 4 * n), with: Sample.le(value))
        return b
    }

    func testEveryTruncationFails() {
        let full = Sample.example
        for n in 0..<full.count { _ = failure(Array(full[..<n])) }
        XCTAssertNoThrow(try read(full))
    }

    func testEveryByteChangedReadsOrFails() throws {
        // Each byte of the tables set to 0xFF and 0x00: an error or a graph that dumps.
        let full = Sample.example
        for i in NIBArchiveReader.headerSize..<full.count {
            for v: UInt8 in [0x00, 0x7F, 0xFF] {
                var b = full
                b[i] = v
                guard let value = try? read(b) else { continue }
                let graph = try ObjectGraph(try PlistTree(value))
                XCTAssertNoThrow(try ArchiveDumper.render(graph))
            }
        }
    }

    func testHugeAndNegativeCountsFail() {
        for field in [2, 4, 6, 8] {
            XCTAssertNotNil(failure(withHeaderField(field, 0x7FFF_FFFF)))
            XCTAssertTrue(failure(withHeaderField(field, 0xFFFF_FFFF))?.message.contains("is negative") ?? false)
        }
    }

    func testOffsetsOutsideTheFileFail() {
        for field in [3, 5, 7, 9] {
            XCTAssertTrue(failure(withHeaderField(field, 0x7FFF_FFFF))?.message.contains("outside the file") ?? false)
            XCTAssertTrue(failure(withHeaderField(field, 10))?.message.contains("outside the file") ?? false)
        }
    }

    func testBadVarintsFail() {
        // A nib whose key length is a varint of eleven bytes, then one of ten past 64 bits.
        let keyTable = 50 + 3
        func withKeyLength(_ varint: [UInt8]) -> [UInt8] {
            let b = Sample.make([Sample.Object(0, [("k", .null)])], classes: [("NSObject", [])])
            var out = Array(b[..<keyTable]) + varint + Array(b[(keyTable + 1)...])
            // The value and class tables moved by the longer varint.
            for field in [7, 9] {
                let at = 10 + 4 * field
                let old = UInt32(out[at]) | UInt32(out[at + 1]) << 8
                out.replaceSubrange(at..<(at + 4), with: Sample.le(old + UInt32(varint.count - 1)))
            }
            return out
        }
        XCTAssertTrue(failure(withKeyLength([UInt8](repeating: 0, count: 10) + [0x81]))?.message.contains("varint") ?? false)
        XCTAssertTrue(failure(withKeyLength([UInt8](repeating: 0x7F, count: 9) + [0xFF]))?.message.contains("varint") ?? false)
        // The largest a varint may say, as a length: more bytes than are left.
        XCTAssertNotNil(failure(withKeyLength([UInt8](repeating: 0x7F, count: 8) + [0xFF])))
    }

    func testReferencesOutOfRangeFail() {
        let cases: [([Sample.Object], [(name: String, fallbacks: [Int32])], String)] = [
            ([Sample.Object(0, [("a", .object(1))])], [("NSObject", [])], "refers to object 1, of 1"),
            ([Sample.Object(1, [])], [("NSObject", [])], "of class 1, of 1"),
            ([Sample.Object(0, [])], [("NSObject", [1])], "falls back to class 1, of 1"),
            ([Sample.Object(0, [])], [("NSObject", [-1])], "falls back to class -1"),
        ]
        for (objects, classes, message) in cases {
            let error = failure(Sample.make(objects, classes: classes))
            XCTAssertTrue(error?.message.contains(message) ?? false, error?.message ?? "")
        }
        // A value whose key index is past the key table.
        var b = Sample.make([Sample.Object(0, [("a", .null)])], classes: [("NSObject", [])])
        let valuesAt = Int(b[38]) | Int(b[39]) << 8
        b[valuesAt] = 0x85
        XCTAssertTrue(failure(b)?.message.contains("has key 5, of 1") ?? false)
        // An unknown value type.
        b[valuesAt] = 0x80
        b[valuesAt + 1] = 11
        XCTAssertTrue(failure(b)?.message.contains("unknown type 11") ?? false)
    }

    /// Objects whose value ranges overlap cannot make the reader read a
    /// value more often than the table holds values (no quadratic input).
    func testOverlappingValueRangesFail() {
        var b = Sample.make([Sample.Object(0, [("a", .null), ("b", .null)]), Sample.Object(0, [])], classes: [("NSObject", [])])
        // The second object claims the first one's two values too.
        let objectsAt = 50
        XCTAssertEqual(Array(b[(objectsAt + 3)..<(objectsAt + 6)]), [0x80, 0x82, 0x80])
        b[objectsAt + 3 + 1] = 0x80
        b[objectsAt + 3 + 2] = 0x82
        XCTAssertTrue(failure(b)?.message.contains("more values (4) than the value table (2)") ?? false)
    }

    func testBadNamesFail() {
        var b = Sample.make([Sample.Object(0, [("a", .null)])], classes: [("NSObject", [])])
        let classesAt = Int(b[46]) | Int(b[47]) << 8
        b[b.count - 1] = UInt8(ascii: "x")  // the class name's NUL
        XCTAssertTrue(failure(b)?.message.contains("not a UTF-8 name ending in NUL") ?? false)
        b = Sample.make([Sample.Object(0, [("a", .null)])], classes: [("NSObject", [])])
        b[classesAt + 2] = 0xC3  // a lead byte with no continuation
        XCTAssertNotNil(failure(b))
        b = Sample.make([Sample.Object(0, [("a", .null)])], classes: [("NSObject", [])])
        let keysAt = Int(b[30]) | Int(b[31]) << 8
        b[keysAt + 1] = 0xFF
        XCTAssertTrue(failure(b)?.message.contains("key 0 is not UTF-8") ?? false)
    }

    /// Objects that refer to themselves and to each other read, and every
    /// view of the graph ends.
    func testSelfReferencesReadAndEnd() throws {
        let b = Sample.make([Sample.Object(0, [("me", .object(0)), ("other", .object(1))]),
                             Sample.Object(1, [("UINibEncoderEmptyKey", .object(1)), ("UINibEncoderEmptyKey", .object(0))])],
                            classes: [("UIView", []), ("NSArray", [])])
        let graph = try ObjectGraph(try PlistTree(try read(b)))
        XCTAssertEqual(graph.objectCount, 2)
        XCTAssertEqual(graph.edges(of: 2), [2, 1])
        let text = try ArchiveDumper.render(graph)
        XCTAssertTrue(text.contains("me = -> @1"), text)
        XCTAssertEqual(graph.readFrom, "NIBArchive")
    }

    /// A key that starts with `$` is escaped as NSKeyedArchiver escapes one,
    /// so it cannot pose as `$class`; a key given more than once is an array.
    func testKeysCannotPoseAsTheEnvelopes() throws {
        let b = Sample.make([Sample.Object(0, [("$class", .int8(-1)), ("k", .int8(1)), ("j", .int8(0)), ("k", .int8(2))])], classes: [("NSObject", [])])
        guard case .dictionary(let archive) = try read(b), case .array(let objects)? = archive["$objects"],
              case .dictionary(let object) = objects[1] else { return XCTFail("not an archive") }
        XCTAssertEqual(object.keys, ["$class", "$$class", "k", "j"])
        XCTAssertEqual(object["j"], .int(0))
        XCTAssertEqual(object["$class"], .uid(2))
        XCTAssertEqual(object["$$class"], .int(-1))
        XCTAssertEqual(object["k"], .array([.int(1), .int(2)]))
    }

    /// Every value type maps to the tree's: signed integers of each width,
    /// booleans (4 false, 5 true), a float and a double, data, nil.
    func testValueTypesMapToTheTree() throws {
        let b = Sample.make([Sample.Object(0, [("i8", .int8(-2)), ("i16", .int16(-3)), ("i32", .int32(-4)), ("i64", .int64(.min)),
                                               ("f", .bool(false)), ("t", .bool(true)), ("r", .float(0.1)), ("d", .double(0.1)),
                                               ("data", .data([1, 2])), ("nil", .null)])], classes: [("NSObject", [])])
        guard case .dictionary(let archive) = try read(b), case .array(let objects)? = archive["$objects"],
              case .dictionary(let o) = objects[1] else { return XCTFail("not an archive") }
        XCTAssertEqual(o["i8"], .int(-2))
        XCTAssertEqual(o["i16"], .int(-3))
        XCTAssertEqual(o["i32"], .int(-4))
        XCTAssertEqual(o["i64"], .int(.min))
        XCTAssertEqual(o["f"], .bool(false))
        XCTAssertEqual(o["t"], .bool(true))
        XCTAssertEqual(o["r"], .real(PlistReal(float: 0.1)))
        XCTAssertEqual(o["d"], .double(0.1))
        XCTAssertEqual(o["data"], .data([1, 2]))
        XCTAssertEqual(o["nil"], .uid(0))
    }

    /// A dictionary's members alternate keys and values; an odd number of
    /// them is no dictionary's, and stays as read.
    func testCollectionsNameTheirMembersAsKeyedArchivesDo() throws {
        let m = "UINibEncoderEmptyKey"
        let b = Sample.make([Sample.Object(0, [(m, .object(1)), (m, .object(2)), (m, .object(3)), (m, .object(1))]),
                             Sample.Object(0, [(m, .object(1)), (m, .object(2)), (m, .object(3))]),
                             Sample.Object(1, [("NSInlinedValue", .bool(true)), (m, .object(0))]),
                             Sample.Object(1, [])],
                            classes: [("NSMutableDictionary", []), ("NSSet", [])])
        guard case .dictionary(let archive) = try read(b), case .array(let o)? = archive["$objects"], o.count == 7,
              case .dictionary(let map) = o[1], case .dictionary(let odd) = o[2], case .dictionary(let set) = o[3],
              case .dictionary(let empty) = o[4] else { return XCTFail("not an archive") }
        XCTAssertEqual(map.keys, ["$class", "NS.keys", "NS.objects"])
        XCTAssertEqual(map["NS.keys"], .array([.uid(2), .uid(4)]))
        XCTAssertEqual(map["NS.objects"], .array([.uid(3), .uid(2)]))
        XCTAssertEqual(odd.keys, ["$class", m])
        XCTAssertEqual(odd[m], .array([.uid(2), .uid(3), .uid(4)]))
        XCTAssertEqual(set.keys, ["$class", "NSInlinedValue", "NS.objects"])
        XCTAssertEqual(set["NS.objects"], .array([.uid(1)]))
        XCTAssertEqual(empty.keys, ["$class"])
    }
}
