import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive
import ArchivistCore

/// Bookmark data read as `mac-alias` reads it, from real files and from
/// bookmarks `mac-alias` writes, and hostile bookmarks refused without traps.
final class BookmarkTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try makeScratchFolder("archivist-bookmark").url
    }

    func testRealBookmarksShowPathVolumeAndDates() throws {
        let found = try BookmarkFixtures.realBookmarks()
        XCTAssertGreaterThanOrEqual(found.count, 3)
        for (file, bytes) in found {
            let bookmark = try XCTUnwrap(Bookmark.decode(bytes), file)
            guard case .dictionary(let d) = bookmark.value else { return XCTFail(file) }
            XCTAssertTrue(d["path"]?.stringValue?.hasPrefix("/") ?? false, file)
            XCTAssertEqual(d["volume"], .string("Macintosh HD"), file)
            XCTAssertEqual(d["volumeUUID"]?.stringValue?.count, 36, file)
            if case .date? = d["created"] {} else { XCTFail("no creation date in \(file)") }
        }
        let btm = try XCTUnwrap(found.first { $0.file.hasSuffix(".btm") })
        let value = try XCTUnwrap(Bookmark.decode(btm.bytes)?.value.dictionaryValue)
        XCTAssertEqual(value["path"], .string("/Applications/iTunes.app/Contents/MacOS/iTunesHelper.app"))
        XCTAssertEqual(value["volumeUUID"], .string("095D50F8-562C-38AD-8907-C2B9E50C2DEA"))
        XCTAssertEqual(value["created"], .date(PlistDate(secondsSinceReferenceDate: 521_576_972)))
        XCTAssertEqual(value["fileIDs"], .array([101, 59153, 59154, 59176, 59179].map { .int($0) }))
    }

    func testRealBookmarksReadAsMacAliasReadsThem() throws {
        let found = try BookmarkFixtures.realBookmarks()
        let python = try BookmarkFixtures.python()
        for (n, (file, bytes)) in found.enumerated() {
            let url = scratch.appendingPathComponent("real\(n).bookmark")
            try Data(bytes).write(to: url)
            let ours = BookmarkFixtures.canonical(try XCTUnwrap(Bookmark.decode(bytes), file))
            XCTAssertEqual(ours, try BookmarkFixtures.oracleText(python, file: url), file)
        }
    }

    func testBookmarkMacAliasWritesReadsAsItReadsIt() throws {
        let python = try BookmarkFixtures.python()
        let url = scratch.appendingPathComponent("made.bookmark")
        try BookmarkFixtures.oracleMake(python, file: url)
        let bytes = Array(try Data(contentsOf: url))
        let bookmark = try XCTUnwrap(Bookmark.decode(bytes))
        XCTAssertEqual(BookmarkFixtures.canonical(bookmark), try BookmarkFixtures.oracleText(python, file: url))
        let value = try XCTUnwrap(bookmark.value.dictionaryValue)
        XCTAssertEqual(value["path"], .string("/Users/x/Documents/café a.txt"))
        XCTAssertEqual(value["volumeSize"], .int(499_963_174_912))
        XCTAssertEqual(value["created"], .date(PlistDate(secondsSinceReferenceDate: 650_000_000.25)))
        XCTAssertEqual(value["0x1054"], .double(1.5))
        XCTAssertEqual(value["0x2070"], .string("12345678-9ABC-DEF0-1234-56789ABCDEF0"))
        XCTAssertEqual(value["0x2090"], .string("file:///Users/x/Documents/"))
        XCTAssertEqual(value["NSURLDocumentIdentifierKey"], .int(77))
    }

    func testEveryCutAndByteChangeOfARealBookmarkIsReadOrRefused() throws {
        let (_, bytes) = try XCTUnwrap(try BookmarkFixtures.realBookmarks().first)
        for cut in 0..<bytes.count {
            XCTAssertNil(Bookmark.decode(Array(bytes.prefix(cut))), "cut at \(cut)")
            _ = Bookmark.decode(BookmarkFixtures.resized(Array(bytes.prefix(cut))))
        }
        for i in 0..<bytes.count {
            for v: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
                var b = bytes
                b[i] = v
                _ = Bookmark.decode(b)
            }
        }
    }

    /// A Finder alias file wraps bookmark data in `book\0\0\0\0mark\0\0\0\0`
    /// and a 56-byte header: it reads as the same bookmark; every cut and
    /// damaged header word is refused, every changed byte read or refused.
    func testAFinderAliasFileWrapperReadsAsItsBookmark() throws {
        let plain = BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)]).bytes
        let body = Array(plain[48...])
        let header = Array("book".utf8) + [0, 0, 0, 0] + Array("mark".utf8) + [0, 0, 0, 0] + BookmarkFixtures.le(56) + BookmarkFixtures.le(56)
            + BookmarkFixtures.le(UInt32(body.count)) + BookmarkFixtures.le(0x1004_0000) + [UInt8](repeating: 0, count: 24)
        let wrapped = header + body
        XCTAssertEqual(Bookmark.decode(wrapped)?[.code(0x2010)], .string("a"))
        for cut in 0..<wrapped.count { XCTAssertNil(Bookmark.decode(Array(wrapped.prefix(cut))), "cut at \(cut)") }
        for field in [16, 20, 24] {
            for v: UInt32 in [0, 0xFFFF_FFFF, 0x7FFF_FFFF, UInt32(wrapped.count)] {
                var b = wrapped
                b.replaceSubrange(field..<(field + 4), with: BookmarkFixtures.le(v))
                XCTAssertNil(Bookmark.decode(b), "word at \(field) = \(v)")
            }
        }
        for i in 0..<wrapped.count {
            for v: UInt8 in [0x00, 0x7F, 0xFF] {
                var b = wrapped
                b[i] = v
                _ = Bookmark.decode(b)
            }
        }
    }

    func testOffsetsOutOfRangeAreRefused() {
        typealias I = BookmarkFixtures.Item
        let good = BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)])
        XCTAssertEqual(Bookmark.decode(good.bytes)?[.code(0x2010)], .string("a"))
        for offset: UInt32 in [0xFFFF_FFFF, 0x7FFF_FFFF, UInt32(good.bytes.count), UInt32(good.bytes.count - 48 - 7)] {
            let b = BookmarkFixtures.make([.offsets(0x0601, [offset])], entries: [(0x1004, 0)])
            XCTAssertNil(Bookmark.decode(b.bytes), "array element at \(offset)")
            let d = BookmarkFixtures.make([.offsets(0x0701, [4, offset])], entries: [(0x1004, 0)])
            XCTAssertNil(Bookmark.decode(d.bytes), "dictionary value at \(offset)")
            let u = BookmarkFixtures.make([I(type: 0x0902, payload: BookmarkFixtures.le(offset) + BookmarkFixtures.le(offset))], entries: [(0x2005, 0)])
            XCTAssertNil(Bookmark.decode(u.bytes), "relative URL at \(offset)")
        }
        // An item's length past the end.
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([I(type: 0x0101, payload: [])], entries: [(0x2010, 0)]).bytes.enumerated().map { $0.offset == 52 ? 0xFF : $0.element }))
        // A string key at an offset out of range.
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.string("a")], entries: [(0x8000_FFFF, 0)]).bytes))
    }

    func testCyclicOffsetsAreRefused() {
        // An array holding itself, a dictionary whose value is itself, a URL relative to itself.
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.offsets(0x0601, [4])], entries: [(0x1004, 0)]).bytes))
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.offsets(0x0701, [4, 4])], entries: [(0x1004, 0)]).bytes))
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.offsets(0x0902, [4, 4])], entries: [(0x2005, 0)]).bytes))
        // A chain of tables of contents that returns to itself.
        let first = BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)])
        let tocOffset = UInt32(first.bytes.count - 48 - 32)
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)], nextTOC: tocOffset).bytes))
    }

    func testSharedOffsetsCostTheirBytesEachTime() {
        // 30 arrays (within the depth limit), each holding the next twice: 2^30 items if followed.
        var items: [BookmarkFixtures.Item] = [.string("leaf")]
        for _ in 1...30 { items.append(.offsets(0x0601, [0, 0])) }
        // Lay out once to learn the offsets, then point each array at the one before.
        let offsets = BookmarkFixtures.make(items, entries: [(0x1004, 30)]).offsets
        for level in 1...30 { items[level] = .offsets(0x0601, [offsets[level - 1], offsets[level - 1]]) }
        let bytes = BookmarkFixtures.make(items, entries: [(0x1004, 30)]).bytes
        XCTAssertEqual(BookmarkFixtures.make(items, entries: [(0x1004, 30)]).offsets, offsets)
        XCTAssertNil(Bookmark.decode(bytes))
        // Three levels deep is read: shared items within the budget are fine.
        XCTAssertNotNil(Bookmark.decode(BookmarkFixtures.make(items, entries: [(0x1004, 3)]).bytes))
    }

    func testHugeCountsAreRefused() {
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)], tocCount: 0xFFFF_FFFF).bytes))
        XCTAssertNil(Bookmark.decode(BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)], tocCount: 0x1555_5556).bytes))
        // An array whose length says more offsets than the input holds.
        var b = BookmarkFixtures.make([.offsets(0x0601, [4])], entries: [(0x1004, 0)]).bytes
        b.replaceSubrange(52..<56, with: BookmarkFixtures.le(0xFFFF_FFFC))
        XCTAssertNil(Bookmark.decode(b))
        // A header size past the end, and data that only starts with "book".
        var h = BookmarkFixtures.make([.string("a")], entries: [(0x2010, 0)]).bytes
        h.replaceSubrange(12..<16, with: BookmarkFixtures.le(0xFFFF_FFF0))
        XCTAssertNil(Bookmark.decode(h))
        XCTAssertNil(Bookmark.decode(Array("bookkeeping notes for the year".utf8)))
    }
}
