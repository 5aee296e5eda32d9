import Foundation
import XCTest
@testable import ArchivistCore

/// The direct XML reader either gives exactly the tree libxml2's path gives, or
/// declines (returns nil) and leaves the input, and every error, to libxml2.
final class XMLFastReaderTests: XCTestCase {
    /// Key order matters too: compare the trees and their JSON-like ordered dumps.
    private func ordered(_ v: PlistValue) -> String {
        switch v {
        case .array(let items): return "[" + items.map(ordered).joined(separator: ",") + "]"
        case .dictionary(let d): return "{" + zip(d.keys, d.values).map { "\($0.0.debugDescription):\(ordered($0.1))" }.joined(separator: ",") + "}"
        case .real(let r): return "real(\(r.value.bitPattern))"
        default: return "\(v.typeName)(\(v))"
        }
    }

    /// Checks one input; returns whether the direct reader took it.
    @discardableResult
    private func check(_ bytes: [UInt8], _ name: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        bytes.withUnsafeBytes { buffer in
            let direct = XMLFastReader.read(buffer, limits: Limits())?.value
            let slow = Result { try XMLPlistReader.read(buffer, options: ReadOptions(), direct: false) }
            guard let direct else { return false }
            switch slow {
            case .success(let doc):
                XCTAssertEqual(direct, doc.tree.value, name, file: file, line: line)
                XCTAssertEqual(ordered(direct), ordered(doc.tree.value), name, file: file, line: line)
                XCTAssertTrue(doc.diagnostics.filter { $0.kind != .encodingMismatch }.isEmpty,
                              "\(name): the direct reader took an input with diagnostics", file: file, line: line)
            case .failure(let error):
                XCTFail("\(name): the direct reader accepted what libxml2 refuses: \(error)", file: file, line: line)
            }
            return true
        }
    }

