import ArchivistDatabase
import ArchivistTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An `MBFile` as MobileBackup's `encodeWithCoder:` writes one into an iOS
/// backup's `Manifest.db` (`Files.file`): `RelativePath`, `Target` for a
/// link, then `Mode`, `InodeNumber`, `UserID`, `GroupID`, `LastModified`,
/// `LastStatusChange`, `Birth` (32-bit), `Size`, `ProtectionClass`, `Flags`.
/// Archived under the name `MBFile` (or another name, to check that only
/// that class's fields are read as modes and times).
final class BackupFileStandIn: NSObject, NSCoding {
    let relativePath: String, target: String?, mode: Int32, times: (modified: Int32, changed: Int32, birth: Int32), size: Int64

    init(relativePath: String, target: String? = nil, mode: Int32, times: (Int32, Int32, Int32), size: Int64) {
        self.relativePath = relativePath
        self.target = target
        self.mode = mode
        self.times = times
        self.size = size
    }

    func encode(with coder: NSCoder) {
        coder.encode(relativePath, forKey: "RelativePath")
        if let target { coder.encode(target, forKey: "Target") }
        coder.encode(mode, forKey: "Mode")
        coder.encode(Int64(1_234_567), forKey: "InodeNumber")
        coder.encode(Int32(501), forKey: "UserID")
        coder.encode(Int32(501), forKey: "GroupID")
        coder.encode(times.modified, forKey: "LastModified")
        coder.encode(times.changed, forKey: "LastStatusChange")
        coder.encode(times.birth, forKey: "Birth")
        coder.encode(size, forKey: "Size")
        coder.encode(Int32(3), forKey: "ProtectionClass")
        coder.encode(Int32(0), forKey: "Flags")
    }

    init?(coder: NSCoder) { nil }

    /// The archive NSKeyedArchiver writes, its class named `className` (set
    /// in the class dictionary through PropertyListSerialization, as
    /// swift-corelibs-foundation's archiver does not apply `setClassName`).
    func archived(as className: String = "MBFile") throws -> [UInt8] {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: false)
        var format = PropertyListSerialization.PropertyListFormat.binary
        guard var tree = try PropertyListSerialization.propertyList(from: archive, options: [], format: &format) as? [String: Any],
              var objects = tree["$objects"] as? [Any] else { throw XCTSkip("no archive") }
        for (i, object) in objects.enumerated() {
            guard var classDictionary = object as? [String: Any], var classes = classDictionary["$classes"] as? [String],
                  classes.first == classDictionary["$classname"] as? String, classes.first?.contains("BackupFileStandIn") == true else { continue }
            classes[0] = className
            classDictionary["$classes"] = classes
            classDictionary["$classname"] = className
            objects[i] = classDictionary
        }
        tree["$objects"] = objects
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: tree, format: .binary, options: 0))
    }
}

/// `dump` and `dump --json` read an MBFile's `Mode` as a file mode and its
/// times as dates; the modes are those of real files here, `ls -ld` the judge
/// of their text, and Foundation's ISO 8601 formatter the judge of the dates.
extension CLITests {
    /// The `st_mode` of a path (not following a link).
    private func mode(of name: String) throws -> Int32 {
        var info = stat()
        guard lstat(work.appendingPathComponent(name).path, &info) == 0 else { throw XCTSkip("cannot stat \(name)") }
        return Int32(truncatingIfNeeded: info.st_mode)
    }

    /// `ls -ld`'s mode column for a path.
    private func lsMode(of name: String) throws -> String {
        let ls = try run(executable: URL(fileURLWithPath: "/bin/ls"), ["-ld", name])
        try XCTSkipUnless(ls.status == 0, "ls -ld \(name): \(ls.stderr)")
        return String(ls.stdout.prefix(10))
    }

