import XCTest
@testable import ArchivistArchive
import ArchivistCore

/// Typedstreams made byte by byte: Foundation's classes as values, shared
/// strings, classes and objects by reference, both byte orders, and hostile
/// streams refused at the cost of their size.
final class TypedstreamReaderTests: XCTestCase {
    static let header: [UInt8] = [4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]

    /// A new shared string (0x84, length, bytes).
    static func new(_ s: String) -> [UInt8] { [0x84, UInt8(s.utf8.count)] + Array(s.utf8) }

    /// `@` NSArray of an NSString "a" and an NSNumber 7 (`i`): classes,
    /// strings and a superclass given by reference.
    static let array: [UInt8] = header
        + new("@") + [0x84]                                                     // string 0 "@"; object 0 (the array)
        + [0x84] + new("NSArray") + [0x00] + [0x84] + new("NSObject") + [0x00, 0x85]  // classes 1, 2
        + new("i") + [0x02]                                                     // count 2 (string 3 "i")
        + [0x92, 0x84, 0x84] + new("NSString") + [0x01, 0x94]                  // object 3, class 4 < NSObject
        + new("+") + [0x01, UInt8(ascii: "a"), 0x86]
        + [0x92, 0x84, 0x84] + new("NSNumber") + [0x00, 0x84] + new("NSValue") + [0x00, 0x94]  // object 5, classes 6, 7
        + new("*") + [0x84, 0x95]                                               // C string "i" (object 8)
        + [0x95, 0x07, 0x86]
        + [0x86]

    func testFoundationClassesReadAsValues() throws {
        let graph = try ObjectGraph(try Typedstream.archive(Self.array))
        XCTAssertEqual(try ArchiveDumper.render(graph, options: DumpOptions()), """
            NSArchiver typedstream, 5 entries in $objects, 1 object
            {
              root = NSArray [
                "a"
                7
              ]
            }

            """)
        XCTAssertEqual(graph.classCensus().map(\.name.archived), ["NSArray"])
        XCTAssertEqual(graph.classCensus().first?.chain, ["NSArray", "NSObject"])
    }

    func testBigEndianStreamsAndPlainTopValues() throws {
        let bytes: [UInt8] = [4, 11] + Array("typedstream".utf8) + [0x81, 0x03, 0xE8] + Self.new("i") + [0x81, 0x01, 0x00] + [0x92, 0x05]
        let archive = try Typedstream.archive(bytes)
        let graph = try ObjectGraph(archive)
        XCTAssertEqual(graph.topEntries.map(\.key), ["root", "root1"])
        XCTAssertEqual(graph.topEntries.map(\.entry), [.value(.int(256)), .value(.int(5))])
    }

    func testPropertyListReadersNameATypedstream() {
        XCTAssertThrowsError(try PropertyList.read(Self.array)) { error in
            XCTAssertTrue("\(error)".contains("NSArchiver typedstream"), "\(error)")
        }
        XCTAssertTrue(Typedstream.looksLikeTypedstream(Self.array))
        XCTAssertFalse(Typedstream.looksLikeTypedstream(Array("bplist00".utf8)))
    }

    func testNestedInDataItIsShownAsAnArchive() throws {
        let text = try TreeDumper.render(.dictionary(PlistDictionary([("body", .data(Self.array))])))
        XCTAssertTrue(text.contains("holding an NSArchiver typedstream"), text)
        XCTAssertTrue(text.contains("\"a\""), text)
        guard case .node(let graph, let i) = try PlistKeyPath("body.root").resolve(in: .dictionary(PlistDictionary([("body", .data(Self.array))]))) else {
            return XCTFail("no object")
        }
        XCTAssertEqual(graph.object(i)?.className.archived, "NSArray")
    }

    func testAttributeRunsBecomeNSAttributeInfo() {
        let runs: [TypedstreamValue] = [.int(1), .uint(3), .object(5), .int(2), .uint(200), .object(6), .int(1), .uint(1)]
        XCTAssertEqual(TypedstreamFoundation.attributeInfo(runs[...]), [3, 0, 0xC8, 0x01, 1, 1, 0])
        XCTAssertNil(TypedstreamFoundation.attributeInfo(runs.prefix(3)), "one run needs no NSAttributeInfo")
        XCTAssertNil(TypedstreamFoundation.attributeInfo([.int(0), .uint(3), .int(1), .uint(2)]), "attribute numbers start at 1")
        XCTAssertEqual(TypedstreamFoundation.attributeDictionaries([.object(2)] + runs), [5, 6])
    }

    // MARK: Hostile streams

    func testEveryTruncationAndByteChangeFailsCleanly() {
        for n in 0..<Self.array.count {
            if let archive = try? Typedstream.archive(Array(Self.array.prefix(n))), let graph = try? ObjectGraph(archive) {
                _ = try? ArchiveDumper.render(graph)
            }
        }
        for i in Self.header.count..<Self.array.count {
            for b: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x92, 0xA0, 0xFF] {
                var bytes = Self.array
                bytes[i] = b
                if let archive = try? Typedstream.archive(bytes), let graph = try? ObjectGraph(archive) {
                    _ = try? ArchiveDumper.render(graph)
                }
            }
        }
    }

    func testDeepNestingIsRefused() {
        var bytes = Self.header + Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x85]
        for _ in 0..<300 { bytes += [0x92, 0x84, 0x93] }
        bytes += [0x92, 0x85] + [UInt8](repeating: 0x86, count: 301)
        XCTAssertThrowsError(try Typedstream.archive(bytes)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded, "\(error)")
        }
    }

    func testLongClassChainsAreRefused() {
        var bytes = Self.header + Self.new("@") + [0x84]
        for i in 0..<300 { bytes += [0x84] + Self.new("C\(i)") + [0x00] }
        bytes += [0x85, 0x86]
        XCTAssertThrowsError(try Typedstream.archive(bytes)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded, "\(error)")
        }
    }

    func testValuesThatTakeNoBytesAreBoundedByTheInput() {
        let bytes = Self.header + Self.new("[999999999!]")
        XCTAssertThrowsError(try Typedstream.archive(bytes)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded, "\(error)")
        }
        // One encoding of many `!`, referenced again and again.
        let bangs = String(repeating: "!", count: 200)
        var repeated = Self.header + [0x84, 0x81, 200, 0] + Array(bangs.utf8)
        for _ in 0..<200 { repeated.append(0x92) }
        XCTAssertThrowsError(try Typedstream.archive(repeated)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded, "\(error)")
        }
    }

    func testReferencesMustPointAtWhatWasRead() {
        for body: [UInt8] in [[0xA0], Self.new("@") + [0xA0], Self.new("@") + [0x84, 0x92], Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x92]] {
            XCTAssertThrowsError(try Typedstream.archive(Self.header + body)) { error in
                XCTAssertEqual((error as? PlistError)?.kind, .corrupt, "\(error)")
            }
        }
        XCTAssertThrowsError(try Typedstream.archive(Self.header + Self.new("{a=[3i]")))
        XCTAssertThrowsError(try Typedstream.archive(Self.header + Self.new("y")))
    }
}
