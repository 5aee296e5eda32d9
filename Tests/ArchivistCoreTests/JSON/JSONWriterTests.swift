import Foundation
import XCTest
@testable import ArchivistCore

final class JSONWriterTests: XCTestCase {
    private func text(_ value: PlistValue, pretty: Bool = false) throws -> String {
        String(decoding: try PropertyList.write(value, as: .json, options: WriteOptions(pretty: pretty)), as: UTF8.self)
    }

    private let sample = PlistValue.dictionary(PlistDictionary([
        ("name", .string("Archivist")),
        ("count", .int(3)),
        ("ratio", .double(0.5)),
        ("on", .bool(true)),
        ("tags", .array([.string("a"), .array([]), .dictionary(PlistDictionary())])),
        ("nested", .dictionary(PlistDictionary([("off", .bool(false))]))),
    ]))

    func testCompactOutputKeepsStoredKeyOrder() throws {
        XCTAssertEqual(try text(sample),
                       #"{"name":"Archivist","count":3,"ratio":0.5,"on":true,"tags":["a",[],{}],"nested":{"off":false}}"#)
        XCTAssertEqual(try text(.array([])), "[]")
        XCTAssertEqual(try text(.string("x")), #""x""#)
    }

    func testPrettyOutput() throws {
        XCTAssertEqual(try text(sample, pretty: true), """
        {
          "name": "Archivist",
          "count": 3,
          "ratio": 0.5,
          "on": true,
          "tags": [
            "a",
            [],
            {}
          ],
          "nested": {
            "off": false
          }
        }

        """)
        XCTAssertEqual(try text(.dictionary(PlistDictionary()), pretty: true), "{}\n")
        XCTAssertEqual(try text(.int(1), pretty: true), "1\n")
    }

    func testIntegersAreExact() throws {
        XCTAssertEqual(try text(.array([.integer(PlistInteger(Int64.max)), .integer(PlistInteger(Int64.min)),
                                        .integer(PlistInteger(UInt64.max)), .int(9_007_199_254_740_993), .int(-1), .int(0)])),
                       "[9223372036854775807,-9223372036854775808,18446744073709551615,9007199254740993,-1,0]")
    }

    func testRealsAreShortestAndReadBack() throws {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (1.0, "1.0"), (-2.5, "-2.5"), (1e20, "1e+20"), (1e-7, "1e-07"), (-0.0, "-0.0"),
            (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (1.0 / 3, "0.3333333333333333"),
            (123456789.125, "123456789.125"), (1e16, "1e+16"),
        ]
        for (value, expected) in cases {
            XCTAssertEqual(try text(.double(value)), expected)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            let written = try PropertyList.write(.double(value), as: .json)
            guard case .real(let back) = try JSONPlistReader.read(written).tree.value else {
                XCTFail("\(value) did not read back as a real")
                continue
            }
            // (JSONSerialization on Linux is no oracle here: it misreads many
            // such texts by an ulp or more; strtod agrees with us.)
            XCTAssertEqual(back.value.bitPattern, value.bitPattern, "\(value)")
            XCTAssertEqual(Double(String(decoding: written, as: UTF8.self))?.bitPattern, value.bitPattern, "\(value)")
        }
    }

    func testNonFiniteRealsAreNotRepresentable() {
        for value in [Double.nan, .infinity, -.infinity] {
            XCTAssertThrowsError(try PropertyList.write(.dictionary(PlistDictionary([("a", .array([.int(1), .double(value)]))])), as: .json)) { error in
                XCTAssertEqual((error as? PlistError)?.kind, .notRepresentable)
                XCTAssertTrue((error as? PlistError)?.message.contains("\"a[1]\"") ?? false, "\(error)")
            }
        }
    }

    func testStringEscaping() throws {
        XCTAssertEqual(try text(.string("q\" b\\ / \n\r\t\u{8}\u{C} \u{0}\u{1}\u{1F}\u{7F} é😀 \u{2028}")),
                       "\"q\\\" b\\\\ / \\n\\r\\t\\b\\f \\u0000\\u0001\\u001f\u{7F} é😀 \u{2028}\"")
        // Keys are escaped the same way.
        XCTAssertEqual(try text(.dictionary(PlistDictionary([("a\"b", .int(1))]))), #"{"a\"b":1}"#)
    }

    func testAnEscapedCharacterAnywhereInALongStringIsEscaped() throws {
        // Plain text is passed over 8 bytes at a time: each position of a word, and the tail.
        let cases: [(String, String)] = [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1f}", #"\u001f"#)]
        for (special, shown) in cases {
            for p in 0...24 {
                let before = String(repeating: "a", count: p), after = String(repeating: "é/", count: 8 - p / 3)
                XCTAssertEqual(try text(.string(before + special + after)), "\"" + before + shown + after + "\"", "at \(p)")
                // Foundation reads it back.
                let data = try PropertyList.write(.array([.string(before + special + after)]), as: .json)
                XCTAssertEqual(try JSONSerialization.jsonObject(with: Data(data)) as? [String], [before + special + after])
            }
        }
    }

    func testTypesJSONLacks() throws {
        let date = PlistDate(secondsSinceReferenceDate: 730_907_159.75)
        XCTAssertEqual(try text(.array([.date(date), .data([0, 1, 2, 0xFF]), .data([]), .uid(7), .null])),
                       #"["2024-02-29T13:45:59.75Z","AAEC/w==","",{"CF$UID":7},null]"#)
        XCTAssertEqual(try text(.array([.uid(7)]), pretty: true), "[\n  {\"CF$UID\": 7}\n]\n")
        XCTAssertThrowsError(try PropertyList.write(.date(PlistDate(secondsSinceReferenceDate: .infinity)), as: .json)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .notRepresentable)
        }
    }

    func testRoundTripOfJSONTypes() throws {
        var dict = PlistDictionary()
        dict["ints"] = .array([.integer(PlistInteger(UInt64.max)), .integer(PlistInteger(Int64.min)), .int(0)])
        dict["reals"] = .array([.double(0.1), .double(-1e-300), .double(1e300)])
        dict["text"] = .string("tab\there \"quoted\" \u{1} 日本語 😀")
        dict["flags"] = .array([.bool(true), .bool(false)])
        dict[""] = .dictionary(PlistDictionary([("deep", .array([.array([.array([])])]))]))
        let value = PlistValue.dictionary(dict)
        for pretty in [false, true] {
            let written = try PropertyList.write(value, as: .json, options: WriteOptions(pretty: pretty))
            XCTAssertEqual(try JSONPlistReader.read(written).tree.value, value)
            let theirs = try JSONSerialization.jsonObject(with: Data(written))
            XCTAssertTrue(JSONCorpusTests.sameJSONValue(value, try XCTUnwrap(FoundationBridge.value(from: theirs))))
        }
    }

    func testDeepTreesDoNotRecurse() throws {
        var value = PlistValue.int(1)
        for _ in 0..<3_000 { value = .array([value]) }
        let written = try PropertyList.write(value, as: .json)
        XCTAssertEqual(written.count, 3_000 * 2 + 1)
    }

    func testBase64() {
        let vectors: [(String, String)] = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                                           ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            XCTAssertEqual(String(decoding: Base64.encode(Array(plain.utf8)), as: UTF8.self), encoded)
            XCTAssertEqual(Base64.decode(Array(encoded.utf8)), Array(plain.utf8))
        }
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        XCTAssertEqual(Base64.encode(bytes), Array(Data(bytes).base64EncodedString().utf8))
        XCTAssertEqual(Base64.decode(Array("Zm9v\n\tYmFy\r\n".utf8)), Array("foobar".utf8))
        XCTAssertEqual(Base64.decode(Array("Zm9vYg".utf8)), Array("foob".utf8), "padding may be left out")
        XCTAssertNil(Base64.decode(Array("Zm9v!".utf8)))
        XCTAssertNil(Base64.decode(Array("Zg==Zg==".utf8)))
        XCTAssertNil(Base64.decode(Array("Z".utf8)))
        XCTAssertNil(Base64.decode(Array("Zm9==".utf8)))
    }
}
