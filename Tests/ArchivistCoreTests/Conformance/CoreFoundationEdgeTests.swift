import Foundation
import XCTest
@testable import ArchivistCore

/// Inputs on the edges of the formats where Archivist once disagreed with
/// CoreFoundation, each checked against Foundation on Linux.
final class CoreFoundationEdgeTests: XCTestCase {
    /// A small deterministic generator, so a failure names a reproducible input.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    private func xml(_ body: [UInt8], element: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<\(element)>".utf8) + body + Array("</\(element)>\n</plist>\n".utf8)
    }

    /// Both XML paths (the direct reader and libxml2's), which must agree.
    private func readBothWays(_ bytes: [UInt8]) -> (direct: Result<PlistValue, Error>, libxml: Result<PlistValue, Error>) {
        bytes.withUnsafeBytes { b in
            (Result { try XMLPlistReader.read(b, options: ReadOptions(), direct: true).tree.value },
             Result { try XMLPlistReader.read(b, options: ReadOptions(), direct: false).tree.value })
        }
    }

    // MARK: - <data>

    /// `=` anywhere in `<data>` text, runs of it across groups, whitespace
    /// between them, junk characters: the bytes are Foundation's.
    func testDataTextWithPaddingAnywhereDecodesAsFoundation() throws {
        var bodies = ["A===", "====", "AQ==AQ==", "AQ======AQID", "A=B=C=D=", "AQ== ==AAAA", "AB=CD",
                      "AQ=QI", "=AQI", "AQI=====", "AQ=\n=\tAQID", "A*=*=*=Q"]
        var g = Generator(state: 17)
        let alphabet = Array("AQIDBwz09+/=== \n\t*-.".utf8)
        for _ in 0..<400 {
            bodies.append(String(decoding: (0..<(1 + g.next(24))).map { _ in alphabet[g.next(alphabet.count)] }, as: UTF8.self))
        }
        for body in bodies {
            let bytes = xml(Array(body.utf8), element: "data")
            let expected = try FoundationBridge.foundationRead(bytes)
            let (direct, libxml) = readBothWays(bytes)
            XCTAssertEqual(try direct.get(), expected, body.debugDescription)
            XCTAssertEqual(try libxml.get(), expected, body.debugDescription)
        }
    }

    /// The XML Archivist writes for such a file is Foundation's.
    func testDataTextConvertsToFoundationsXML() throws {
        let bytes = xml(Array("AQ======AQID A===".utf8), element: "data")
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let foundationXML = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        let ours = try PropertyList.write(try PropertyList.read(bytes).tree.value, as: .xml)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: foundationXML, as: UTF8.self))
    }

    /// A byte outside ASCII in `<data>` is refused, as Foundation refuses it,
    /// on the line it is on.
    func testNonASCIIInDataIsRefused() throws {
        for body: [UInt8] in [[0x41, 0x51, 0xC3, 0xA9, 0x49, 0x44], [0x41, 0x51, 0x80, 0x49], Array("AQID\u{00A0}".utf8)] {
            let bytes = xml(body, element: "data")
            XCTAssertThrowsError(try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
            let (direct, libxml) = readBothWays(bytes)
            for result in [direct, libxml] {
                XCTAssertThrowsError(try result.get()) { error in
                    guard let e = error as? PlistError else { return XCTFail("\(error)") }
                    if case .text(let line, _) = e.location { XCTAssertEqual(line, 3) } else { XCTFail("\(e.location)") }
                }
            }
        }
    }

    /// CoreFoundation decodes the raw text of `<data>`: the letters of an
    /// entity or character reference are base64 to it, and a comment, CDATA
    /// section or processing instruction inside is refused. In UTF-8 and
    /// UTF-16 alike, the bytes or the refusal are Foundation's.
    func testDataTextIsReadRawAsFoundation() throws {
        let bodies = ["AQ&amp;ID", "AQ&#65;ID", "&lt;AQID&gt;", "AQ&#x41;&quot;ID==", "A&apos;Q==", "AQ<!-- c -->ID",
                      "<![CDATA[AQID]]>", "AQ<?pi x?>ID", "AQID<!---->"]
        for body in bodies {
            let utf8 = xml(Array(body.utf8), element: "data")
            let text = String(decoding: utf8, as: UTF8.self)
            let utf16 = [UInt8]([0xFF, 0xFE]) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            for bytes in [utf8, utf16] {
                let foundation = Result { try FoundationBridge.foundationRead(bytes) }
                let (direct, libxml) = readBothWays(bytes)
                for ours in [direct, libxml] {
                    switch (foundation, ours) {
                    case (.success(let expected), .success(let value)): XCTAssertEqual(value, expected, body)
                    case (.failure, .failure(let error)): XCTAssertEqual((error as? PlistError)?.kind, .syntax, body)
                    default: XCTFail("\(body): Foundation \(foundation), Archivist \(ours)")
                    }
                }
            }
        }
    }

    // MARK: - <date>

    /// CoreFoundation reads `<date>` as exactly `YYYY-MM-DDTHH:MM:SSZ`: a
    /// fraction of a second or surrounding whitespace is refused.
    func testXMLDatesAreStrictAsFoundation() throws {
        for (text, valid) in [("2024-01-01T00:00:00Z", true), ("-0044-03-15T12:00:00Z", true), ("2024-01-01T00:00:00.5Z", false),
                              (" 2024-01-01T00:00:00Z", false), ("2024-01-01T00:00:00Z\n", false)] {
            let bytes = xml(Array(text.utf8), element: "date")
            let foundation = Result { try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) }
            let (direct, libxml) = readBothWays(bytes)
            XCTAssertEqual((try? foundation.get()) != nil, valid, text)
            XCTAssertEqual((try? direct.get()) != nil, valid, text)
            XCTAssertEqual((try? libxml.get()) != nil, valid, text)
        }
    }

    /// JSON output keeps the fraction of a second, with as many digits as the
    /// date needs, and they read back to the same `Double`.
    func testJSONDatesKeepTheirFraction() throws {
        var seconds: [Double] = [730_907_159.75, 0.5, -0.5, 0.999999, -0.25, 1e-7, -1e-7, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 123.456,
                                 -63_113_904_000.125, 3e10 + 0.1, 1e15 - 0.5, 0.1, -978_307_200.001]
        var g = Generator(state: 5)
        for _ in 0..<2000 {
            let magnitude = Double(g.next(1 << 30)) * Double(1 << g.next(20)) / Double(1 << 20)
            let value = Double(bitPattern: magnitude.bitPattern ^ UInt64(g.next(1 << 12)))
            seconds.append(g.next(2) == 0 ? value : -value)
        }
        for t in seconds {
            let json = try PropertyList.write(.date(PlistDate(secondsSinceReferenceDate: t)), as: .json)
            let text = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? String)
            XCTAssertEqual(ISO8601.parse(Array(text.utf8))?.secondsSinceReferenceDate, t, text)
            // Whole seconds as Foundation writes them (in the Gregorian years it
            // writes as Archivist does, 1601 to 9999), then the fraction.
            if t > -12_600_000_000, t < 250_000_000_000 {
                let wholeText = ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: t.rounded(.down)))
                XCTAssertTrue(text.hasPrefix(String(wholeText.dropLast())), "\(text) vs \(wholeText)")
            }
            XCTAssertEqual(text.contains("."), t != t.rounded(.down), text)
            // The digits are the shortest that read back: one fewer does not.
            if let dot = text.firstIndex(of: "."), text.index(dot, offsetBy: 2) < text.endIndex {
                let shorter = String(text[..<text.index(text.endIndex, offsetBy: -2)]) + "Z"
                XCTAssertNotEqual(ISO8601.parse(Array(shorter.utf8))?.secondsSinceReferenceDate, t, text)
            }
        }
    }

    /// Foundation's own ISO 8601 parser reads the fractions it can (milliseconds).
    func testJSONDateFractionsReadInFoundation() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for t in [730_907_159.75, 730_907_159.5, 730_907_159.125, -0.25, -86_400.5] {
            let json = try PropertyList.write(.date(PlistDate(secondsSinceReferenceDate: t)), as: .json)
            let text = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? String)
            XCTAssertEqual(formatter.date(from: text)?.timeIntervalSinceReferenceDate, t, text)
        }
    }

    // MARK: - Binary counts and UIDs

    /// A count of 2 written as an integer of 2^k bytes (leading bytes `high`).
    private func count2(log2 k: UInt8, high: UInt8 = 0) -> [UInt8] {
        let width = 1 << Int(k)
        var bytes = [UInt8](repeating: 0, count: width)
        bytes[width - 1] = 2
        if width > 8 { bytes[0] = high }
        return [0x10 | k] + bytes
    }

    /// Counts written as integers of 1 to 128 bytes read as in Foundation
    /// (only the last 8 bytes count), for arrays, dictionaries, strings and data.
    func testWideCountsReadAsFoundation() throws {
        for k: UInt8 in 0...7 {
            for high: UInt8 in [0, 1] {
                let count = count2(log2: k, high: high)
                let cases = [
                    Fixtures.bplist([[0xAF] + count + [1, 1], [0x10, 7]]),
                    Fixtures.bplist([[0x5F] + count + Array("ab".utf8)]),
                    Fixtures.bplist([[0x4F] + count + [0xFE, 0xFF]]),
                    Fixtures.bplist([[0xA1, 1], [0x6F] + count + [0, 0x61, 0, 0xE9]]),
                ]
                for bytes in cases {
                    let expected = try FoundationBridge.foundationRead(bytes)
                    XCTAssertNotNil(expected)
                    XCTAssertEqual(try BinaryPlistReader.read(bytes).tree.value, expected, "count of \(1 << Int(k)) bytes")
                }
            }
        }
        // The last 8 bytes of a 16-byte count are the count, in dictionaries too.
        let dict = Fixtures.bplist([[0xDF, 0x14] + [UInt8](repeating: 0, count: 15) + [1] + [1, 2], [0x51, 0x61], [0x10, 7]])
        XCTAssertEqual(try BinaryPlistReader.read(dict).tree.value, try FoundationBridge.foundationRead(dict))
    }

    /// The UID Foundation reads from `bytes`, through its own XML.
    private func foundationUID(_ bytes: [UInt8]) throws -> PlistValue? {
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        return try PropertyList.read([UInt8](xml)).tree.value
    }

    /// UIDs written in 1 to 16 bytes read as in Foundation (the last 8 bytes
    /// count); a UID above 2^32-1 is refused, as Foundation refuses it.
    func testUIDWidthsAndRangeAsFoundation() throws {
        for width in 1...16 {
            var payload = [UInt8](repeating: 0, count: width)
            payload[width - 1] = 5
            if width > 1 { payload[width - 2] = 1 }
            if width > 8 { payload[0] = 0x7F }
            let bytes = Fixtures.bplist([[0x80 | UInt8(width - 1)] + payload])
            let ours = try BinaryPlistReader.read(bytes).tree.value
            XCTAssertEqual(ours, try foundationUID(bytes), "UID of \(width) bytes")
        }
        for payload: [UInt8] in [[1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]] {
            let bytes = Fixtures.bplist([[0x80 | UInt8(payload.count - 1)] + payload])
            XCTAssertThrowsError(try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil))
            XCTAssertThrowsError(try BinaryPlistReader.read(bytes)) { error in
                XCTAssertEqual((error as? PlistError)?.location, .binary(offset: 8, object: 0))
            }
        }
        let largest = Fixtures.bplist([[0x83, 0xFF, 0xFF, 0xFF, 0xFF]])
        XCTAssertEqual(try BinaryPlistReader.read(largest).tree.value, .uid(4_294_967_295))
        XCTAssertEqual(try foundationUID(largest), .uid(4_294_967_295))
        // Nor is such a UID written, where Foundation could not read it back.
        XCTAssertEqual(try foundationUID(try PropertyList.write(.array([.uid(4_294_967_295)]), as: .binary)), .array([.uid(4_294_967_295)]))
        XCTAssertThrowsError(try PropertyList.write(.array([.uid(4_294_967_296)]), as: .binary)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .notRepresentable)
        }
    }
}