    func testCorpusFilesReadTheSameBothWays() throws {
        var taken = 0, total = 0
        for root in [Fixtures.sharedCorpus, Fixtures.corpus] {
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker {
                guard let bytes = try? Fixtures.bytes(url), bytes.count > 5,
                      bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) || bytes.starts(with: Array("<!".utf8)) else { continue }
                total += 1
                if check(bytes, url.path) { taken += 1 }
            }
        }
        XCTAssertGreaterThan(total, 20)
        XCTAssertGreaterThan(taken, total / 3, "the direct reader should take most corpus XML files")
    }

    func testShapesBothWays() {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        let accepted = [
            head + "<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>x &amp; y &lt;z&gt; &quot;q&quot; &apos;</string>\n</dict>\n</plist>\n",
            "<plist><array><integer> 12 </integer><integer>-0x1F</integer><real>1e3</real><real>nan</real><true/><false></false><date>2024-02-29T13:45:59Z</date><data>AAEC\n\tAw==</data></array></plist>",
            "<?xml version='1.0'?><!-- c --><plist version='1.0' ><!--x--><dict ><key >CF$UID</key ><integer>5</integer></dict ></plist ><!-- end -->\n",
            "<string>bare root, Zürich 東京 😀</string>",
            "<plist><dict><key/><string/><key>e</key><dict/><key>f</key><array/></dict></plist>",
            "<plist><array>" + String(repeating: "<array>", count: 50) + String(repeating: "</array>", count: 50) + "</array></plist>",
            "<plist><dict>" + (0..<40).map { "<key>k\($0)</key><integer>\($0)</integer>" }.joined() + "</dict></plist>",
            // Canonically equivalent keys (Kelvin sign and K; é precomposed and not) are two keys, as in CoreFoundation.
            "<plist><dict><key>K</key><true/><key>\u{212A}</key><false/></dict></plist>",
            "<plist><dict><key>caf\u{E9}</key><true/><key>cafe\u{301}</key><false/></dict></plist>",
            // What CoreFoundation reads and XML 1.0 forbids: controls and U+FFFE/U+FFFF in
            // string and key text, whitespace before the declaration.
            "<plist><dict><key>\u{0}\u{1B}</key><string>a\u{1}b\u{8}\u{1F}\u{FFFE}\u{FFFF}</string></dict></plist>",
            " \n\t<?xml version=\"1.0\"?><plist><true/></plist>",
            // Declarations and DOCTYPEs, each part compared in place.
            "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?><plist><true/></plist>",
            "<?xml version='1.0' encoding='Utf-8' standalone='yes' ?><plist><true/></plist>",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\"><true/></plist>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\" ><plist><true/></plist>",
            "<!DOCTYPE plist SYSTEM 'file://localhost/System/Library/DTDs/PropertyList.dtd'><plist><true/></plist>",
        ]
        for (k, text) in accepted.enumerated() {
            XCTAssertTrue(check(Array(text.utf8), "accepted \(k)"), "case \(k) should be read directly")
        }
        let declined = [
            "<plist><string><![CDATA[x]]></string></plist>",
            "<plist><string>&#65;</string></plist>",
            "<plist><string>&unknown;</string></plist>",
            "<plist><string>a]]>b</string></plist>",
            "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>",
            "<plist><dict>" + (0..<30).map { "<key>k\($0 % 20)</key><integer>\($0)</integer>" }.joined() + "</dict></plist>",
            "<plist><dict>" + (0..<90).map { "<key>k\($0 % 80)</key><integer>\($0)</integer>" }.joined() + "</dict></plist>",
            "<plist><string>x</string><string>y</string></plist>",
            "<plist><string>x</plist>",
            "<plist><float>1</float></plist>",
            "<plist foo=\"1\"><true/></plist>",
            "<plist version=\"1.0\" version=\"1.0\"><true/></plist>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>x</string></plist>",
            "<plist><!-- a -- b --><true/></plist>",
            "<plist><true/></plist>trailing",
            "<plist><string a=\"1\">x</string></plist>",
            "<plist><true>x</true></plist>",
            "<plist><integer>12x</integer></plist>",
            "<plist><?pi x?><true/></plist>",
            "<!DOCTYPE plist [<!ENTITY e \"x\">]><plist><string>&e;</string></plist>",
            "<plist><string>a\r\nb</string></plist>",
            "\u{FEFF}<plist><true/></plist>",
            "<plist><key>k</key></plist>",
            "<plist></plist>",
            "<?xml version=\"1.1\"?><plist><true/></plist>",
            "<?xml encoding=\"UTF-8\" version=\"1.0\"?><plist><true/></plist>",
            "<?xml version=\"1.0\" encoding=\"UTF-88\"?><plist><true/></plist>",
            "<?xml version=\"1.0\" encoding=\"UTF_8\"?><plist><true/></plist>",
            "<?xml version=\"1.0\" standalone=\"YES\"?><plist><true/></plist>",
            "<?xml versio=\"1.0\"?><plist><true/></plist>",
            "<?xml version=\"1.0\" version=\"1.0\"?><plist><true/></plist>",
            "<?xml version=\"1.0\" bogus=\"x\"?><plist><true/></plist>",
            "<?xml version=\"1.0\"?><plist vers=\"1.0\"><true/></plist>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\" [<!ENTITY e \"x\">]><plist><string>&e;</string></plist>",
        ]
        for (k, text) in declined.enumerated() {
            XCTAssertFalse(check(Array(text.utf8), "declined \(k)"), "case \(k) should go to libxml2")
        }
        // Bytes CoreFoundation refuses: invalid UTF-8, an encoded surrogate.
        for (k, bad) in [[0xC3, 0x28], [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]].enumerated() {
            let bytes = Array("<plist><string>".utf8) + bad.map(UInt8.init) + Array("</string></plist>".utf8)
            XCTAssertFalse(check(bytes, "bad UTF-8 \(k)"), "bad UTF-8 \(k) should go to libxml2")
        }
    }

    /// CoreFoundation compares keys by their code units (CFEqual on strings is
    /// literal), not by canonical equivalence: both paths keep such keys apart,
    /// as the JSON, OpenStep and binary readers do. (Foundation on Linux cannot
    /// be the oracle here: it bridges the result to a Swift dictionary, whose
    /// `String` keys merge.)
    func testCanonicallyEquivalentKeysStayDistinct() throws {
        for (a, b) in [("K", "\u{212A}"), ("caf\u{E9}", "cafe\u{301}")] {
            let xml = "<plist><dict><key>\(a)</key><true/><key>\(b)</key><false/></dict></plist>"
            let json = try JSONPlistReader.read(Array("{\"\(a)\": true, \"\(b)\": false}".utf8))
            XCTAssertEqual(json.tree.value.dictionaryValue?.count, 2)
            for direct in [true, false] {
                let document = try Array(xml.utf8).withUnsafeBytes { try XMLPlistReader.read($0, options: ReadOptions(), direct: direct) }
                XCTAssertEqual(document.tree.value.dictionaryValue?.keys.map { Array($0.unicodeScalars) },
                               [Array(a.unicodeScalars), Array(b.unicodeScalars)], "direct: \(direct)")
                XCTAssertEqual(document.diagnostics, [], "direct: \(direct)")
            }
        }
    }

    func testGeneratedTreesReadBack() throws {
        // Archivist's own XML output of varied trees reads directly, to the same tree.
        var items: [PlistValue] = []
        for i in 0..<200 {
            var d = PlistDictionary()
            d.appendUnchecked(key: "name & <\(i)>", value: .string("Ünïcødé \(i) \"q\" 'a'"))
            d.appendUnchecked(key: "n", value: .int(Int64(i) * -7919))
            d.appendUnchecked(key: "r", value: .double(Double(i) / 7))
            d.appendUnchecked(key: "d", value: .data((0..<(i % 50)).map { UInt8(truncatingIfNeeded: $0 * 37) }))
            d.appendUnchecked(key: "t", value: .date(PlistDate(secondsSinceReferenceDate: Double(i * 86_399))))
            d.appendUnchecked(key: "u", value: .uid(UInt64(i)))
            items.append(.dictionary(d))
        }
        let xml = try PropertyList.write(.array(items), as: .xml)
        XCTAssertTrue(check(xml, "generated"))
    }
}
