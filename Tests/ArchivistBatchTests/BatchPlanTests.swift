import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// Which files a batch takes, where their results go, and how shards split them.
final class BatchPlanTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        let scratch = try makeScratchFolder("archivist-plan")
        dir = scratch.path
        for path in ["a.plist", "b.json", "sub/c.plist", "sub/deeper/d.plist", "sub/e.txt", ".hidden/f.plist"] {
            try scratch.write(path, "<plist><true/></plist>")
        }
    }

    func relatives(_ selection: BatchSelection) throws -> [String] {
        try BatchPlan.items([dir], selection: selection).compactMap(\.relative)
    }

    func testFoldersRecursionAndGlobs() throws {
        XCTAssertEqual(try relatives(BatchSelection()), ["a.plist", "b.json"])
        XCTAssertEqual(try relatives(BatchSelection(recursive: true)), ["a.plist", "b.json", "sub/c.plist", "sub/deeper/d.plist", "sub/e.txt"])
        XCTAssertEqual(try relatives(BatchSelection(recursive: true, include: ["*.plist"])), ["a.plist", "sub/c.plist", "sub/deeper/d.plist"])
        XCTAssertEqual(try relatives(BatchSelection(recursive: true, include: ["*.plist"], exclude: ["sub/deeper/*"])), ["a.plist", "sub/c.plist"])
        XCTAssertEqual(try relatives(BatchSelection(recursive: true, exclude: ["*.txt", "b.*"])), ["a.plist", "sub/c.plist", "sub/deeper/d.plist"])
        // Named files are taken as they are, globs or not.
        let named = try BatchPlan.items([dir + "/sub/e.txt"], selection: BatchSelection(include: ["*.plist"]))
        XCTAssertEqual(named, [BatchItem(source: dir + "/sub/e.txt")])
    }

    func testShardsPartitionTheItems() throws {
        let all = try relatives(BatchSelection(recursive: true))
        var seen: [String] = []
        for i in 1...3 {
            seen += try relatives(BatchSelection(recursive: true, shard: (i, 3)))
        }
        XCTAssertEqual(seen.sorted(), all.sorted(), "every item in exactly one shard")
        XCTAssertEqual(try relatives(BatchSelection(recursive: true, shard: (2, 3))), try relatives(BatchSelection(recursive: true, shard: (2, 3))))
        XCTAssertEqual(BatchSelection.shardIndex(of: "sub/c.plist", count: 7), BatchSelection.shardIndex(of: "sub/c.plist", count: 7))
        XCTAssertNil(BatchSelection.parseShard("0/3"))
        XCTAssertNil(BatchSelection.parseShard("4/3"))
        XCTAssertNil(BatchSelection.parseShard("x"))
        XCTAssertEqual(BatchSelection.parseShard("3/3")?.index, 3)
    }

    /// An item keeps its relative path whether or not it ends its source path.
    func testItemsKeepTheirRelativePaths() {
        for (source, relative) in [("in/sub/c.plist", "sub/c.plist"), ("in/c.plist", "c.plist"), ("c.plist", "c.plist"),
                                   ("in/sub/c.plist", "sub/d.plist"), ("in/sub/c.plist", "other/sub/c.plist"), ("in/x", ""),
                                   ("in/é/ß.plist", "é/ß.plist"), ("in/é/ß.plist", "e/ß.plist"), ("a", "ab")] {
            let item = BatchItem(source: source, relative: relative)
            XCTAssertEqual(item.source, source)
            XCTAssertEqual(item.relative, relative, source)
            XCTAssertTrue(item.isFound)
        }
        XCTAssertNil(BatchItem(source: "in/c.plist").relative)
    }

    func testOutputFolderMirrorsTheTree() {
        let target = OutputTarget.directory("out")
        XCTAssertEqual(target.destination(for: BatchItem(source: "in/sub/c.plist", relative: "sub/c.plist"), format: .json), "out/sub/c.json")
        XCTAssertEqual(target.destination(for: BatchItem(source: "in/sub/c.plist", relative: "sub/c.plist"), format: nil), "out/sub/c.plist")
        XCTAssertEqual(target.destination(for: BatchItem(source: "x/y.strings"), format: .xml), "out/y.plist")
        XCTAssertEqual(target.destination(for: BatchItem(source: "in/../z.plist", relative: "../z.plist"), format: nil), "out/z.plist", "no escaping the folder")
    }

    /// A walk reads a file by its extension (without case) or by its first
    /// bytes; other files are skipped, broken plists are not.
    func testWhatAWalkReads() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        XCTAssertTrue(BatchPlan.readsInWalk("d/a.txt", Array("<plist/>".utf8)))
        XCTAssertTrue(BatchPlan.readsInWalk("d/a", Array(" <?xml version=\"1.0\"?>".utf8)))
        XCTAssertTrue(BatchPlan.readsInWalk("d/a.dat", Array("bplist00".utf8)))
        XCTAssertTrue(BatchPlan.readsInWalk("d/Info.plist", Array("{ broken".utf8)), "a broken plist is a failure, not a skip")
        XCTAssertTrue(BatchPlan.readsInWalk("d/Info.PLIST", png), "an image named .plist is an error too")
        XCTAssertTrue(BatchPlan.readsInWalk("d/L.Strings", []))
        XCTAssertTrue(BatchPlan.readsInWalk("d/x.sfl3", []))
        XCTAssertTrue(BatchPlan.readsInWalk("d/App.entitlements", []))
        XCTAssertTrue(BatchPlan.readsInWalk("d/sms.db", Array("SQLite format 3\u{0}".utf8)))
        XCTAssertTrue(BatchPlan.readsInWalk("d/Cookies", Array("cook".utf8) + [0, 0, 0, 1]))
        XCTAssertFalse(BatchPlan.readsInWalk("d/a.png", png))
        XCTAssertFalse(BatchPlan.readsInWalk("d/style.css", Array("body { color: red; }".utf8)))
        XCTAssertFalse(BatchPlan.readsInWalk("d/data.json", Array("{\"a\": 1}".utf8)))
        XCTAssertFalse(BatchPlan.readsInWalk("d/README", Array("hello".utf8)))
        XCTAssertFalse(BatchPlan.readsInWalk("d/.plist", Array("hello".utf8)), "a hidden name is no extension")
        XCTAssertFalse(BatchPlan.readsInWalk("d/x.sflx", []))
    }

    /// The extension is the last component's, after its last dot, in any
    /// ASCII case (a Kelvin sign is no `k`); a dot that starts the name makes none.
    func testPlistExtensions() {
        for yes in ["Info.plist", "d/Info.plist", "/a/b/c.PList", "d/Info.plist/", "d/a.b.plist", "d/..plist",
                    "d/x.sfl", "d/x.SFL3", "d/x.sfl1234567890123456789", "d/p.MOBILEPROVISION", "d/p.provisionprofile",
                    "d.d/x.strings", "d/é.nib"] {
            XCTAssertTrue(BatchPlan.hasPlistExtension(yes), yes)
        }
        for no in ["", "/", "plist", ".plist", "d/.plist", "d/.plist/", "d.plist/x", "d/x.plist.bak", "d/x.", "d/x.pli",
                   "d/x.plistx", "d/x.sfl3a", "d/x.sf", "d/x.abcdefghijklmnopqrstu", "d/x.pl\u{0130}st", "d/x.binarycoo\u{212A}ies"] {
            XCTAssertFalse(BatchPlan.hasPlistExtension(no), no)
        }
    }
}
