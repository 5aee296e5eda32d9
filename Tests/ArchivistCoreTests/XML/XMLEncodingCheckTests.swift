import XCTest
@testable import ArchivistCore

/// The check every XML plist read makes of its declared encoding.
final class XMLEncodingCheckTests: XCTestCase {
    private func mismatch(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { XMLEncodingCheck.mismatch($0) }
    }

    private func utf16LE(_ text: String, bom: Bool) -> [UInt8] {
        (bom ? [0xFF, 0xFE] : []) + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    func testDeclarationsThatContradictTheBytes() {
        let body = "<plist version=\"1.0\"><string>x</string></plist>"
        XCTAssertEqual(mismatch(Array("<?xml version=\"1.0\" encoding=\"utf-16\"?>\(body)".utf8)),
                       "the XML declaration says encoding=\"utf-16\" but the bytes are 8-bit text")
        XCTAssertEqual(mismatch(Array("\u{FEFF} \n<?xml version='1.0' encoding = 'UCS-4'?>\(body)".utf8)),
                       "the XML declaration says encoding=\"UCS-4\" but the bytes are 8-bit text")
        // Not ASCII, but upper case makes it UCS-2 (long s is S), as it did.
        XCTAssertEqual(mismatch(Array("<?xml version=\"1.0\" encoding=\"uc\u{17F}-2\"?>\(body)".utf8)),
                       "the XML declaration says encoding=\"uc\u{17F}-2\" but the bytes are 8-bit text")
        XCTAssertEqual(mismatch(utf16LE("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(body)", bom: true)),
                       "the XML declaration says encoding=\"UTF-8\" but the file is utf16LE text")

        for agrees in ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>\(body)", "<?xml version=\"1.0\"?>\(body)", body,
                       "<?xml version=\"1.0\" encoding=\"UTF-1\"?>\(body)",
                       "<?xml version=\"1.0\" encoding=UTF-16?>\(body)", "x<?xml version=\"1.0\" encoding=\"UTF-16\"?>"] {
            XCTAssertNil(mismatch(Array(agrees.utf8)), agrees)
        }
        XCTAssertNil(mismatch(utf16LE("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\(body)", bom: true)))
        XCTAssertNil(mismatch([]))
        XCTAssertNil(mismatch([0x3C]))
    }

    /// A declaration past the bytes looked at is not read.
    func testOnlyTheHeadIsRead() {
        let padding = String(repeating: " ", count: XMLEncodingCheck.headLength)
        XCTAssertNil(mismatch(Array("<?xml version=\"1.0\"\(padding)encoding=\"UTF-16\"?><plist/>".utf8)))
        let near = String(repeating: " ", count: XMLEncodingCheck.headLength - 40)
        XCTAssertNotNil(mismatch(Array("<?xml version=\"1.0\"\(near)encoding=\"UTF-16\"?><plist/>".utf8)))
    }

    /// The check reads declarations in place; it gives what reading them
    /// into arrays and strings (as it did until 2026-11-29) gives, on
    /// declarations made of the parts that decide it.
    func testInPlaceReadingAgreesWithTheStringReading() {
        var random = SplitMix(state: 0x5EED_0F_2026)
        let leads: [[UInt8]] = [[], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0x20], [0x0D, 0x0A, 0x09]]
        let opens = ["<?xml", "<?XML", "<?xm", "<?xml>", "<!--"]
        let separators = ["", " ", "=", " = ", "==", "\t=", " =  "]
        let quotes = ["\"", "'", ""]
        let values = ["UTF-8", "utf-8", "UTF-16", "utf-16le", "UTF16", "Utf-32BE", "utf32", "UCS-2", "ucs4", "uc\u{17F}-2",
                      "\u{131}so-8859-1", "US-ASCII", "", "UTF-1", "U", "utf-16\u{301}", "latin1", "UTF-\u{FF}16"]
        for round in 0..<4_000 {
            var text = opens[random.below(opens.count)]
            if random.below(4) > 0 { text += " version=\"1.0\"" }
            if random.below(5) == 0 { text += ">" }
            if random.below(6) == 0 { text += String(repeating: " ", count: random.below(220)) }
            if random.below(8) > 0 {
                let quote = quotes[random.below(quotes.count)]
                text += " encoding" + separators[random.below(separators.count)] + quote + values[random.below(values.count)]
                if random.below(6) > 0 { text += quote }
            }
            if random.below(3) == 0 { text += " encoding=\"UTF-16\"" }
            text += random.below(5) > 0 ? "?><plist/>" : ""
            var bytes = leads[random.below(leads.count)]
            if random.below(6) == 0 {
                bytes += utf16LE(text, bom: false)
            } else {
                bytes += Array(text.utf8)
                if random.below(10) == 0 { bytes.removeLast(random.below(bytes.count + 1)) }
            }
            XCTAssertEqual(mismatch(bytes), Reference.mismatch(bytes), "round \(round): \(bytes)")
        }
    }

    /// The reading the check did until 2026-11-29, kept as the oracle.
    private enum Reference {
        static func mismatch(_ input: [UInt8]) -> String? {
            input.withUnsafeBytes { bytes in
                let bom = TextDecoding.detectBOM(bytes)
                let wide = bom.map { $0.encoding != .utf8 } ?? false
                    || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
                let head: [UInt8] = wide ? Array(TextDecoding.decodeToUTF8(UnsafeRawBufferPointer(rebasing: bytes[..<min(bytes.count, 400)])).prefix(200))
                                         : Array(bytes.prefix(200))
                guard let declared = declaredEncoding(head) else { return nil }
                let d = declared.uppercased()
                let declaresWide = d.hasPrefix("UTF-16") || d.hasPrefix("UTF16") || d.hasPrefix("UTF-32") || d.hasPrefix("UTF32") || d.hasPrefix("UCS")
                if declaresWide && !wide {
                    return "the XML declaration says encoding=\"\(declared)\" but the bytes are 8-bit text"
                }
                if !declaresWide && wide {
                    return "the XML declaration says encoding=\"\(declared)\" but the file is \(bom.map { "\($0.encoding)" } ?? "UTF-16/32") text"
                }
                return nil
            }
        }

        static func declaredEncoding(_ head: [UInt8]) -> String? {
            var h = head[...]
            if h.starts(with: [0xEF, 0xBB, 0xBF]) { h = h.dropFirst(3) }
            h = h.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard h.starts(with: Array("<?xml".utf8)) else { return nil }
            let decl = h.prefix { $0 != UInt8(ascii: ">") }
            let needle = Array("encoding".utf8)
            guard decl.count >= needle.count else { return nil }
            var i = decl.startIndex
            while i + needle.count <= decl.endIndex {
                if decl[i..<(i + needle.count)].elementsEqual(needle) {
                    var rest = decl[(i + needle.count)...].drop { $0 == 0x20 || $0 == UInt8(ascii: "=") }
                    guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                    rest = rest.dropFirst()
                    return String(decoding: rest.prefix { $0 != quote }, as: UTF8.self)
                }
                i += 1
            }
            return nil
        }
    }

    /// SplitMix64: the same cases on every run.
    private struct SplitMix {
        var state: UInt64

        mutating func below(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }
}
