import ArchivistCore
import Foundation
import XCTest

/// An in-place conversion to XML says once per file what XML cannot keep of
/// it, as Foundation writes XML too: a date's fraction of a second (XML
/// dates are whole seconds), a 32-bit real's width (its value is written in
/// full and read back as a 64-bit real), the sign of a negative zero
/// (written `0.0`). Nothing is said when nothing is lost, when the input
/// stays (`-o`), or with `--quiet`.
extension CLITests {
    /// A binary plist holding what XML loses: `subSecond` dates with a
    /// fraction, `narrow` 32-bit reals, `negativeZero` negative zeros, and
    /// values XML keeps.
    private func lossyBinary(subSecond: Int, narrow: Int, negativeZero: Int) throws -> Data {
        var entries: [(String, PlistValue)] = [("whole", .date(PlistDate(secondsSinceReferenceDate: 700_000_000))), ("wide", .real(PlistReal(0.1)))]
        for i in 0..<subSecond { entries.append(("date\(i)", .date(PlistDate(secondsSinceReferenceDate: 700_000_000.25 + Double(i))))) }
        for i in 0..<narrow { entries.append(("float\(i)", .real(PlistReal(Double(Float(0.1) * Float(i + 1)), width: .bits32)))) }
        for i in 0..<negativeZero { entries.append(("zero\(i)", .real(PlistReal(-0.0)))) }
        return Data(try PropertyList.write(.dictionary(PlistDictionary(entries)), as: .binary))
    }

    private func place(_ data: Data, _ name: String) throws {
        let url = work.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func testAnInPlaceConversionToXMLSaysWhatItLoses() throws {
        try place(try lossyBinary(subSecond: 2, narrow: 1, negativeZero: 1), "docs/a.plist")
        try place(try lossyBinary(subSecond: 1, narrow: 3, negativeZero: 0), "docs/b.plist")
        try place(try lossyBinary(subSecond: 0, narrow: 0, negativeZero: 0), "docs/kept.plist")
        let r = try run(["convert", "docs", "--to", "xml", "--in-place", "--jobs", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.contains("warning") }, [
            "docs/a.plist: warning: XML keeps less than the original held: 2 dates lose their fraction of a second (XML dates are whole seconds); "
                + "1 32-bit real is kept as 64-bit (the same value, not the same width); 1 negative zero becomes 0.0",
            "docs/b.plist: warning: XML keeps less than the original held: 1 date loses its fraction of a second (XML dates are whole seconds); "
                + "3 32-bit reals are kept as 64-bit (the same value, not the same width)",
        ])
        XCTAssertEqual(contents("docs/a.plist")?.prefix(5), Data("<?xml".utf8))
        // What the warning names is what Foundation's XML holds: whole seconds, 0.0.
        let xml = String(decoding: try XCTUnwrap(contents("docs/a.plist")), as: UTF8.self)
        XCTAssertTrue(xml.contains("<date>2023-03-08T20:26:40Z</date>"), xml)
        XCTAssertTrue(xml.contains("<key>zero0</key>\n\t<real>0.0</real>"), xml)

        // Not with --quiet, not when the input stays, not for XML to XML.
        try place(try lossyBinary(subSecond: 1, narrow: 1, negativeZero: 1), "c.plist")
        let quiet = try run(["convert", "c.plist", "--to", "xml", "--in-place", "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
        try place(try lossyBinary(subSecond: 1, narrow: 1, negativeZero: 1), "d.plist")
        let copy = try run(["convert", "d.plist", "--to", "xml", "-o", "d.xml"])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        XCTAssertEqual(copy.stderr, "")
        let again = try run(["convert", "docs/b.plist", "--to", "xml", "--in-place"])
        XCTAssertEqual(again.stderr, "")
        let binary = try run(["convert", "d.plist", "--to", "binary", "--in-place"])
        XCTAssertEqual(binary.stderr, "")
    }
}
