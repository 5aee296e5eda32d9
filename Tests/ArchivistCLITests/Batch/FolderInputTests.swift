import ArchivistCore
import Foundation
import XCTest

/// Folders of real apps: images beside the archives. Every command that takes
/// folders skips files that cannot be property lists, counts them and lists
/// them with --verbose; a file named on the command line is still an error.
extension CLITests {
    /// A 1x1 PNG, as apps keep beside their documents.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==") ?? Data()

    /// Scenario 1's document folders: `N.scarycreature/Data.plist` with
    /// `thumbImage.png` and `fullImage.png` beside it.
    func makeDocuments(_ name: String, count: Int = 2) throws {
        for i in 1...count {
            try copyCorpus("archives/scary-creature-v1.plist", to: "\(name)/\(i).scarycreature/Data.plist")
            for image in ["thumbImage.png", "fullImage.png"] {
                try Self.png.write(to: work.appendingPathComponent("\(name)/\(i).scarycreature/\(image)"))
            }
        }
    }

    func testMigrateAndLintSkipImagesInFolders() throws {
        try makeDocuments("Documents")
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")

        let dry = try run(["migrate", "Documents", "-r", "--rules", "rules.json", "--dry-run", "--verbose"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stderr, """
            Documents/1.scarycreature/fullImage.png: skipped: not a property list
            Documents/1.scarycreature/thumbImage.png: skipped: not a property list
            Documents/2.scarycreature/fullImage.png: skipped: not a property list
            Documents/2.scarycreature/thumbImage.png: skipped: not a property list

            """)

        let migrated = try run(["migrate", "Documents", "-r", "--rules", "rules.json", "--in-place", "--backup", ".v1", "--verbose", "--jobs", "2"])
        XCTAssertEqual(migrated.status, 0, migrated.stderr)
        XCTAssertTrue(migrated.stderr.contains("Documents/2.scarycreature/thumbImage.png: skipped: not a property list\n"), migrated.stderr)
        XCTAssertTrue(migrated.stderr.contains("2 converted, 0 unchanged, 4 skipped, 0 failed"), migrated.stderr)
        XCTAssertEqual(contents("Documents/1.scarycreature/thumbImage.png"), Self.png, "images are left alone")

        // lint takes --include like the others, and skips and counts the images.
        let secure = try run(["lint", "--secure", "--rules", "rules.json", "Documents", "--include", "Data.plist"])
        XCTAssertEqual(secure.status, 0, secure.stdout + secure.stderr)
        XCTAssertEqual(secure.stdout, "Documents/1.scarycreature/Data.plist: OK\nDocuments/2.scarycreature/Data.plist: OK\n")
        XCTAssertEqual(secure.stderr, "")
        let all = try run(["lint", "Documents", "--exclude", "2.scarycreature/*"])
        XCTAssertEqual(all.status, 0, all.stdout + all.stderr)
        XCTAssertEqual(all.stdout, "Documents/1.scarycreature/Data.plist: OK\nDocuments/1.scarycreature/Data.plist.v1: OK\n")
        XCTAssertEqual(all.stderr, "2 files skipped (not property lists; --verbose lists them)\n")
        let verbose = try run(["lint", "-q", "--verbose", "Documents/2.scarycreature"])
        XCTAssertEqual(verbose.stderr, """
            Documents/2.scarycreature/fullImage.png: skipped: not a property list
            Documents/2.scarycreature/thumbImage.png: skipped: not a property list
            2 files skipped (not property lists)

            """)

        // A file named on the command line is checked, and says what it is.
        let named = try run(["lint", "Documents/1.scarycreature/thumbImage.png"])
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(named.stdout, "Documents/1.scarycreature/thumbImage.png: error: not a property list: a PNG image, which Archivist does not read\n")
    }

    /// An empty folder is not "several inputs": it is said to be empty, and
    /// the run converts nothing.
    /// lint checks files on several threads but prints in input order: the
    /// same lines with any number of jobs, for valid, invalid, unreadable
    /// and skipped inputs, in text and JSON.
    func testLintPrintsTheSameWithAnyNumberOfJobs() throws {
        try makeDocuments("Documents", count: 3)
        for i in 0..<60 {
            let text = i % 7 == 3 ? "<plist><dict><key>a</key><integer>1</integer><key>a</key><true/></dict></plist>"
                : i % 11 == 5 ? "{ broken" : "<plist><array><integer>\(i)</integer></array></plist>"
            try Data(text.utf8).write(to: work.appendingPathComponent("Documents/f\(i).plist"))
        }
        for format in ["text", "json"] {
            let args = ["lint", "Documents", "missing.plist", "--verbose", "--format", format]
            let one = try run(args + ["--jobs", "1"])
            XCTAssertEqual(one.status, 1)
            XCTAssertTrue(one.stdout.contains("Documents/f3.plist"), one.stdout)
            XCTAssertTrue(one.stderr.contains("missing.plist"), one.stderr)
            XCTAssertTrue(one.stderr.contains("6 files skipped"), one.stderr)
            for jobs in ["2", "5"] {
                let many = try run(args + ["--jobs", jobs])
                XCTAssertEqual(many.stdout, one.stdout, "--jobs \(jobs), \(format)")
                XCTAssertEqual(many.stderr, one.stderr, "--jobs \(jobs), \(format)")
                XCTAssertEqual(many.status, one.status)
            }
        }
        XCTAssertEqual(try run(["lint", "Documents", "--jobs", "0"]).status, 64)
    }

    /// lint checks files as the walk finds them: what the walk left out (a
    /// dangling link) is said where the walk met it, after the inputs before
    /// it and before those after, with any number of jobs.
    func testLintSaysWhatTheWalkLeftOutInItsPlace() throws {
        for i in 0..<40 { make("Folder/f\(i).plist", "<plist><integer>\(i)</integer></plist>") }
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("Folder/f2z.plist").path, withDestinationPath: "nowhere.plist")
        let args = ["lint", "-q", "missing.plist", "Folder", "gone.plist", "--verbose"]
        let one = try run(args + ["--jobs", "1"])
        XCTAssertEqual(one.status, 1)
        let lines = one.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, one.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("missing.plist: error: ") == true, one.stderr)
        XCTAssertTrue(lines.dropFirst().first?.hasPrefix("Folder/f2z.plist: warning: a dangling symbolic link") == true, one.stderr)
        XCTAssertTrue(lines.last?.hasPrefix("gone.plist: error: ") == true, one.stderr)
        for jobs in ["2", "4"] {
            let many = try run(args + ["--jobs", jobs])
            XCTAssertEqual(many.stderr, one.stderr, "--jobs \(jobs)")
            XCTAssertEqual(many.stdout, one.stdout, "--jobs \(jobs)")
        }
    }

    func testEmptyFolderIsSaidToBeEmpty() throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("Empty"), withIntermediateDirectories: true)
        let r = try run(["convert", "Empty", "--to", "xml"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("Empty: warning: no files found in this folder (without -r only the files directly inside are taken)\n0 converted, 0 unchanged, 0 skipped, 0 failed; 0 B read, 0 B written in "), r.stderr)
        XCTAssertEqual(r.stdout, "")
        let recursive = try run(["migrate", "Empty", "-r", "--rules", corpus("rules/music-box.json"), "--output-dir", "out"])
        XCTAssertTrue(recursive.stderr.hasPrefix("Empty: warning: no files found in this folder\n"), recursive.stderr)
        make("Pictures/a.png", "")
        let filtered = try run(["convert", "Pictures", "--include", "*.plist", "--to", "xml"])
        XCTAssertTrue(filtered.stderr.hasPrefix("Pictures: warning: no files that --include and --exclude take found in this folder (without -r only the files directly inside are taken)\n"), filtered.stderr)
    }

    /// A property list that is not UTF-8 text (Latin-1 XML, as Foundation
    /// reads it) found in a folder is linted, not skipped, as convert converts it.
    func testLintChecksAFolderPlistThatIsNotUTF8() throws {
        var bytes = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist version=\"1.0\"><dict><key>name</key><string>caf".utf8)
        bytes.append(0xE9)
        bytes.append(Data("</string></dict></plist>\n".utf8))
        XCTAssertEqual(try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: String], ["name": "café"])
        let url = work.appendingPathComponent("Latin/latin1.plist")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: url)
        try Self.png.write(to: work.appendingPathComponent("Latin/thumb.png"))
        let lint = try run(["lint", "Latin"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "Latin/latin1.plist: OK\n")
        XCTAssertEqual(lint.stderr, "1 file skipped (not a property list; --verbose lists them)\n", "the image is still skipped")
    }
}
