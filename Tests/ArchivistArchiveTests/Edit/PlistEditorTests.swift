import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Edits at key paths: plain trees, archives (shared objects copied first),
/// nested archives; results checked with Foundation's readers.
final class PlistEditorTests: XCTestCase {
    static let corpus = TestPaths.corpus

    func read(_ path: String) throws -> PlistDocument {
        try PropertyList.read([UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(path))))
    }

    func edit(_ e: PlistEdit, _ path: String, _ value: PlistValue, create: Bool = false) throws -> PlistValue {
        try PlistEditor.apply(e, at: PlistKeyPath(path), in: value, create: create)
    }

    /// An edited binary plist stays binary and Foundation reads exactly the intended change.
    func testBinaryEditReadsBackInFoundation() throws {
        let document = try read("foundation/info-plist.bplist")
        XCTAssertEqual(document.format, .binary)
        let edited = try edit(.set(.string("43")), "CFBundleVersion", document.tree.value)
        let bytes = try PropertyList.write(edited, as: document.format)
        XCTAssertEqual(Array(bytes.prefix(8)), Array("bplist00".utf8))
        let before = try XCTUnwrap(try PropertyListSerialization.propertyList(from: Data(try PropertyList.write(document.tree.value, as: .binary)), format: nil) as? NSDictionary)
        let after = try XCTUnwrap(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? NSDictionary)
        let expected = NSMutableDictionary(dictionary: before as? [AnyHashable: Any] ?? [:])
        expected["CFBundleVersion"] = "43"
        XCTAssertEqual(after, expected, "exactly the intended change")
    }

    func testPlainTreeEdits() throws {
        let tree = try read("foundation/info-plist.bplist").tree.value
        var t = try edit(.append(.string("Landscape")), "UISupportedInterfaceOrientations", tree)
        XCTAssertEqual(try PlistKeyPath("UISupportedInterfaceOrientations.1").resolve(in: t).plainValue(), .string("Landscape"))
        t = try edit(.set(.int(1)), "UISupportedInterfaceOrientations.2", t)
        XCTAssertEqual(try PlistKeyPath("UISupportedInterfaceOrientations.2").resolve(in: t).plainValue(), .int(1), "one past the end appends")
        t = try edit(.remove, "CFBundleURLTypes.0", t)
        XCTAssertEqual(try PlistKeyPath("CFBundleURLTypes").resolve(in: t).plainValue(), .array([]))
        t = try edit(.set(.bool(true)), "a.b.c", t, create: true)
        XCTAssertEqual(try PlistKeyPath("a.b.c").resolve(in: t).plainValue(), .bool(true))
        // The messages name no option of the command; a missing key on the
        // way carries the reason `create: true` answers.
        let cases: [(PlistEdit, String, String, PlistError.Reason?)] = [
            (.set(.int(1)), "CFBundleURLTypes.5", "CFBundleURLTypes.5: index 5 out of range (array of 0)", nil),
            (.set(.int(1)), "x.y", "x: no key \"x\" (dictionary of 6 keys)", .missingKey),
            (.remove, "nothing", "nothing: no key \"nothing\" to remove (dictionary of 6 keys)", nil),
            (.set(.int(1)), "CFBundleVersion.x", "CFBundleVersion.x: a string has no key \"x\"", nil),
            (.append(.int(1)), "CFBundleVersion", "CFBundleVersion: a string, not an array to append to", nil),
        ]
        for (e, path, message, reason) in cases {
            XCTAssertThrowsError(try edit(e, path, t), path) { error in
                XCTAssertEqual((error as? PlistError)?.message, message)
                XCTAssertEqual((error as? PlistError)?.reason, reason, path)
            }
        }
    }

    /// Editing a field of an archived object writes an archive Foundation still
    /// decodes; an object shared with another place is copied, not changed under it.
    func testArchiveEditsKeepSharedObjects() throws {
        let shared = NSMutableDictionary(dictionary: ["name": "shared"])
        let root = NSDictionary(dictionary: ["a": shared, "b": shared, "list": NSArray(array: ["x", "y"])])
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let tree = try PropertyList.read([UInt8](data)).tree.value
        var t = try edit(.set(.string("changed")), "root.a.name", tree)
        t = try edit(.append(.string("z")), "root.list", t)
        t = try edit(.set(.date(PlistDate(secondsSinceReferenceDate: 10))), "root.when", t)
        t = try edit(.remove, "root.list.0", t)
        let bytes = try PropertyList.write(t, as: .binary)
        let back = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(bytes)) as? NSDictionary)
        XCTAssertEqual((back["a"] as? NSDictionary)?["name"] as? String, "changed")
        XCTAssertEqual((back["b"] as? NSDictionary)?["name"] as? String, "shared", "the other reference keeps the old object")
        XCTAssertEqual(back["list"] as? [String], ["y", "z"])
        XCTAssertEqual(back["when"] as? Date, Date(timeIntervalSinceReferenceDate: 10))
    }

    func testCustomObjectFieldsAndNestedArchives() throws {
        let computer = try read("archives/computer.plist").tree.value
        let edited = try edit(.set(.int(7)), "root.cpu_coder.cores.0.constant", computer)
        let graph = try ObjectGraph(edited)
        guard case .node(let g, let core) = try PlistKeyPath("root.cpu_coder.cores.0").resolve(in: edited) else { return XCTFail() }
        XCTAssertEqual(g.object(core)?["constant"], .inline(.int(7)), "an inline primitive stays inline")
        XCTAssertEqual(graph.nodes.filter { if case .object(let o) = $0 { return o.className.readable == "MusicBox.CPUCore" } else { return false } }.count, 2)
        XCTAssertThrowsError(try edit(.set(.int(1)), "root.cpu_coder.nope.x", computer)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "root.cpu_coder.nope: MusicBox.CPU.CPUCoder has no field \"nope\" (fields: clock, constant, cores)")
        }
        let prefs = try read("archives/preferences-with-user.plist")
        let renamed = try edit(.set(.string("Grace")), "currentUser.root.name", prefs.tree.value)
        XCTAssertEqual(try PlistKeyPath("currentUser.root.name").resolve(in: renamed).plainValue(), .string("Grace"))
        XCTAssertEqual(try PlistKeyPath("launchCount").resolve(in: renamed).plainValue(), .int(12), "the rest of the outer file stays")
        guard case .dictionary(let d) = renamed, case .data(let inner)? = d["currentUser"] else { return XCTFail() }
        XCTAssertEqual(Array(inner.prefix(8)), Array("bplist00".utf8), "the nested archive keeps its format")
    }
}
