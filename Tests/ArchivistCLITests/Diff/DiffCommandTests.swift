import ArchivistCore
import Foundation
import XCTest

/// `diff` takes a real that only changed width (a 32-bit real written back
/// as 64-bit) for the same number: one note, no change.
extension CLITests {
    /// A keyed archive whose root object holds `Rating` inline.
    private static func archive(rating: PlistReal) throws -> Data {
        let objects: [PlistValue] = [
            .string("$null"),
            .dictionary(PlistDictionary([("$class", .uid(2)), ("Rating", .real(rating))])),
            .dictionary(PlistDictionary([("$classname", .string("Creature")), ("$classes", .array([.string("Creature"), .string("NSObject")]))])),
        ]
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        return Data(try PropertyList.write(archive, as: .binary))
    }

    /// A 32-bit inline real written back as 64-bit is the same number: diff
    /// exits 0 with one note; a real that changed is still a change.
    func testDiffTakesAWidthChangeForNoChange() throws {
        try Self.archive(rating: PlistReal(float: 0.9456522)).write(to: work.appendingPathComponent("v1.plist"))
        try Self.archive(rating: PlistReal(0.945652186870575)).write(to: work.appendingPathComponent("v2.plist"))
        try Self.archive(rating: PlistReal(0.9456523)).write(to: work.appendingPathComponent("v3.plist"))
        let same = try run(["diff", "v1.plist", "v2.plist"])
        XCTAssertEqual(same.status, 0, same.stdout)
        XCTAssertEqual(same.stdout, "")
        XCTAssertEqual(same.stderr, "note: a real differs only in width (32-bit on one side, 64-bit on the other) but is the same number as a 32-bit float: not a change (root.Rating)\n")
        let json = try run(["diff", "--json", "v2.plist", "v1.plist"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: json.output) as? [Any])?.count, 0, json.stdout)
        let changed = try run(["diff", "v1.plist", "v3.plist"])
        XCTAssertEqual(changed.status, 1)
        XCTAssertEqual(changed.stdout, "~ root.Rating: inline real 0.9456522 -> inline real 0.9456523\n")
        // Plain property lists too: several reals, one note.
        let plain32 = PlistValue.array([.real(PlistReal(float: 0.1)), .real(PlistReal(float: 2.7))])
        let plain64 = PlistValue.array([.real(PlistReal(0.1)), .real(PlistReal(2.7))])
        try Data(try PropertyList.write(plain32, as: .binary)).write(to: work.appendingPathComponent("a.plist"))
        try Data(try PropertyList.write(plain64, as: .binary)).write(to: work.appendingPathComponent("b.plist"))
        let plain = try run(["diff", "a.plist", "b.plist"])
        XCTAssertEqual(plain.status, 0, plain.stdout)
        XCTAssertEqual(plain.stderr, "note: 2 reals differ only in width (32-bit on one side, 64-bit on the other) but are the same numbers as 32-bit floats: not changes (0 and 1 more)\n")
    }
}
