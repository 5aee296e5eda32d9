import Foundation
import XCTest
@testable import ArchivistCore

/// A tree that exercises every scalar type and edge the formats have.
enum SampleTrees {
    static var everyType: PlistValue {
        var d = PlistDictionary()
        d["string"] = .string("hello")
        d["unicode"] = .string("héllo wörld ✓ 😀 𝄞")
        d["empty"] = .string("")
        d["int0"] = .int(0)
        d["int8"] = .int(200)
        d["int16"] = .int(60_000)
        d["int32"] = .int(4_000_000_000)
        d["int64"] = .int(Int64.max)
        d["intMin"] = .int(Int64.min)
        d["neg"] = .int(-1)
        d["uintMax"] = .integer(PlistInteger(UInt64.max))
        d["double"] = .double(0.1)
        d["float"] = .real(PlistReal(float: 0.1))
        d["negZero"] = .double(-0.0)
        d["inf"] = .double(.infinity)
        d["true"] = .bool(true)
        d["false"] = .bool(false)
        d["date"] = .date(PlistDate(secondsSinceReferenceDate: 730_907_159.5))
        d["oldDate"] = .date(PlistDate(secondsSinceReferenceDate: -63_113_904_000))
        d["futureDate"] = .date(PlistDate(secondsSinceReferenceDate: 3e10))
        d["data"] = .data(Array(0..<255))
        d["bigData"] = .data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        d["emptyData"] = .data([])
        d["emptyArray"] = .array([])
        d["emptyDict"] = .dictionary(PlistDictionary())
        d["array"] = .array((0..<40).map { .int(Int64($0)) })
        var nested = PlistValue.string("bottom")
        for i in 0..<100 { nested = i % 2 == 0 ? .array([nested]) : .dictionary(PlistDictionary([("k", nested)])) }
        d["nested"] = nested
        return .dictionary(d)
    }
}

final class BinaryOracleTests: XCTestCase {
    func testFoundationReadsWhatArchivistWrites() throws {
        let tree = SampleTrees.everyType
        let bytes = try PropertyList.write(tree, as: .binary)
        XCTAssertEqual(try FoundationBridge.foundationRead(bytes), tree)
        XCTAssertEqual(try BinaryPlistReader.read(bytes).tree.value, tree)
    }

    func testArchivistReadsWhatFoundationWrites() throws {
        let tree = SampleTrees.everyType
        guard let bytes = try FoundationBridge.foundationWrite(tree, format: .binary) else { return XCTFail("bridge") }
        XCTAssertEqual(try BinaryPlistReader.read(bytes).tree.value, tree)
    }

    func testDeterministicAndScalarsShared() throws {
        let tree = PlistValue.array(Array(repeating: .string("the same string, many times"), count: 1000))
        let a = try PropertyList.write(tree, as: .binary)
        XCTAssertEqual(a, try PropertyList.write(tree, as: .binary))
        XCTAssertLessThan(a.count, 3000)
        // Canonically equivalent strings stay distinct objects.
        let b = try PropertyList.write(.array([.string("\u{E9}"), .string("e\u{301}")]), as: .binary)
        guard case .array(let items) = try BinaryPlistReader.read(b).tree.value else { return XCTFail() }
        XCTAssertEqual(items.map { Array($0.stringValue?.utf8 ?? "".utf8) }, [[0xC3, 0xA9], [0x65, 0xCC, 0x81]])
    }

    func testMinimalIntegerWidths() throws {
        XCTAssertEqual(Array(try PropertyList.write(.int(5), as: .binary)[8...9]), [0x10, 5])
        XCTAssertEqual(Array(try PropertyList.write(.int(-1), as: .binary)[8...16]), [0x13, 255, 255, 255, 255, 255, 255, 255, 255])
        XCTAssertEqual(try PropertyList.write(.integer(PlistInteger(UInt64.max)), as: .binary)[8], 0x14)
    }
}

final class BinaryHostileTests: XCTestCase {
    /// Builds a bplist from raw object bytes with 1-byte refs and offsets.
    func make(_ objects: [[UInt8]], top: UInt8 = 0) -> [UInt8] {
        Fixtures.bplist(objects, top: top)
    }

