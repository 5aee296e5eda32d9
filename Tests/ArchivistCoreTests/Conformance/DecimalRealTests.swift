import Foundation
import XCTest
@testable import ArchivistCore

/// `<real>` text reads to the same bits as Foundation reads it, whether the
/// fast path (`DecimalFastPath`) or `strtod` gives the value.
final class DecimalRealTests: XCTestCase {
    func testXMLRealsReadAsFoundationReadsThem() throws {
        var texts = ["5.", ".5", "-.5", "-0.0", "+1.5e3", "1E+5", "1e22", "1e23", "1e-22", "1e-23", "9007199254740992",
                     "9007199254740993", "123456789012345678901234567890", "0.1", "0.30000000000000004", "00012.5000",
                     "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308", "0e999999", "1.5e0000000000000001"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &generator) ? 1 : -1)
            let small = Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / Double([1, 8, 10, 100, 1000, 4096][Int.random(in: 0..<6)])
            texts.append(String(format: "%.\(Int.random(in: 1...17))g", value))
            texts.append(String(format: "%.\(Int.random(in: 0...6))f", small))
        }
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
            + texts.map { "\t<real>\($0)</real>\n" }.joined() + "</array>\n</plist>\n"
        let foundation = try XCTUnwrap(PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil) as? [Any])
        XCTAssertEqual(foundation.count, texts.count)
        for direct in [true, false] {
            let document = try Array(xml.utf8).withUnsafeBytes { try XMLPlistReader.read($0, options: ReadOptions(), direct: direct) }
            let ours = try XCTUnwrap(document.tree.value.arrayValue)
            XCTAssertEqual(ours.count, texts.count)
            for (k, (mine, theirs)) in zip(ours, foundation).enumerated() {
                guard case .real(let r) = mine, let number = theirs as? NSNumber else {
                    XCTFail("\(texts[k]): \(mine) / \(theirs)")
                    continue
                }
                XCTAssertEqual(r.value.bitPattern, number.doubleValue.bitPattern, "\(texts[k]) (direct: \(direct))")
            }
        }
    }
}
