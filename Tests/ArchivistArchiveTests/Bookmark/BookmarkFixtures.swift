import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive
import ArchivistCore

/// Bookmarks for tests: real ones from `../shared/real-world/`, synthetic ones
/// made byte by byte, and `mac-alias` (PyPI) as the oracle.
enum BookmarkFixtures {
    static var realWorld: URL { TestPaths.realWorld }

    /// Real files known to hold bookmark data in `<data>` values.
    static let realFiles = ["plaso/test_data/backgrounditems.btm", "plaso/test_data/plist/Downloads.plist"]

    /// Every `<data>` value starting with `book` in a real file (archives
    /// included: their `$objects` are plain values).
    static func realBookmarks() throws -> [(file: String, bytes: [UInt8])] {
        var found: [(String, [UInt8])] = []
        for file in realFiles {
            let url = realWorld.appendingPathComponent(file)
            guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no ../shared/real-world/\(file)") }
            let value = try PropertyList.read(Array(try Data(contentsOf: url))).tree.value
            collect(value) { found.append((file, $0)) }
        }
        return found
    }

    private static func collect(_ v: PlistValue, _ add: ([UInt8]) -> Void) {
        switch v {
        case .data(let b) where b.starts(with: Array("book".utf8)): add(b)
        case .array(let a): for x in a { collect(x, add) }
        case .dictionary(let d): for (_, x) in d { collect(x, add) }
        default: break
        }
    }

    // MARK: Synthetic bookmarks

    /// An item: its type code and payload (padded to four bytes when laid out).
    struct Item {
        var type: UInt32
        var payload: [UInt8]
        static func string(_ s: String) -> Item { Item(type: 0x0101, payload: Array(s.utf8)) }
        static func int32(_ i: Int32) -> Item { Item(type: 0x0303, payload: le(UInt32(bitPattern: i))) }
        static func offsets(_ type: UInt32, _ offsets: [UInt32]) -> Item { Item(type: type, payload: offsets.flatMap(le)) }
    }

