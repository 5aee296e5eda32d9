import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// NSIndexSet and NSIndexPath read as their indexes, with Foundation's
/// NSKeyedArchiver writing them (the one-range/one-index forms and the LEB128
/// data forms) as the oracle.
final class ArchivedIndexesTests: XCTestCase {
    func testFoundationWrittenIndexes() throws {
        let sets: [String: NSIndexSet] = [
            "empty": NSIndexSet(), "one": NSIndexSet(indexesIn: NSRange(location: 0, length: 3)),
            "big": NSIndexSet(indexesIn: NSRange(location: 1_000_000, length: 70_000)),
            "two": {
                let m = NSMutableIndexSet(indexesIn: NSRange(location: 5, length: 1))
                m.add(in: NSRange(location: 300, length: 200))
                return m
            }(),
        ]
        let paths: [String: NSIndexPath] = ["p0": NSIndexPath(), "p1": NSIndexPath(index: 7), "p3": NSIndexPath(indexes: [1, 2, 300], length: 3)]
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        for (k, v) in sets { archiver.encode(v, forKey: k) }
        for (k, v) in paths { archiver.encode(v, forKey: k) }
        archiver.finishEncoding()
        let g = try ObjectGraph(try PropertyList.read([UInt8](archiver.encodedData)).tree)
        func read(_ key: String) -> ArchivedIndexes? {
            guard let entry = g.top.first(where: { $0.key == key }), let o = g.object(entry.object) else { return nil }
            let indexes = o.className.archived == "NSIndexPath" ? ArchivedIndexes(indexPath: o, in: g) : ArchivedIndexes(indexSet: o, in: g)
            // Every view reads the indexes as the catalogue's reader describes them.
            XCTAssertEqual(FoundationValue.interpret(o, in: g)?.described?.text, indexes?.text, key)
            XCTAssertEqual(FoundationValue.interpret(o, in: g)?.described?.exported, indexes?.plist, key)
            return indexes
        }
        for (k, set) in sets {
            var ranges: [Range<Int>] = []
            set.enumerateRanges(options: []) { r, _ in ranges.append(r.location..<(r.location + r.length)) }
            XCTAssertEqual(read(k), .set(ranges), k)
        }
        for (k, path) in paths {
            XCTAssertEqual(read(k), .path((0..<path.length).map { path.index(atPosition: $0) }), k)
        }
        XCTAssertEqual(read("two")?.text, "[5..<6, 300..<500]")
        XCTAssertEqual(read("p3")?.text, "[1, 2, 300]")
    }

    func testMalformedStaysAnObject() {
        XCTAssertNil(ArchivedIndexes.leb128([0x80]))
        XCTAssertNil(ArchivedIndexes.leb128([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]))
        XCTAssertEqual(ArchivedIndexes.leb128([0x01, 0x02, 0xAC, 0x02]), [1, 2, 300])
    }
}
