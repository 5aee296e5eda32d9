import ArchivistCore
import Foundation
import XCTest

/// A 752-byte archive of shared objects (10 fields x 7 levels, each field
/// referring to the object of the next level) describes 11,111,111 values:
/// `convert --to codable-json` and `diff` refuse it before expanding
/// anything, at the object they were asked for (they expanded it up to the
/// 10,000,000th value, 520 MB, and stopped deep inside it); `get` shows it as
/// `dump` does, each shared object once.
extension CLITests {
    func testSharedLevelsAreRefusedBeforeExpanding() throws {
        var objects: [PlistValue] = [.string("$null")]
        for level in 0..<7 {
            let fields = (0..<10).map { ("f\($0)", PlistValue.uid(UInt64(level + 2))) }
            objects.append(.dictionary(PlistDictionary(fields + [("$class", .uid(9))])))
        }
        objects.append(.string("leaf"))
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node"), .string("NSObject")]))])))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        let bytes = try PropertyList.write(archive, as: .binary)
        XCTAssertLessThan(bytes.count, 1_000)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("levels.plist").path, contents: Data(bytes)))
        let message = "error: the JSON would hold more than 10000000 values (shared objects are written at every reference)\n"
        let convert = try run(["convert", "levels.plist", "--to", "codable-json", "-o", "levels.json"])
        XCTAssertEqual(convert.status, 1)
        XCTAssertEqual(convert.stderr, "levels.plist: root: " + message)
        // `get` shows an object as dump does, each shared object once and referred to after.
        let get = try run(["get", "levels.plist", "root"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(get.output, try run(["dump", "--key-path", "root", "levels.plist"]).output)
        XCTAssertTrue(get.stdout.contains("-> @3"), get.stdout)
        XCTAssertLessThan(get.output.count, 10_000)
        // `diff` walks both graphs in step, each pair of objects once: nothing to expand.
        let diff = try run(["diff", "levels.plist", "levels.plist"])
        XCTAssertEqual(diff.status, 0, diff.stderr)
        XCTAssertEqual(diff.stdout, "")
        XCTAssertEqual(try run(["get", "levels.plist", "root.f3.f2.f1.f0.f9.f8.f7"]).stdout, "leaf\n", "each value is still reachable")
        XCTAssertEqual(try run(["lint", "levels.plist"]).stdout, "levels.plist: OK\n", "the file itself is valid")
    }
}
