import Foundation
import XCTest
@testable import ArchivistCore

final class XMLWriterTests: XCTestCase {
    /// Archivist's XML is byte-identical to Foundation's for the same tree.
    func assertMatchesFoundation(_ tree: PlistValue, file: StaticString = #filePath, line: UInt = #line) throws {
        guard let expected = try FoundationBridge.foundationWrite(tree, format: .xml) else {
            return XCTFail("tree has no Foundation form", file: file, line: line)
        }
        let ours = try PropertyList.write(tree, as: .xml)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: expected, as: UTF8.self), file: file, line: line)
    }

    func testEveryTypeMatchesFoundation() throws {
        try assertMatchesFoundation(SampleTrees.everyType)
    }

    func testRealsMatchFoundation() throws {
        let values: [Double] = [1, 100, 2.5, 0.1, 1.0 / 3, 1e300, 1e-7, 1e15, 1e16, 1e21, 123456789.125, -0.0, .nan, .infinity, -.infinity, -2.75, .leastNonzeroMagnitude]
        try assertMatchesFoundation(.array(values.map { .double($0) } + [.real(PlistReal(float: 0.1))]))
    }

    func testKeyOrderMatchesFoundation() throws {
        let keys = ["a10", "😀", "B", "9", "！", "a", "_", "10", "é", "a2", "Z", "aa", "z", "a1", "b", "A"]
        try assertMatchesFoundation(.dictionary(PlistDictionary(keys.map { ($0, .bool(true)) })))
    }

    func testDataLineLayoutAtEveryDepth() throws {
        var tree = PlistValue.data(Array(0..<100))
        for depth in 0..<12 {
            try assertMatchesFoundation(tree)
            tree = depth % 2 == 0 ? .array([tree, .data([])]) : .dictionary(PlistDictionary([("d", tree)]))
        }
    }

    func testEscapingAndDates() throws {
        try assertMatchesFoundation(.dictionary(PlistDictionary([
            ("s", .string("a < b & c > d \"q\" 'x'\ttab\nnl")),
            ("ctl", .string("\u{1}\u{1F}\u{7F}")),
            ("e", .string("")),
            ("d1", .date(PlistDate(secondsSinceReferenceDate: -0.5))),
            ("d2", .date(PlistDate(secondsSinceReferenceDate: 0.999999))),
            ("d3", .date(PlistDate(secondsSinceReferenceDate: -63_113_904_000))),
            ("<k&>", .int(Int64.min)),
            ("u", .integer(PlistInteger(UInt64.max))),
        ])))
    }

    func testUIDAndKeepKeyOrder() throws {
        let tree = PlistValue.dictionary(PlistDictionary([("z", .uid(7)), ("a", .int(1))]))
        let text = String(decoding: try PropertyList.write(tree, as: .xml, options: WriteOptions(keepKeyOrder: true)), as: UTF8.self)
        XCTAssertTrue(text.contains("<dict>\n\t<key>z</key>\n\t<dict>\n\t\t<key>CF$UID</key>\n\t\t<integer>7</integer>\n\t</dict>\n\t<key>a</key>"), text)
        XCTAssertThrowsError(try PropertyList.write(.null, as: .xml))
    }
}

final class XMLReaderTests: XCTestCase {
    func read(_ xml: String) throws -> PlistDocument {
        try Array(xml.utf8).withUnsafeBytes { try XMLPlistReader.read($0) }
    }

    /// `<data>` decodes as CoreFoundation decodes it, odd input included.
    func testDataDecodingMatchesFoundation() throws {
        for body in ["AQI=", "AQI", "A*QI=", "AQ==", "AQ", "A", "AQIDB", "AB=CD",
                     "AQIDBA==AQ==", "QUJD RA==", "AQ=QI", "  QU\n\tJD  "] {
            let xml = "<plist version=\"1.0\"><data>\(body)</data></plist>"
            let ours = try read(xml).tree.value
            XCTAssertEqual(ours, try FoundationBridge.foundationRead(Array(xml.utf8)), body)
        }
    }

