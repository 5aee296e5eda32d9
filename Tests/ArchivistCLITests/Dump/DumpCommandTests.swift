import ArchivistTestSupport
import Foundation
import XCTest

/// Smaller points of the views, each against what Foundation wrote: `classes`
/// says when an archive has no objects, `dump` writes a date's fraction in the
/// shortest digits that read back, `dump --json` writes a dictionary with
/// string keys as a JSON object.
extension CLITests {
    /// Writes an archive of `root` made by Foundation and returns its name.
    private func archived(_ root: Any, name: String) throws -> String {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(root, forKey: "root")
        archiver.finishEncoding()
        try archiver.encodedData.write(to: work.appendingPathComponent(name))
        return name
    }

    func testClassesSaysWhenAnArchiveHasNoObjects() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode(1, forKey: "IB.systemFontUpdateVersion")
        archiver.encode(NSString(string: "hello"), forKey: "root")
        archiver.finishEncoding()
        try archiver.encodedData.write(to: work.appendingPathComponent("strings.plist"))
        let r = try run(["classes", "strings.plist"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "strings.plist: note: no objects, so no classes (the archive holds only values: strings, numbers, data or nil)\n")
        // An archive with objects says nothing of the kind.
        let dictionary = try archived(NSDictionary(dictionary: ["a": 1]), name: "dictionary.plist")
        let listed = try run(["classes", dictionary])
        XCTAssertEqual(listed.stderr, "")
        XCTAssertTrue(listed.stdout.contains("NSDictionary"), listed.stdout)
    }

    func testDumpDateFractionReadsBack() throws {
        for t in [607_041_388.318, 3.5, -0.25, Double(Float(0.618)), 1_000_000.1] {
            let file = try archived(NSDate(timeIntervalSinceReferenceDate: t), name: "date.plist")
            let r = try run(["dump", file])
            XCTAssertEqual(r.status, 0, r.stderr)
            let whole = t.rounded(.down)
            // The digits between "(+0" and "s)" read back, after the whole second, as t exactly.
            guard let open = r.stdout.range(of: " (+0."), let close = r.stdout.range(of: "s) (NSDate)", range: open.upperBound..<r.stdout.endIndex) else {
                XCTFail("\(t): \(r.stdout)")
                continue
            }
            let digits = String(r.stdout[open.upperBound..<close.lowerBound])
            if whole >= 0 {
                XCTAssertEqual(Double("\(Int64(whole))." + digits), t, "\(t): \(r.stdout)")
                XCTAssertEqual("\(Int64(whole))." + digits, t.description, "shortest: \(r.stdout)")
            }
            // The JSON view writes the same digits in its date.
            let json = try run(["dump", "--json", file])
            XCTAssertTrue(json.stdout.contains("." + digits + "Z\""), "\(t): \(json.stdout)")
        }
        let noisy = try archived(NSDate(timeIntervalSinceReferenceDate: 607_041_388.318), name: "noisy.plist")
        let shown = try run(["dump", noisy]).stdout
        XCTAssertTrue(shown.contains("2020-03-27T22:36:28Z (+0.318s) (NSDate)"), shown)
    }

    func testDumpJSONWritesStringKeyedDictionariesAsObjects() throws {
        let file = try archived(NSDictionary(dictionary: ["name": "Ada", "age": 36, "tags": ["x", "y"]]), name: "dict.plist")
        let r = try run(["dump", "--json", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        let view = try XCTUnwrap(try JSONSerialization.jsonObject(with: r.output) as? [String: Any])
        let root = try XCTUnwrap((view["top"] as? [String: Any])?["root"] as? [String: Any])
        XCTAssertEqual(root["class"] as? String, "NSDictionary")
        let entries = try XCTUnwrap(root["entries"] as? [String: Any], r.stdout)
        XCTAssertEqual(entries["name"] as? String, "Ada")
        XCTAssertEqual(entries["age"] as? Int, 36)
        XCTAssertEqual((entries["tags"] as? [String: Any])?["items"] as? [String], ["x", "y"])
        // The same keys and scalar values as the Codable export writes.
        let codable = try XCTUnwrap(try JSONSerialization.jsonObject(with: try run(["convert", file, "--to", "codable-json"]).output) as? [String: Any])
        XCTAssertEqual(Set(entries.keys), Set(codable.keys))
        // A key that is not a string keeps the pairs.
        let numbers = try archived(NSDictionary(dictionary: [1: "one"]), name: "numbers.plist")
        let pairs = try run(["dump", "--json", numbers])
        let numbersRoot = try XCTUnwrap(((try JSONSerialization.jsonObject(with: pairs.output) as? [String: Any])?["top"] as? [String: Any])?["root"] as? [String: Any])
        XCTAssertEqual(numbersRoot["entries"] as? [[AnyHashable]], [[1, "one"]], pairs.stdout)
    }

    func testDumpAndClasses() throws {
        let computer = TestPaths.corpus.appendingPathComponent("archives/computer.plist").path
        let dump = try run(["dump", computer])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("cpu_coder = MusicBox.CPU.CPUCoder (_TtCV8MusicBox3CPU8CPUCoder) {"), dump.stdout)
        XCTAssertFalse(dump.stdout.contains("\u{1B}["), "no colour when piped")
        let path = try run(["dump", "--key-path", "root.cpu_coder.cores.5", computer])
        XCTAssertEqual(path.status, 1)
        XCTAssertEqual(path.stderr, "\(computer): error: root.cpu_coder.cores.5: index 5 out of range (array of 2)\n")
        let raw = try run(["dump", "--raw", computer])
        XCTAssertTrue(raw.stdout.contains("\"$objects\" => ["), raw.stdout)
        let classes = try run(["classes", "--swift", computer])
        XCTAssertEqual(classes.status, 0, classes.stderr)
        XCTAssertTrue(classes.stdout.hasPrefix("try NSKeyedUnarchiver.unarchivedObject(ofClasses: ["), classes.stdout)
        XCTAssertEqual(classes.stdout, "try NSKeyedUnarchiver.unarchivedObject(ofClasses: [Computer.self, CPU.CPUCoder.self, NSArray.self, CPUCore.self], from: data)\n")
        XCTAssertEqual(try run(["dump", "--depth", "-1", computer]).status, 64)
    }
}
