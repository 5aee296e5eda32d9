import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// The walk over `../shared/real-world` (its MANIFEST.tsv): files Apple's
/// frameworks and tools wrote, through the built binary. Every valid file
/// lints; converts to every format that can hold its tree and back to an equal
/// tree, Foundation's `PropertyListSerialization` reading each result as it
/// reads what it writes itself; dumps (text and JSON) with every archive
/// decoded; converts to XML byte for byte as Foundation writes it. Every
/// archive column of every store dumps, lints and lists its classes. Each
/// failure names the file (the manifest's path).
extension CLITests {
    /// One row of the real-world manifest.
    struct RealWorldFile {
        /// The path below `../shared/real-world`, as failures name the file.
        var path: String
        /// The manifest's format: xml, binary, openstep, keyed-archive-*, sqlite.
        var format: String
        /// Whether Foundation (or SQLite's quick_check, for a store) accepts it.
        var valid: Bool
        /// What the file is; for a store, its blob columns and what they hold.
        var kind: String
        /// The file's absolute path.
        var file: String
        var isStore: Bool { format == "sqlite" }
    }

    /// The manifest's rows; skips the test when `../shared/real-world` is absent.
    func realWorldFiles() throws -> [RealWorldFile] {
        let rows = try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld).map {
            RealWorldFile(path: $0.path, format: $0.format, valid: $0.valid, kind: $0.kind, file: $0.file)
        }
        XCTAssertFalse(rows.isEmpty, "MANIFEST.tsv lists no files")
        return rows
    }

    /// The valid files that are property lists or archives (not stores).
    func realWorldPropertyLists() throws -> [RealWorldFile] {
        try realWorldFiles().filter { $0.valid && !$0.isStore }
    }

    func testRealWorldFilesLint() throws {
        let rows = try realWorldFiles().filter { !$0.isStore }
        for row in rows {
            let r = try run(["lint", row.file])
            XCTAssertEqual(r.stderr, "", row.path)
            if row.valid {
                XCTAssertEqual(r.status, 0, "\(row.path): \(r.stdout)")
                XCTAssertEqual(r.stdout, "\(row.file): OK\n", row.path)
            } else {
                XCTAssertEqual(r.status, 1, "\(row.path): an invalid file passed lint")
                XCTAssertTrue(r.stdout.hasPrefix(row.file + ":") && r.stdout.contains(": error: "), "\(row.path): \(r.stdout)")
            }
        }
    }

    func testRealWorldFilesConvertToEveryFormatAndBack() throws {
        var converted = 0
        for row in try realWorldPropertyLists() {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: row.file), row.path)
            let original: PlistDocument
            do {
                original = try PropertyList.read([UInt8](bytes))
            } catch {
                XCTFail("\(row.path): \(error)")
                continue
            }
            let value = original.tree.value
            // What Foundation reads from the file (nil where it cannot).
            let foundation = try? PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
            try roundTrip(row, value, to: .binary, back: original.format, expected: value,
                          judge: foundation.map { try Self.foundationRewrite($0, .binary) })
            try roundTrip(row, value, to: .xml, back: original.format, expected: PlistLeaves.wholeSecondDates(value),
                          judge: foundation.map { try Self.foundationRewrite($0, .xml) })
            // PropertyListSerialization reads no JSON, and swift-corelibs-foundation's
            // JSONSerialization rounds some reals (25199.946528077126 to ...133):
            // the tree read back is the judge here.
            if Self.jsonHolds(value) {
                try roundTrip(row, value, to: .json, back: original.format, expected: value, judge: nil)
            }
            if PlistLeaves.openStepHolds(value) {
                try roundTrip(row, value, to: .openstep, back: original.format, expected: value, judge: foundation)
            } else {
                let refused = try run(["convert", row.file, "--to", "openstep"])
                XCTAssertEqual(refused.status, 1, "\(row.path): openstep wrote a tree it cannot hold")
                XCTAssertTrue(refused.stderr.contains("OpenStep has no "), "\(row.path): \(refused.stderr)")
            }
            converted += 1
        }
        XCTAssertGreaterThan(converted, 0)
    }

    /// `convert FILE --to FORMAT`, then that result `--to BACK`: both read as
    /// `expected`, and Foundation reads the first as `judge` (what it reads
    /// from what it writes itself in that format).
    private func roundTrip(_ row: RealWorldFile, _ value: PlistValue, to format: PlistFormat, back: PlistFormat,
                           expected: PlistValue, judge: Any?) throws {
        let name = "\(row.path) via \(format.rawValue)"
        let out = try run(["convert", row.file, "--to", format.rawValue])
        guard out.status == 0 else { return XCTFail("\(name): \(out.stderr)") }
        XCTAssertEqual(out.stderr, "", name)
        XCTAssertEqual(try? PropertyList.read([UInt8](out.output)).tree.value, expected, name)
        if let judge {
            let read = try? PropertyListSerialization.propertyList(from: out.output, options: [], format: nil)
            XCTAssertNotNil(read, "\(name): Foundation cannot read the result")
            if let read { XCTAssertTrue(Self.foundationEqual(read, judge), "\(name): Foundation reads another tree") }
        }
        let intermediate = "intermediate.\(format.rawValue)"
        try out.output.write(to: work.appendingPathComponent(intermediate))
        let again = try run(["convert", intermediate, "--to", back.rawValue])
        guard again.status == 0 else { return XCTFail("\(name) and back to \(back.rawValue): \(again.stderr)") }
        XCTAssertEqual(try? PropertyList.read([UInt8](again.output)).tree.value, expected, "\(name) and back to \(back.rawValue)")
    }

    func testRealWorldFilesDumpWithEveryArchiveDecoded() throws {
        for row in try realWorldFiles() where !row.isStore {
            let dump = try run(["dump", row.file])
            guard row.valid else {
                XCTAssertEqual(dump.status, 1, "\(row.path): an invalid file dumped")
                XCTAssertTrue(dump.stderr.hasPrefix(row.file + ":"), "\(row.path): \(dump.stderr)")
                continue
            }
            XCTAssertEqual(dump.status, 0, "\(row.path): \(dump.stderr)")
            XCTAssertEqual(dump.stderr, "", row.path)
            XCTAssertFalse(dump.stdout.contains("UID("), "\(row.path): a raw UID is left in the dump")
            // Every `$null` entry is nil, as NSKeyedUnarchiver reads it.
            XCTAssertFalse(dump.stdout.contains("\"$null\""), "\(row.path): a $null entry is shown as a string")
            let json = try run(["dump", "--json", row.file])
            XCTAssertEqual(json.status, 0, "\(row.path): \(json.stderr)")
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: json.output), "\(row.path): dump --json is not JSON")
        }
    }

    /// `convert --to xml1` writes what `PropertyListSerialization` writes
    /// for what it read, byte for byte.
    func testRealWorldXMLIsFoundations() throws {
        var compared = 0
        for row in try realWorldPropertyLists() {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: row.file), row.path)
            guard let object = try? PropertyListSerialization.propertyList(from: bytes, options: [], format: nil) else { continue }
            let expected = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            let xml = try run(["convert", row.file, "--to", "xml1"])
            XCTAssertEqual(xml.status, 0, "\(row.path): \(xml.stderr)")
            XCTAssertTrue(xml.output == expected, "\(row.path): the XML differs from Foundation's")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0)
    }

    /// Every blob column of every store: dumps (no raw UID left), lints, and
    /// where it holds archives (keyed or typedstreams) lists their classes.
    func testRealWorldStoresDumpLintAndListClasses() throws {
        var columns = 0
        for row in try realWorldFiles() where row.isStore && row.valid {
            let found = Self.blobColumns(row.kind)
            XCTAssertFalse(found.isEmpty, "\(row.path): the manifest names no blob column")
            for column in found {
                let name = "\(row.path) \(column.table).\(column.column)"
                let store = ["--sqlite", row.file, "--table", column.table, "--column", column.column]
                let dump = try run(["dump"] + store)
                XCTAssertEqual(dump.status, 0, "\(name): \(dump.stderr)")
                XCTAssertFalse(dump.stderr.contains("error:"), "\(name): \(dump.stderr)")
                XCTAssertFalse(dump.stdout.contains("UID("), "\(name): a raw UID is left in the dump")
                let json = try run(["dump", "--json"] + store)
                XCTAssertEqual(json.status, 0, "\(name): \(json.stderr)")
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: json.output), "\(name): dump --json is not JSON")
                let lint = try run(["lint"] + store)
                XCTAssertEqual(lint.status, 0, "\(name): \(lint.stdout)\(lint.stderr)")
                let lines = lint.stdout.split(separator: "\n")
                XCTAssertFalse(lines.isEmpty, name)
                for line in lines { XCTAssertTrue(line.hasSuffix(": OK"), "\(name): \(line)") }
                if column.archives {
                    // A column whose archives hold only values (strings, numbers) has no classes, and says so.
                    let classes = try run(["classes"] + store)
                    XCTAssertEqual(classes.status, 0, "\(name): \(classes.stderr)")
                    XCTAssertTrue(!classes.stdout.isEmpty || classes.stderr.contains("no objects, so no classes"), "\(name): no classes listed")
                }
                columns += 1
            }
        }
        XCTAssertGreaterThan(columns, 0)
    }

    /// The blob columns a store's manifest row names: `T.C=N` (NSKeyedArchiver
    /// blobs) or `T.C holds WHAT` (archives when WHAT names typedstreams or
    /// archives, not "none an archive").
    static func blobColumns(_ kind: String) -> [(table: String, column: String, archives: Bool)] {
        let name = "[A-Za-z_][A-Za-z0-9_]*"
        guard let pattern = try? NSRegularExpression(pattern: "(\(name))\\.(\(name))(=[0-9]+| holds [^;]*)") else { return [] }
        let text = kind as NSString
        return pattern.matches(in: kind, range: NSRange(location: 0, length: text.length)).map { m in
            let what = text.substring(with: m.range(at: 3))
            let archives = what.hasPrefix("=") || what.contains("typedstream") || (what.contains("archive") && !what.contains("none an archive"))
            return (text.substring(with: m.range(at: 1)), text.substring(with: m.range(at: 2)), archives)
        }
    }

    /// What Foundation reads back from what it writes of `object` as `format`.
    static func foundationRewrite(_ object: Any, _ format: PropertyListSerialization.PropertyListFormat) throws -> Any {
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: format, options: 0)
        return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// Whether two property-list objects are equal as Foundation writes them
    /// in XML (keys sorted, each value's type kept; `isEqual` cannot be used:
    /// it compares an archive's UIDs by identity).
    static func foundationEqual(_ a: Any, _ b: Any) -> Bool {
        guard let x = try? PropertyListSerialization.data(fromPropertyList: a, format: .xml, options: 0),
              let y = try? PropertyListSerialization.data(fromPropertyList: b, format: .xml, options: 0) else { return false }
        return x == y
    }

    /// JSON holds the tree as it is: no dates, data, UIDs, null or non-finite reals.
    static func jsonHolds(_ v: PlistValue) -> Bool {
        !PlistLeaves.any(v) { leaf in
            switch leaf {
            case .date, .data, .uid, .null: return true
            case .real(let r): return !r.value.isFinite
            case .string, .integer, .bool, .array, .dictionary: return false
            }
        }
    }
}
