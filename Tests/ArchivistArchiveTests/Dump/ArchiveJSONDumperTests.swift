import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// `dump --json`'s view of archives written by Foundation's `NSKeyedArchiver`,
/// read back with Foundation's `JSONSerialization` and compared with the
/// objects archived.
final class ArchiveJSONDumperTests: XCTestCase {
    private func view(_ root: Any, options: DumpOptions = DumpOptions()) throws -> [String: Any] {
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        let graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        let json = try ArchiveJSONDumper.json(graph, options: options)
        let parsed = try JSONSerialization.jsonObject(with: Data(json))
        guard let top = (parsed as? [String: Any])?["top"] as? [String: Any], let view = top["root"] as? [String: Any] else {
            XCTFail("no top.root in \(String(decoding: json, as: UTF8.self))")
            return [:]
        }
        XCTAssertEqual((parsed as? [String: Any])?["archiver"] as? String, "NSKeyedArchiver")
        return view
    }

    /// An NSDictionary's entries: a JSON object when its keys are strings.
    private func entries(_ view: [String: Any]) -> [String: Any] {
        view["entries"] as? [String: Any] ?? [:]
    }

    func testFoundationValuesReadBackAsArchived() throws {
        let names = ["Ada", "Grace \"quoted\" / slash\n\ttab", "é 😀 \u{1}"]
        let shared = NSArray(array: ["x", "y"])
        let when = Date(timeIntervalSinceReferenceDate: 12.25)
        let bytes = Data([0, 1, 2, 255, 128])
        let root: NSDictionary = [
            "names": names, "numbers": [1, 2.5, -7, 1_000_000_007] as [NSNumber], "flag": true,
            "when": when as NSDate, "bytes": bytes as NSData, "shared": shared, "again": shared,
        ]
        let view = try view(root)
        XCTAssertEqual(view["class"] as? String, "NSDictionary")
        let e = entries(view)
        XCTAssertEqual(e.count, root.count)
        XCTAssertEqual((e["names"] as? [String: Any])?["items"] as? [String], names)
        XCTAssertEqual(((e["numbers"] as? [String: Any])?["items"] as? [NSNumber])?.map(\.doubleValue), [1, 2.5, -7, 1_000_000_007])
        XCTAssertEqual(e["flag"] as? Bool, true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        XCTAssertEqual((e["when"] as? String).flatMap { formatter.date(from: $0) }, when)
        XCTAssertEqual((e["bytes"] as? String).flatMap { Data(base64Encoded: $0) }, bytes)
        // The shared array is shown once with its id, then referred to.
        let first = [e["shared"], e["again"]].compactMap { $0 as? [String: Any] }
        XCTAssertEqual(first.count, 2)
        let shown = first.first { $0["items"] != nil }, ref = first.first { $0["ref"] != nil }
        XCTAssertEqual(shown?["items"] as? [String], ["x", "y"])
        XCTAssertEqual(shown?["id"] as? Int, ref?["ref"] as? Int)
    }

    /// A long string that Foundation archives once and refers to from many
    /// places is shown at each in JSON, and from the second on its bytes
    /// count: past `maxSharedBytes` the view is refused, not written (the
    /// text view shows it once and refers to it after).
    func testRepeatedBytesOfASharedStringAreBounded() throws {
        let long = String(repeating: "long text ", count: 10_000) as NSString
        var options = DumpOptions()
        options.maxSharedBytes = 1_600_000
        let many = NSArray(array: Array(repeating: long, count: 40))
        let data = try NSKeyedArchiver.archivedData(withRootObject: many, requiringSecureCoding: false)
        XCTAssertLessThan(data.count, 110_000)
        let graph = try ObjectGraph(try PropertyList.read([UInt8](data)).tree)
        XCTAssertThrowsError(try ArchiveJSONDumper.json(graph, options: options)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
            XCTAssertTrue((error as? PlistError)?.message.contains("1600000 bytes") == true, "\(error)")
        }
        // The text view shows the string once and refers to it after: nothing is repeated.
        let text = try ArchiveDumper.render(graph, options: options)
        XCTAssertEqual(text.components(separatedBy: "-> @").count - 1, 39)
        XCTAssertLessThan(text.utf8.count, 2 * data.count)
        // Sixteen references repeat 1,500,000 bytes: within the bound, shown in full.
        let few = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: Array(repeating: long, count: 16)), requiringSecureCoding: false)
        let items = try view(NSArray(array: Array(repeating: long, count: 16)), options: options)["items"] as? [String]
        XCTAssertEqual(items?.count, 16)
        XCTAssertEqual(items?.last?.utf8.count, long.length)
        XCTAssertNoThrow(try ArchiveDumper.render(try ObjectGraph(try PropertyList.read([UInt8](few)).tree), options: options))
        XCTAssertEqual(DumpOptions().maxSharedBytes, Limits.default.maxSharedExpansion)
    }
}
