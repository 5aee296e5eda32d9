import Foundation
import XCTest
@testable import ArchivistCore

/// Text with control characters — every C0 control (NUL included), DEL, the C1
/// controls, U+FFFE, U+FFFF and U+FDD0 — in keys and values: every writer's
/// output reads back to the same tree with Archivist's own reader, or the
/// writer refuses it; XML output is what Foundation writes, and Foundation
/// reads it back. (A lone surrogate is not representable: readers replace it
/// before it reaches a tree, so no writer is given one.)
final class ControlCharacterRoundTripTests: XCTestCase {
    /// The characters XML 1.0 forbids or that terminals act on, and the
    /// marker character the XML reader uses for them.
    static let scalars: [Unicode.Scalar] = {
        var values = Array(UInt32(0)...0x1F) + [0x7F] + Array(UInt32(0x80)...0x9F) + [0xFFFE, 0xFFFF, 0xFDD0]
        values += [0x2028, 0x1F600]
        return values.compactMap(Unicode.Scalar.init)
    }()

    /// One entry per character, in the key and the value, plus a key that is
    /// only the character and one string holding them all.
    static func sample() -> PlistValue {
        var dict = PlistDictionary()
        var all = ""
        for s in scalars {
            let c = String(Character(s))
            dict["k" + c + "k"] = .string("v" + c + "v")
            dict[c] = .array([.string(c), .string(c + c)])
            all += c
        }
        dict["all"] = .string(all)
        dict["crlf"] = .string("a\r\nb\rc\n")
        dict["entities"] = .string("&#27; &amp; <tag> ]]> &#xFDD0;")
        return .dictionary(dict)
    }

    func testEveryWriterReadsBack() throws {
        let value = Self.sample()
        for format in PlistFormat.allCases {
            let bytes: [UInt8]
            do {
                bytes = try PropertyList.write(value, as: format)
            } catch {
                XCTFail("\(format) refuses text it should carry: \(error)")
                continue
            }
            XCTAssertEqual(try PropertyList.read(bytes).tree.value, value, "\(format)")
        }
    }

    /// Each character alone, in a key and in a value, so a failure names it.
    func testEachCharacterReadsBackFromEveryWriter() throws {
        for s in Self.scalars {
            let c = String(Character(s))
            var dict = PlistDictionary()
            dict["a" + c] = .string(c + "b")
            let value = PlistValue.dictionary(dict)
            for format in PlistFormat.allCases {
                let name = "\(format) U+\(String(s.value, radix: 16, uppercase: true))"
                guard let bytes = XCTAssertNoThrowResult(try PropertyList.write(value, as: format), name) else { continue }
                XCTAssertEqual(try PropertyList.read(bytes).tree.value, value, name)
            }
        }
    }

    /// XML output: byte for byte Foundation's, read by Foundation to the same
    /// tree, and read alike by the direct reader and libxml2's path.
    func testXMLOutputIsFoundationsAndFoundationReadsIt() throws {
        let value = Self.sample()
        let ours = try PropertyList.write(value, as: .xml)
        XCTAssertEqual(try FoundationBridge.foundationWrite(value, format: .xml), ours)
        XCTAssertEqual(try FoundationBridge.foundationRead(ours), value)
        try ours.withUnsafeBytes { b in
            XCTAssertEqual(try XMLPlistReader.read(b, options: ReadOptions(), direct: true).tree.value, value)
            XCTAssertEqual(try XMLPlistReader.read(b, options: ReadOptions(), direct: false).tree.value, value)
        }
    }

    /// Binary and JSON written by Foundation, converted to XML by Archivist,
    /// read back by Archivist: the `convert` of a file Foundation wrote.
    func testFoundationBinaryConvertedToXMLReadsBack() throws {
        let value = Self.sample()
        let binary = try XCTUnwrap(FoundationBridge.foundationWrite(value, format: .binary))
        let tree = try PropertyList.read(binary).tree.value
        XCTAssertEqual(tree, value)
        let xml = try PropertyList.write(tree, as: .xml)
        XCTAssertEqual(try PropertyList.read(xml).tree.value, value)
    }

    private func XCTAssertNoThrowResult<T>(_ body: @autoclosure () throws -> T, _ message: String) -> T? {
        do { return try body() } catch {
            XCTFail("\(message): \(error)")
            return nil
        }
    }
}