    static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A bookmark whose items sit at the offsets given (relative to the end of
    /// the 48-byte header; the first at 4, after the first-TOC word), then one
    /// table of `entries` (key, item index), its count and next-table offset
    /// overridable for hostile cases.
    static func make(_ items: [Item], entries: [(UInt32, Int)], tocCount: UInt32? = nil, nextTOC: UInt32 = 0) -> (bytes: [UInt8], offsets: [UInt32]) {
        var body: [UInt8] = []
        var offsets: [UInt32] = []
        for item in items {
            offsets.append(UInt32(4 + body.count))
            body += le(UInt32(item.payload.count)) + le(item.type) + item.payload
            while body.count % 4 != 0 { body.append(0) }
        }
        let tocOffset = UInt32(4 + body.count)
        var toc = le(UInt32(entries.count * 12) &- 8) + le(0xFFFF_FFFE) + le(1) + le(nextTOC) + le(tocCount ?? UInt32(entries.count))
        for (key, index) in entries { toc += le(key) + le(offsets[index]) + le(0) }
        var header: [UInt8] = Array("book".utf8) + le(0) + le(0x1004_0000) + le(48) + [UInt8](repeating: 0, count: 32)
        header += le(tocOffset)
        var bytes = header + body + toc
        let size = le(UInt32(bytes.count))
        bytes.replaceSubrange(4..<8, with: size)
        return (bytes, offsets)
    }

    /// Sets the header's size to the count (after a test cut or grew the bytes).
    static func resized(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        guard b.count >= 8 else { return b }
        b.replaceSubrange(4..<8, with: le(UInt32(b.count)))
        return b
    }

    // MARK: Oracle

    /// The virtual environment's python with an oracle module (`mac_alias`
    /// from the PyPI package `mac-alias` unless told): `ARCHIVIST_PYTHON`,
    /// else `.build/ci-venv/bin/python`; skipped when absent, failed under CI.
    static func python(module: String = "mac_alias", package: String = "mac-alias") throws -> String {
        try PythonOracle.find(importing: module, package: package).path
    }

    /// Runs `executable ARGS`; its status, and its standard output and error together.
    static func run(_ executable: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let r = try ProcessRunner.run(URL(fileURLWithPath: executable), args, stdin: .inherit, stderr: .merged)
        return (r.status, r.stdout)
    }

    /// The canonical text (see ``canonical(_:)``) of what `mac_alias.Bookmark.from_bytes` reads from a file.
    static func oracleText(_ python: String, file: URL) throws -> String {
        let r = try run(python, ["-c", oracleScript, "read", file.path])
        XCTAssertEqual(r.status, 0, r.output)
        return r.output
    }

    /// Writes with `mac_alias` the bookmark `oracleScript` makes for tests.
    static func oracleMake(_ python: String, file: URL) throws {
        let r = try run(python, ["-c", oracleScript, "make", file.path])
        XCTAssertEqual(r.status, 0, r.output)
    }

    static let oracleScript = #"""
    import sys, datetime, uuid
    from mac_alias import Bookmark, Data, URL
    from mac_alias.utils import osx_epoch

    def text(v):
        if v is None: return "null"
        if isinstance(v, bool): return "b:" + ("true" if v else "false")
        if isinstance(v, int): return "i:%d" % v
        if isinstance(v, float): return "f:" + repr(v)
        if isinstance(v, str): return "s:" + v.encode("utf-8").hex()
        if isinstance(v, Data): return "d:" + v.bytes.hex()
        if isinstance(v, datetime.datetime): return "t:%d" % ((v - osx_epoch) // datetime.timedelta(microseconds=1))
        if isinstance(v, uuid.UUID): return "u:" + str(v).upper()
        if isinstance(v, URL): return "url:" + v.absolute
        if isinstance(v, list): return "[" + ",".join(text(x) for x in v) + "]"
        if isinstance(v, dict): return "{" + ",".join(text(k) + "=" + text(x) for k, x in v.items()) + "}"
        if isinstance(v, tuple): return "x:%x:%s" % (v[0], v[1].hex())
        raise ValueError(repr(v))

    if sys.argv[1] == "read":
        b = Bookmark.from_bytes(open(sys.argv[2], "rb").read())
        for tid, toc in b.tocs:
            print("toc %d" % tid)
            for k, v in toc.items():
                print(("%#x" % k if isinstance(k, int) else "name:" + k) + " " + text(v))
    else:
        b = Bookmark()
        b[0x1004] = ["Users", "x", "Documents", "caf\u00e9 a.txt"]
        b[0x1005] = [2, 12884923172, 1234567]
        b[0x1010] = Data(b"\x01\x00\x00\x00\x00\x00\x00\x00\x0f\x00\x00\x00\x00\x00\x00\x00" + bytes(8))
        b[0x1040] = osx_epoch + datetime.timedelta(seconds=650000000.25)
        b[0x2002] = "/"
        b[0x2005] = URL("file:///")
        b[0x2010] = "Macintosh HD"
        b[0x2011] = "0A81F3B1-51D9-3335-B3E3-169C3640360D"
        b[0x2012] = 499963174912
        b[0x2030] = True
        b[0xd001] = False
        b[0xd010] = 512
        b[0x1054] = 1.5
        b[0x2070] = uuid.UUID("12345678-9abc-def0-1234-56789abcdef0")
        b[0x2080] = {"inner": [1, "two", None]}
        b[0x2090] = URL(URL("file:///Users/"), "x/Documents/")
        b["NSURLDocumentIdentifierKey"] = 77
        open(sys.argv[2], "wb").write(b.to_bytes())
    """#

    /// The same canonical text made from Archivist's reading.
    static func canonical(_ bookmark: Bookmark) -> String {
        var out = ""
        for table in bookmark.tables {
            out += "toc \(table.id)\n"
            for entry in table.entries {
                switch entry.key {
                case .code(let c): out += "0x" + String(c, radix: 16)
                case .name(let n): out += "name:" + n
                }
                out += " " + text(entry.item) + "\n"
            }
        }
        return out
    }

    static func hex(_ b: [UInt8]) -> String { b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    static func text(_ item: Bookmark.Item) -> String {
        switch item {
        case .null: return "null"
        case .bool(let b): return "b:\(b)"
        case .integer(let i): return "i:\(i)"
        case .real(let r): return "f:\(r)"
        case .string(let s): return "s:" + hex(Array(s.utf8))
        case .data(let b): return "d:" + hex(b)
        case .date(let t): return "t:\(Int64((t * 1_000_000).rounded()))"
        case .uuid(let b): return "u:" + Bookmark.uuidText(b)
        case .url, .relativeURL: return "url:" + Bookmark.text(item)
        case .array(let a): return "[" + a.map(text).joined(separator: ",") + "]"
        case .dictionary(let d): return "{" + d.map { text($0.key) + "=" + text($0.value) }.joined(separator: ",") + "}"
        case .unknown(let type, let bytes): return "x:" + String(type, radix: 16) + ":" + hex(bytes)
        }
    }
}
