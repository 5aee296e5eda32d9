import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

/// Inputs that once took seconds and gigabytes: a view of a widely shared
/// value, and an XML element with tens of thousands of attributes.
extension CLITests {
    func testDumpOfAWidelySharedValueIsRefusedAtTheLimit() throws {
        // An archive whose NSArray refers 300,000 times to one plain array of
        // 40 values in $objects: 12,000,000 values to show.
        let nsArray = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))]))
        let array = PlistValue.dictionary(PlistDictionary([("NS.objects", .array(Array(repeating: .uid(2), count: 300_000))), ("$class", .uid(3))]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([.string("$null"), array, .array((0..<40).map { .int(Int64($0)) }), nsArray])),
        ]))
        let bytes = try PropertyList.write(archive, as: .binary)
        XCTAssertLessThan(bytes.count, 1_000_000)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("shared.plist").path, contents: Data(bytes)))
        // The view is written as it is made: what came before the refusal
        // stays (in a file here, not in this process's memory), and stops there.
        let out = work.appendingPathComponent("shared.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: out.path, contents: nil))
        let dump = try ProcessRunner.run(ProcessRunner.archivist, ["dump", "--json", "shared.plist"], in: work, stdin: .inherit,
                                         stdout: .handle(try FileHandle(forWritingTo: out)))
        let stderr = dump.stderr
        XCTAssertEqual(dump.status, 1)
        XCTAssertEqual(stderr, "shared.plist: $objects[2]: error: the view would show more than 10000000 values (an object or value shared by many places counts at each)\n")
        let head = try FileHandle(forReadingFrom: out)
        let prefix = String(decoding: try head.read(upToCount: 60) ?? Data(), as: UTF8.self)
        try head.close()
        XCTAssertTrue(prefix.hasPrefix("{\n  \"archiver\": \"NSKeyedArchiver\",\n  \"top\": {\n    \"root\": {\n"), prefix)
        let size = try FileManager.default.attributesOfItem(atPath: out.path)[.size] as? Int ?? 0
        XCTAssertLessThan(size, 400_000_000)
        XCTAssertEqual(try run(["lint", "shared.plist"]).stdout, "shared.plist: OK\n", "the file itself is valid")
    }

    /// Refused at the 1025th attribute (the message says the bound), not after
    /// reading all of them.
    func testLintOfAnElementWithTensOfThousandsOfAttributesIsQuick() throws {
        let attributes = (0..<50_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        make("attributes.plist", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict \(attributes)><key>k</key><string>v</string></dict>\n</plist>\n")
        let lint = try run(["lint", "attributes.plist"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertEqual(lint.stdout, "attributes.plist:3:1: error: an element with more than 1024 attributes (property-list elements have none)\n")
    }
}
