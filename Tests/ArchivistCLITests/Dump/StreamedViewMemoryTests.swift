import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `get FILE root`, `dump` and `dump --json` write their views as they walk
/// the archive: on a generated keyed archive whose views are over 20 MB,
/// what the built binary adds to its start-up size (`archivist --version`:
/// the libraries it maps, 26 MiB for a debug build, little for the static
/// release one) stays under twice the input plus 10 MiB (issue 38's bound),
/// whatever the size of the output. Measured as GNU time's peak resident
/// size (`measured`), a memory count, not a timing.
extension CLITests {
    func testLargeViewsStreamInMemoryOfTheInput() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw XCTSkip("no /usr/bin/time to measure the peak resident size with")
        }
        let count = 50_000
        let bytes = try PropertyList.write(Self.itemsArchive(count: count), as: .binary)
        let file = work.appendingPathComponent("items.archive").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
        let inputKiB = bytes.count / 1024
        let start = try measured(["--version"])
        XCTAssertEqual(start.status, 0, start.output)
        let bound = start.maxRSSKiB + 2 * inputKiB + 10 * 1024
        for args in [["get", file, "root"], ["dump", file], ["dump", "--json", file]] {
            let r = try measured(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.output.prefix(500))")
            XCTAssertGreaterThanOrEqual(r.output.utf8.count, 20 << 20, "\(args): the view is large next to the memory bound")
            XCTAssertTrue(r.output.contains("item \(count - 1) of the library"), "\(args): the view is whole")
            XCTAssertLessThan(r.maxRSSKiB, bound, "\(args): peak \(r.maxRSSKiB) KiB (\(start.maxRSSKiB) KiB at start) for \(inputKiB) KiB in and \(r.output.utf8.count >> 10) KiB out")
        }
    }

    /// A keyed archive of an NSArray of `count` objects of a class `Item`,
    /// each with a name and a note (strings of their own), an index, a score
    /// and a flag inline, and an NSArray of two of three shared tags.
    static func itemsArchive(count: Int) -> PlistValue {
        // UID 1: the root array; 2, 3: the classes; 4-6: the tags; then 4 entries an item.
        let first = 7
        var objects: [PlistValue] = [
            ArchiveBuilder.object([("NS.objects", .array((0..<count).map { .uid(UInt64(first + 4 * $0)) }))], classAt: 2),
            ArchiveBuilder.classEntry("NSArray"),
            ArchiveBuilder.classEntry("Item"),
            // Shared tags under 64 bytes, which every view repeats in full: output that costs no input.
            .string("alpha: a tag that a third of the items of the library share"),
            .string("beta: a tag that another third of the library's items share"),
            .string("gamma: the tag that the last third of the library items share"),
        ]
        objects.reserveCapacity(objects.count + 4 * count)
        for i in 0..<count {
            let at = UInt64(first + 4 * i)
            objects.append(ArchiveBuilder.object([
                ("name", .uid(at + 1)), ("note", .uid(at + 2)), ("index", .int(Int64(i))),
                ("score", .double(Double(i) / 8)), ("flag", .bool(i % 2 == 0)), ("tags", .uid(at + 3)),
            ], classAt: 3))
            objects.append(.string("item \(i) of the library"))
            objects.append(.string("a note about item \(i), long enough to be a paragraph: " + String(repeating: "it says what the item holds. ", count: 7)))
            objects.append(ArchiveBuilder.object([("NS.objects", .array([.uid(UInt64(4 + i % 3)), .uid(UInt64(4 + (i + 1) % 3))]))], classAt: 2))
        }
        return ArchiveBuilder.archive(objects)
    }
}
