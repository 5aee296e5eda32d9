import ArchivistCore
import Foundation
import XCTest

/// What a `NullEntryTests` archive's root decodes to in Foundation.
final class NullEntryHolder: NSObject, NSCoding {
    let first: Any?, second: Any?
    init?(coder: NSCoder) {
        first = coder.decodeObject(forKey: "first")
        second = coder.decodeObject(forKey: "second")
    }
    func encode(with coder: NSCoder) {}
}

/// A `$objects` entry that is the string `$null` is nil wherever it is, as
/// NSKeyedUnarchiver reads it (Interface Builder's nibs hold several:
/// `sparkle/SUStatus.nib/keyedobjects.nib`'s `NSSuperview`s).
extension CLITests {
    func testEveryNullEntryIsNil() throws {
        let objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("first", .uid(2)), ("second", .uid(3)), ("$class", .uid(4))])),
            .string("$null"),
            .string("text"),
            .dictionary(PlistDictionary([("$classname", .string("Holder")), ("$classes", .array([.string("Holder"), .string("NSObject")]))])),
        ]
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$version", .int(100000)), ("$archiver", .string("NSKeyedArchiver")),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        let bytes = Data(try PropertyList.write(archive, as: .binary))
        try bytes.write(to: work.appendingPathComponent("holder.plist"))
        // Foundation: the reference to the second "$null" decodes as nil.
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: bytes)
        unarchiver.requiresSecureCoding = false
        unarchiver.setClass(NullEntryHolder.self, forClassName: "Holder")
        let holder = try XCTUnwrap(unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NullEntryHolder)
        XCTAssertNil(holder.first)
        XCTAssertEqual(holder.second as? String, "text")

        let dump = try run(["dump", "holder.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("\n    first = nil\n    second = \"text\"\n"), dump.stdout)
        let json = try run(["dump", "--json", "holder.plist"])
        XCTAssertTrue(json.stdout.contains("\"null\": true"), json.stdout)
        XCTAssertFalse(json.stdout.contains("\"$null\""), json.stdout)
    }
}