    func testElementsAndErrors() throws {
        let doc = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>i</key><integer> 0x1F </integer><key>n</key><integer>-9223372036854775808</integer>
            <key>u</key><integer>18446744073709551615</integer><key>r</key><real>-inf</real>
            <key>s</key><string><![CDATA[<raw>]]> &amp; &#x41;</string><key>uid</key><dict><key>CF$UID</key><integer>3</integer></dict>
            <key>e</key><array/><key>t</key><true/><key>d</key><date>2024-02-29T13:45:59Z</date>
            </dict></plist>
            """)
        guard case .dictionary(let d) = doc.tree.value else { return XCTFail() }
        XCTAssertEqual(d["i"], .int(31))
        XCTAssertEqual(d["n"], .int(Int64.min))
        XCTAssertEqual(d["u"], .integer(PlistInteger(UInt64.max)))
        XCTAssertEqual(d["r"], .double(-.infinity))
        XCTAssertEqual(d["s"], .string("<raw> & A"))
        XCTAssertEqual(d["uid"], .uid(3))
        XCTAssertEqual(d["e"], .array([]))
        XCTAssertEqual(d["t"], .bool(true))
        XCTAssertEqual(d["d"], .date(PlistDate(secondsSinceReferenceDate: 730_907_159)))

        XCTAssertThrowsError(try read("<plist>\n<dict>\n<key>a</key>\n</dict></plist>")) { e in
            guard case .text(let line, _)? = (e as? PlistError)?.location else { return XCTFail("no text location") }
            XCTAssertEqual(line, 4)
        }
        XCTAssertThrowsError(try read("<plist><integer>18446744073709551616</integer></plist>"))
        XCTAssertThrowsError(try read("<plist><string>a</plist>"))
        XCTAssertThrowsError(try read("<plist><foo/></plist>"))
    }

    func testNoExternalEntitiesOrBombs() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <plist><string>&x;</string></plist>
            """
        XCTAssertThrowsError(try read(xxe))
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a0 \"lol\">"
        for i in 1...10 { bomb += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i - 1);", count: 10) + "\">" }
        bomb += "]>\n<plist><string>&a10;</string></plist>"
        XCTAssertThrowsError(try read(bomb))
    }

    /// libxml2 checks each attribute against those before it: an element with
    /// 50,000 attributes is refused at its place before libxml2 reads it, in
    /// linear time; 1,024 (more than any property list has) read as Foundation
    /// reads them (CoreFoundation skips attributes).
    func testElementsWithTensOfThousandsOfAttributesAreRefusedQuickly() throws {
        func file(_ count: Int, on element: String) -> String {
            let attributes = (0..<count).map { "a\($0)=\"x'\"" }.joined(separator: " ")
            return "<?xml version=\"1.0\"?>\n<!-- a=1 b=2 -->\n<plist version=\"1.0\">\n<dict>\n<key>k</key>\n<\(element) \(attributes)>v</\(element)>\n</dict>\n</plist>\n"
        }
        XCTAssertThrowsError(try read(file(50_000, on: "string"))) { e in
            XCTAssertEqual((e as? PlistError)?.kind, .limitExceeded)
            XCTAssertEqual((e as? PlistError)?.location, .text(line: 6, column: 1))
        }
        let utf16 = [UInt8]([0xFF, 0xFE]) + file(50_000, on: "string").utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertThrowsError(try utf16.withUnsafeBytes { try XMLPlistReader.read($0) })
        let many = file(XMLPrescan.maxAttributes, on: "string")
        XCTAssertEqual(try read(many).tree.value, try FoundationBridge.foundationRead(Array(many.utf8)))
        XCTAssertEqual(try read(many).tree.value, .dictionary(PlistDictionary([("k", .string("v"))])))
    }

    /// Reading `<data>` raw costs no scan of the file per element: 20,000 of
    /// them in a file that libxml2 reads (CRLF line ends) take well under a
    /// second, and read as Foundation reads them.
    func testManyDataElementsReadInLinearTime() throws {
        let body = (0..<20_000).map { "\t<data>AQID&#65;\($0 % 10)==</data>\r\n" }.joined()
        let xml = "<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\">\r\n<array>\r\n\(body)</array>\r\n</plist>\r\n"
        let ours = try read(xml).tree.value
        XCTAssertEqual(ours, try FoundationBridge.foundationRead(Array(xml.utf8)))
    }

    func testDuplicateKeyDiagnostic() throws {
        let doc = try read("<plist><dict>\n<key>k</key><integer>1</integer>\n<key>k</key><integer>2</integer>\n</dict></plist>")
        XCTAssertEqual(doc.tree.value, .dictionary(PlistDictionary([("k", .int(2))])))
        XCTAssertEqual(doc.diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(doc.diagnostics.first?.location, .text(line: 3, column: 1))
        XCTAssertEqual(doc.diagnostics.first?.related, .text(line: 2, column: 1))
    }
}

final class XMLCarriageReturnTests: XCTestCase {
    /// A CR inside string and key text survives as CoreFoundation keeps it; CRLF
    /// line ends of the file itself are still line ends.
    func testCarriageReturnsInStringsSurvive() throws {
        let tree = PlistValue.dictionary(PlistDictionary([
            ("crlf\r\nkey", .string("line 1\r\nline 2\rend")), ("cdata", .string("x")),
        ]))
        let xml = try PropertyList.write(tree, as: .xml)
        XCTAssertEqual(try xml.withUnsafeBytes { try XMLPlistReader.read($0) }.tree.value, tree)
        XCTAssertEqual(try FoundationBridge.foundationRead(xml), tree)
        let windows = Array("<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\">\r\n<dict>\r\n\t<key>a</key>\r\n\t<string><![CDATA[p\r\nq]]>\r</string>\r\n\t<key>b</key>\r\n\t<true/>\r\n</dict>\r\n</plist>\r\n".utf8)
        let doc = try windows.withUnsafeBytes { try XMLPlistReader.read($0) }
        XCTAssertEqual(doc.tree.value, try FoundationBridge.foundationRead(windows))
        XCTAssertEqual(doc.tree.value, .dictionary(PlistDictionary([("a", .string("p\r\nq\r")), ("b", .bool(true))])))
    }
}
