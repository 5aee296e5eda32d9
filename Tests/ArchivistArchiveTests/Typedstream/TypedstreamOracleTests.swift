import Foundation
import XCTest
@testable import ArchivistArchive
import ArchivistCore

/// Typedstreams read by Archivist and by `pytypedstream` (PyPI, module
/// `typedstream`) give the same objects: every `attributedBody` of the real
/// iMessage store, in a canonical text both sides make.
final class TypedstreamOracleTests: XCTestCase {
    static let chatDB = BookmarkFixtures.realWorld.appendingPathComponent("plaso/test_data/sqlite/imessage_chat.db")

    func testEveryMessageBodyReadsAsPytypedstreamReadsIt() throws {
        guard FileManager.default.fileExists(atPath: Self.chatDB.path) else { throw XCTSkip("no ../shared/real-world chat.db") }
        let python = try BookmarkFixtures.python(module: "typedstream", package: "pytypedstream")
        let r = try BookmarkFixtures.run(python, ["-c", Self.oracleScript, Self.chatDB.path])
        XCTAssertEqual(r.status, 0, r.output)
        let lines = r.output.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 10)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { return XCTFail("oracle line: \(line)") }
            let bytes = try XCTUnwrap(Self.unhex(parts[1]))
            XCTAssertTrue(Typedstream.looksLikeTypedstream(bytes))
            let archive = try Typedstream.archive(bytes)
            XCTAssertNoThrow(try ObjectGraph(archive), "row \(parts[0])")
            XCTAssertEqual(try Self.canonical(archive), parts[2], "row \(parts[0])")
        }
    }

    /// Prints `rowid hex canonical` for each message body, read by pytypedstream.
    static let oracleScript = #"""
    import sys, sqlite3, typedstream
    from typedstream.archiving import GenericArchivedObject, Array, GenericStruct
    from typedstream.types import foundation as F

    def s(b):
        try: return "s:" + b.decode("utf-8").encode("utf-8").hex()
        except UnicodeDecodeError: return "d:" + b.hex()

    def c(v, depth=0):
        if depth > 100: raise ValueError("too deep")
        if v is None: return "nil"
        if isinstance(v, bool): return "b:" + ("true" if v else "false")
        if isinstance(v, int): return "i:%d" % v
        if isinstance(v, float): return "f:" + repr(v)
        if isinstance(v, bytes): return s(v)
        if isinstance(v, F.NSString): return "s:" + v.value.encode("utf-8").hex()
        if isinstance(v, F.NSNumber): return c(v.value, depth + 1)
        if isinstance(v, F.NSData): return "d:" + v.data.hex()
        if isinstance(v, (F.NSArray, F.NSSet)): return type(v).__name__ + "[" + ",".join(c(x, depth + 1) for x in v.elements) + "]"
        if isinstance(v, F.NSDictionary): return type(v).__name__ + "{" + ",".join(c(k, depth + 1) + "=" + c(x, depth + 1) for k, x in v.contents.items()) + "}"
        if isinstance(v, F.NSURL): return "url(" + c(v.relative_to, depth + 1) + "," + "s:" + v.value.encode("utf-8").hex() + ")"
        if isinstance(v, Array): return "(" + ",".join(c(x, depth + 1) for x in v.elements) + ")"
        if isinstance(v, GenericStruct): return "(" + ",".join(c(x, depth + 1) for x in v.fields) + ")"
        if isinstance(v, GenericArchivedObject):
            return v.clazz.name.decode() + "(" + ",".join(c(x, depth + 1) for g in v.contents for x in g.values) + ")"
        raise ValueError("no canonical text for %r" % (v,))

    db = sqlite3.connect(sys.argv[1])
    for rowid, body in db.execute("select rowid, attributedBody from message where attributedBody is not null order by rowid"):
        print(rowid, body.hex(), c(typedstream.unarchive_from_data(body)))
    """#

    /// The same canonical text made from the keyed archive Archivist reads a typedstream into.
    static func canonical(_ archive: PlistValue) throws -> String {
        guard case .dictionary(let envelope) = archive, case .array(let objects)? = envelope["$objects"],
              case .dictionary(let top)? = envelope["$top"], case .uid(let root)? = top["root"] else { throw PlistError(.archive, "no root") }
        func field(_ v: PlistValue, _ depth: Int) throws -> String {
            switch v {
            case .uid(let u): return u == 0 ? "nil" : try object(Int(u), depth + 1)
            case .integer(let i): return "i:\(i)"
            case .real(let r): return "f:\(r.value)"
            case .bool(let b): return "b:\(b)"
            case .string(let s): return "s:" + BookmarkFixtures.hex(Array(s.utf8))
            case .data(let d): return "d:" + BookmarkFixtures.hex(d)
            case .array(let items): return "(" + (try items.map { try field($0, depth + 1) }).joined(separator: ",") + ")"
            default: throw PlistError(.archive, "unexpected \(v)")
            }
        }
        func object(_ index: Int, _ depth: Int) throws -> String {
            guard depth < 100, index < objects.count else { throw PlistError(.archive, "too deep or out of range") }
            guard case .dictionary(let o) = objects[index] else { return try field(objects[index], depth) }
            guard case .uid(let c)? = o["$class"], case .dictionary(let cls) = objects[Int(c)], case .string(let name)? = cls["$classname"] else {
                throw PlistError(.archive, "no class")
            }
            func list(_ key: String) throws -> [String] {
                guard case .array(let items)? = o[key] else { return [] }
                return try items.map { try field($0, depth) }
            }
            let numbered = try (0..<o.count).compactMap { i in try o[String(i)].map { try field($0, depth) } }
            switch ClassCatalogue.description(of: name)?.typedstream {
            case .list?:
                return name + "[" + (try list("NS.objects")).joined(separator: ",") + "]"
            case .map?:
                return name + "{" + zip(try list("NS.keys"), try list("NS.objects")).map { $0 + "=" + $1 }.joined(separator: ",") + "}"
            case .url?:
                return "url(" + (try field(o["NS.base"] ?? .uid(0), depth)) + "," + (try field(o["NS.relative"] ?? .uid(0), depth)) + ")"
            case .attributedString?:
                return name + "(" + ([try field(o["NSString"] ?? .uid(0), depth)] + numbered).joined(separator: ",") + ")"
            case .string?, .number?, .data?, nil:
                return name + "(" + numbered.joined(separator: ",") + ")"
            }
        }
        return try object(Int(root), 0)
    }

    static func unhex(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        var it = s.utf8.makeIterator()
        while let a = it.next() {
            guard let b = it.next(), let v = UInt8(String(decoding: [a, b], as: UTF8.self), radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }
}