    /// Real files of several kinds and permissions, named by the path each stands for.
    private func backedUpFiles() throws -> [(path: String, name: String, target: String?)] {
        let fm = FileManager.default
        let file = make("Library/Preferences/com.example.app.plist", "<plist/>")
        let tool = make("usr/tool", "#!/bin/sh\n")
        try fm.createDirectory(at: work.appendingPathComponent("Library/Caches"), withIntermediateDirectories: true)
        try fm.createDirectory(at: work.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: work.appendingPathComponent("Library/Link").path, withDestinationPath: "Preferences")
        try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: work.appendingPathComponent(file).path)
        try fm.setAttributes([.posixPermissions: 0o4750], ofItemAtPath: work.appendingPathComponent(tool).path)
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: work.appendingPathComponent("Library/Caches").path)
        try fm.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: work.appendingPathComponent("tmp").path)
        return [(file, file, nil), (tool, tool, nil), ("Library/Caches", "Library/Caches", nil),
                ("tmp", "tmp", nil), ("Library/Link", "Library/Link", "Preferences")]
    }

    /// A Manifest.db as iOS backups hold it: `Files (fileID, domain, relativePath, flags, file)`.
    private func makeManifest(_ rows: [(path: String, archive: [UInt8])]) throws -> String {
        let name = "Manifest.db"
        let db = try SQLiteDatabase.create(path: work.appendingPathComponent(name).path)
        try db.execute("CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)")
        let insert = try db.prepare("INSERT INTO Files (fileID, domain, relativePath, flags, file) VALUES (?, 'HomeDomain', ?, 1, ?)")
        for (i, row) in rows.enumerated() {
            insert.reset()
            try insert.bind(1, text: String(format: "%040x", i + 1))
            try insert.bind(2, text: row.path)
            try insert.bind(3, blob: row.archive)
            _ = try insert.step()
        }
        return name
    }

    func testDumpShowsMBFileModesAndTimes() throws {
        let files = try backedUpFiles()
        // 2019-04-22 and on: the modified, status-changed and birth times of each file.
        let base: Int32 = 1_555_927_200
        var rows: [(path: String, archive: [UInt8])] = []
        var expected: [(path: String, mode: Int32, modeText: String, times: [Int32])] = []
        for (i, f) in files.enumerated() {
            let m = try mode(of: f.name)
            let times = (base + Int32(i) * 86_400, base + Int32(i) * 86_400 + 61, base - 3_600)
            rows.append((f.path, try BackupFileStandIn(relativePath: f.path, target: f.target, mode: m, times: times, size: Int64(i) * 100).archived()))
            expected.append((f.path, m, "0o\(String(m, radix: 8)) (\(try lsMode(of: f.name)))", [times.0, times.1, times.2]))
        }
        let store = try makeManifest(rows)
        let iso = ISO8601DateFormatter()
        let dump = try run(["dump", "--sqlite", store, "--table", "Files", "--column", "file", "--label-column", "relativePath"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        for (i, e) in expected.enumerated() {
            let label = "\(store): Files.file row \(i + 1) (relativePath: \(e.path)):\n"
            let start = try XCTUnwrap(dump.stdout.range(of: label), "\(e.path): \(dump.stdout)")
            // This row's dump: up to the next row's label.
            let rest = dump.stdout[start.upperBound...]
            let section = String(rest[..<(rest.range(of: "\(store): Files.file row ")?.lowerBound ?? rest.endIndex)])
            XCTAssertTrue(section.contains("\n    Mode = \(e.modeText) (inline integer \(e.mode), file mode)\n"), "\(e.path): \(section)")
            for (key, t) in zip(["LastModified", "LastStatusChange", "Birth"], e.times) {
                let date = iso.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
                XCTAssertTrue(section.contains("\n    \(key) = \(date) (inline integer \(t), Unix time)\n"), "\(e.path) \(key): \(section)")
            }
            XCTAssertTrue(section.contains("\n    UserID = 501 (inline integer)\n"), "\(e.path): other fields stay integers: \(section)")
        }

        // dump --json: each reading beside its integer.
        let json = try run(["dump", "--json", "--sqlite", store, "--table", "Files", "--column", "file"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let stored = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.output) as? [[String: Any]])
        XCTAssertEqual(stored.count, expected.count)
        for (row, e) in zip(stored, expected) {
            let root = ((row["value"] as? [String: Any])?["top"] as? [String: Any])?["root"] as? [String: Any]
            XCTAssertEqual(root?["class"] as? String, "MBFile", e.path)
            let fields = Dictionary((root?["fields"] as? [[String: Any]] ?? []).compactMap { f in (f["key"] as? String).map { ($0, f) } }) { a, _ in a }
            XCTAssertEqual(fields["Mode"]?["inline"] as? Int, Int(e.mode), e.path)
            XCTAssertEqual(fields["Mode"]?["fileMode"] as? String, e.modeText, e.path)
            for (key, t) in zip(["LastModified", "LastStatusChange", "Birth"], e.times) {
                XCTAssertEqual(fields[key]?["inline"] as? Int, Int(t), "\(e.path) \(key)")
                XCTAssertEqual(fields[key]?["date"] as? String, iso.string(from: Date(timeIntervalSince1970: TimeInterval(t))), "\(e.path) \(key)")
            }
            XCTAssertNil(fields["UserID"]?["date"], e.path)
        }

        // A key path still reaches the integer archived.
        try Data(rows[0].archive).write(to: work.appendingPathComponent("file.plist"))
        let get = try run(["get", "file.plist", "root.Mode"])
        XCTAssertEqual(get.stdout, "\(expected[0].mode)\n", get.stderr)
    }

    /// The same fields in another class are integers: the class says what they are.
    func testOnlyMBFileFieldsAreReadAsModesAndTimes() throws {
        let record = BackupFileStandIn(relativePath: "a", mode: 0o100644, times: (1_555_927_200, 1_555_927_200, 1_555_927_200), size: 1)
        try Data(try record.archived(as: "MBFileRecord")).write(to: work.appendingPathComponent("other.plist"))
        let dump = try run(["dump", "other.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("\n    Mode = 33188 (inline integer)\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("\n    LastModified = 1555927200 (inline integer)\n"), dump.stdout)
        let json = try run(["dump", "--json", "other.plist"])
        XCTAssertFalse(json.stdout.contains("\"fileMode\""), json.stdout)
        XCTAssertFalse(json.stdout.contains("\"date\""), json.stdout)
    }
}