    func testDirectCycle() {
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0xA1, 0x00]]))) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .cycle)
            XCTAssertEqual((e as? PlistError)?.location, .binary(offset: 8, object: 0))
        }
    }

    func testIndirectCycle() {
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0xA1, 0x01], [0xA1, 0x00]]))) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .cycle)
        }
    }

    func testSharedSubtreeIsNotACycle() throws {
        let doc = try BinaryPlistReader.read(make([[0xA2, 0x01, 0x01], [0xA1, 0x02], [0x10, 0x07]]))
        XCTAssertEqual(doc.tree.value, .array([.array([.int(7)]), .array([.int(7)])]))
    }

    func testExponentialSharingIsBounded() throws {
        // 40 levels of arrays that each reference the next level twice: 2^40 nodes.
        var objects: [[UInt8]] = []
        for i in 0..<40 { objects.append([0xA2, UInt8(i + 1), UInt8(i + 1)]) }
        objects.append([0x10, 0x01])
        var limits = Limits()
        limits.maxObjects = 1_000_000
        XCTAssertThrowsError(try make(objects).withUnsafeBytes { try BinaryPlistReader.read($0, options: ReadOptions(limits: limits)) }) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .limitExceeded)
        }
    }

    func testHugeCountsAreRejectedBeforeAllocation() {
        // An array that claims 2^60 elements.
        let huge: [UInt8] = [0xAF, 0x13, 0x10, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertThrowsError(try BinaryPlistReader.read(make([huge])))
        // A string that claims 4 GiB.
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0x5F, 0x12, 0xFF, 0xFF, 0xFF, 0xFF]])))
    }

    func testBadRefsAndKeys() {
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0xA1, 0x09]])))
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0xD1, 0x01, 0x01], [0x10, 0x01]]))) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .corrupt)
        }
        XCTAssertThrowsError(try BinaryPlistReader.read(make([[0x10, 0x01]], top: 3)))
    }

    func testUnsupportedVersion() {
        var bytes = make([[0x09]])
        bytes[6] = UInt8(ascii: "1"); bytes[7] = UInt8(ascii: "5")
        XCTAssertThrowsError(try PropertyList.read(bytes)) { e in XCTAssertEqual((e as? PlistError)?.kind, .unsupported) }
    }

    func testDuplicateKeysAndLoneSurrogates() throws {
        let repeated = make([[0xD2, 1, 1, 2, 3], [0x51, 0x61], [0x10, 1], [0x10, 2]])
        let doc = try BinaryPlistReader.read(repeated)
        XCTAssertEqual(doc.tree.value, .dictionary(PlistDictionary([("a", .int(1))])), "CoreFoundation keeps the first value")
        XCTAssertEqual(try FoundationBridge.foundationRead(repeated), doc.tree.value)
        XCTAssertEqual(doc.diagnostics.map(\.kind), [.duplicateKey])
        // The same text in separate key objects: ASCII, ASCII beside UTF-16,
        // long keys, and two lone surrogates (both read as U+FFFD).
        let separate = try BinaryPlistReader.read(make([[0xD3, 1, 2, 3, 4, 4, 4], [0x51, 0x61], [0x51, 0x62], [0x51, 0x61], [0x10, 1]]))
        XCTAssertEqual(separate.diagnostics.map(\.kind), [.duplicateKey])
        let mixed = try BinaryPlistReader.read(make([[0xD2, 1, 2, 3, 3], [0x52, 0x61, 0x62], [0x62, 0, 0x61, 0, 0x62], [0x10, 1]]))
        XCTAssertEqual(mixed.diagnostics.map(\.kind), [.duplicateKey])
        let long = Array("abcdefghijklmnopq".utf8)
        let longKeys = try BinaryPlistReader.read(make([[0xD2, 1, 2, 3, 3], [0x5F, 0x10, 17] + long, [0x5F, 0x10, 17] + long, [0x10, 1]]))
        XCTAssertEqual(longKeys.diagnostics.map(\.kind), [.duplicateKey])
        let seven = try BinaryPlistReader.read(make([[0xD2, 1, 2, 3, 3], [0x57] + long.prefix(7), [0x57] + long.prefix(6) + [0x7A], [0x10, 1]]))
        XCTAssertEqual(seven.diagnostics.map(\.kind), [])
        let surrogates = try BinaryPlistReader.read(make([[0xD2, 1, 2, 3, 3], [0x61, 0xD8, 0x00], [0x61, 0xDC, 0x00], [0x10, 1]]))
        XCTAssertEqual(surrogates.diagnostics.map(\.kind).filter { $0 == .duplicateKey }, [.duplicateKey])
        // UTF-16 keys with a duplicate before another key.
        let utf16 = try BinaryPlistReader.read(make([[0xD3, 1, 2, 3, 4, 4, 4], [0x61, 0, 0x61], [0x61, 0, 0x61], [0x61, 0, 0x62], [0x10, 1]]))
        XCTAssertEqual(utf16.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(utf16.tree.value.dictionaryValue?.keys, ["a", "b"])
        // 30 keys in separate objects, one repeated.
        var objects: [[UInt8]] = [[0xDF, 0x10, 30] + (1...30).map(UInt8.init) + Array(repeating: UInt8(31), count: 30)]
        for k in 0..<30 {
            let text = Array("kk\(k == 29 ? 3 : k)".utf8)
            objects.append([0x50 | UInt8(text.count)] + text)
        }
        objects.append([0x10, 1])
        let thirty = try BinaryPlistReader.read(make(objects))
        XCTAssertEqual(thirty.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(thirty.tree.value.dictionaryValue?.count, 29)
        // 20 and 80 long keys written by Archivist, one repeated (the same key
        // object twice: the writer writes a key once, so its last key
        // reference is made to point at key 5's object).
        for total in [20, 80] {
            var d = PlistDictionary()
            for k in 0..<total { d.appendUnchecked(key: "a rather long key number \(k)", value: .int(Int64(k))) }
            var bytes = try PropertyList.write(.dictionary(d), as: .binary)
            // The top dictionary: 0xDF, its count (0x10 n), then 1-byte key references.
            XCTAssertEqual(Array(bytes[8...10]), [0xDF, 0x10, UInt8(total)])
            bytes[11 + total - 1] = bytes[11 + 5]
            let doc = try PropertyList.read(bytes)
            XCTAssertEqual(doc.diagnostics.map(\.kind), [.duplicateKey], "\(total) keys")
            XCTAssertEqual(doc.tree.value.dictionaryValue?.count, total - 1)
        }
        let lone = try BinaryPlistReader.read(make([[0x61, 0xD8, 0x00]]))
        XCTAssertEqual(lone.tree.value, .string("\u{FFFD}"))
        XCTAssertEqual(lone.diagnostics.map(\.kind), [.loneSurrogate])
    }
}
