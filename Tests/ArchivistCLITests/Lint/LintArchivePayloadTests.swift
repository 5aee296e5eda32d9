import ArchivistCore
import Foundation
import XCTest

/// `lint` checks what NSKeyedUnarchiver reads of Foundation classes, not only the envelope.
extension CLITests {
    /// Foundation's archive of every class dump shows as a value, with the
    /// first object of some classes changed by `edits`.
    func brokenFoundationArchive(_ edits: [String: (inout PlistDictionary) -> Void]) throws -> PlistValue {
        let tree = try PropertyList.read([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: corpus("archives/foundation-classes.plist"))))).tree.value
        guard case .dictionary(var envelope) = tree, case .array(var objects)? = envelope["$objects"] else { throw XCTSkip("not an archive") }
        for (className, edit) in edits {
            let cls = try XCTUnwrap(objects.firstIndex { if case .dictionary(let d) = $0 { return d["$classname"] == .string(className) } else { return false } })
            let index = try XCTUnwrap(objects.firstIndex { if case .dictionary(let d) = $0 { return d["$class"] == .uid(UInt64(cls)) } else { return false } })
            guard case .dictionary(var object) = objects[index] else { throw XCTSkip("not an object") }
            edit(&object)
            objects[index] = .dictionary(object)
        }
        envelope["$objects"] = .array(objects)
        return .dictionary(envelope)
    }

    func testLintChecksFoundationPayloads() throws {
        let broken = try brokenFoundationArchive([
            "NSDate": { $0["NS.time"] = .string("yesterday") },
            "NSUUID": { $0["NS.uuidbytes"] = .data([1, 2, 3]) },
        ])
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("broken.plist").path,
                                                     contents: Data(try PropertyList.write(broken, as: .binary))))
        let lint = try run(["lint", "broken.plist", corpus("archives/foundation-classes.plist")])
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout, """
            broken.plist: $objects[53] (root.NSUUID): error: NSUUID: NS.uuidbytes holds 3 bytes, not 16
            broken.plist: $objects[80] (root.NSDate): error: NSDate: NS.time is a string, not a real (seconds since 2001)
            \(corpus("archives/foundation-classes.plist")): OK

            """)
        // The paths are ones get takes.
        for path in ["root.NSUUID", "root.NSDate"] { XCTAssertEqual(try run(["get", "broken.plist", path, "--type"]).status, 0, path) }
        let json = try run(["lint", "--format", "json", "broken.plist"])
        XCTAssertTrue(json.stdout.contains(#""keyPath":"root.NSDate""#) || json.stdout.contains(#""keyPath": "root.NSDate""#), json.stdout)
    }
}
