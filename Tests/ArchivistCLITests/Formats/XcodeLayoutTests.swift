import ArchivistTestSupport
import Foundation
import XCTest

/// Xcode's own formats: a `project.pbxproj` written as OpenStep and an
/// `.xcstrings` catalog written as JSON come out as Xcode writes them.
extension CLITests {
    /// Real Xcode files that Xcode did not leave in its own form, and why:
    /// they are written as Xcode writes them on save, so their lines only move.
    private static let notInXcodeForm: [String: String] = [
        "beside/itsycal-0a93ba5/Itsycal.xcodeproj/project.pbxproj":
            "Local.xcconfig's file reference (a hand-made ID, 92CF0000…) was added out of ID order; Xcode sorts it on save",
    ]

    /// Every `project.pbxproj` and `.xcstrings` of the shared corpora.
    private func xcodeFiles() throws -> [(path: String, relative: String)] {
        guard FileManager.default.fileExists(atPath: TestPaths.realWorld.path) else {
            throw XCTSkip("../shared/real-world is not beside the clone")
        }
        var found: [(String, String)] = []
        for root in [TestPaths.realWorld, TestPaths.sharedCorpus] {
            guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = walk.nextObject() as? String {
                guard relative.hasSuffix(".pbxproj") || relative.hasSuffix(".xcstrings") else { continue }
                found.append((root.appendingPathComponent(relative).path, relative))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    func testXcodeLayoutWritesEveryRealProjectAndCatalogBackByteForByte() throws {
        let files = try xcodeFiles()
        XCTAssertGreaterThanOrEqual(files.filter { $0.path.hasSuffix(".pbxproj") }.count, 15, "the real projects were not found")
        XCTAssertGreaterThanOrEqual(files.filter { $0.path.hasSuffix(".xcstrings") }.count, 4, "the real catalogs were not found")
        var seen = Set<String>()
        for (path, relative) in files {
            let catalog = path.hasSuffix(".xcstrings")
            let original = try XCTUnwrap(FileManager.default.contents(atPath: path), path)
            let written = try run(["convert", path, "--to", catalog ? "json" : "openstep", "-o", "out"])
            XCTAssertEqual(written.status, 0, "\(relative): \(written.stderr)")
            let output = try XCTUnwrap(contents("out"), relative)
            if let reason = Self.notInXcodeForm[relative] {
                seen.insert(relative)
                XCTAssertNotEqual(output, original, "\(relative) is listed as not in Xcode's form (\(reason))")
                let lines = { (data: Data) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).sorted() }
                XCTAssertEqual(lines(output), lines(original), "\(relative): lines only move (\(reason))")
                XCTAssertEqual(try run(["convert", "out", "--to", "openstep", "-o", "again"]).status, 0)
                XCTAssertEqual(contents("again"), output, "\(relative): Xcode's form is written back as it is")
                continue
            }
            XCTAssertEqual(output, original, "\(relative) is not written back byte for byte")

            // An edit in place that is undone leaves the file as it was.
            let copy = catalog ? "copy.xcstrings" : "copy.pbxproj"
            XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent(copy).path, contents: original))
            XCTAssertEqual(try run(["set", copy, "archivistProbe", "1", "--type", "string"]).status, 0, relative)
            XCTAssertEqual(try run(["remove", copy, "archivistProbe"]).status, 0, relative)
            XCTAssertEqual(contents(copy), original, "\(relative): set and remove changed more than they edited")
        }
        XCTAssertEqual(seen, Set(Self.notInXcodeForm.keys), "a file listed as not in Xcode's form was not found")
    }

    /// A real project with a `MARKETING_VERSION`, in `App.xcodeproj/` of the scratch folder.
    private func realProject(_ relative: String) throws -> (path: String, original: Data) {
        let source = TestPaths.realWorld.appendingPathComponent(relative)
        guard let original = FileManager.default.contents(atPath: source.path) else {
            throw XCTSkip("../shared/real-world/\(relative) is not there")
        }
        let name = source.deletingLastPathComponent().lastPathComponent
        let path = "\(name)/project.pbxproj"
        try FileManager.default.createDirectory(at: work.appendingPathComponent(name), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent(path).path, contents: original))
        return (path, original)
    }

    func testXcodeLayoutSetOfABuildSettingIsAOneLineDiff() throws {
        let (path, original) = try realProject("beside/qlview/qlview.xcodeproj/project.pbxproj")
        // The build configuration that holds MARKETING_VERSION: the object whose lines hold it.
        let lines = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let at = try XCTUnwrap(lines.firstIndex { $0.contains("MARKETING_VERSION = ") })
        let header = try XCTUnwrap(lines[..<at].last { $0.hasPrefix("\t\t") && !$0.hasPrefix("\t\t\t") && $0.hasSuffix(" = {") })
        let id = String(header.dropFirst(2).prefix { $0 != " " })
        XCTAssertFalse(lines[at].contains("2.1;"))

        let set = try run(["set", path, "objects.\(id).buildSettings.MARKETING_VERSION", "2.1", "--type", "string"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let edited = String(decoding: try XCTUnwrap(contents(path)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(edited.count, lines.count)
        let changed = zip(lines, edited).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        XCTAssertEqual(changed, [at], "one line changes")
        XCTAssertEqual(edited[at], "\t\t\t\tMARKETING_VERSION = 2.1;")

        // diff(1) says the same, where it is installed.
        let diff = try run(executable: URL(fileURLWithPath: "/usr/bin/env"),
                           ["diff", TestPaths.realWorld.appendingPathComponent("beside/qlview/qlview.xcodeproj/project.pbxproj").path, path])
        if diff.status != 127 {
            XCTAssertEqual(diff.stdout.split(separator: "\n").filter { $0.hasPrefix("<") || $0.hasPrefix(">") }.count, 2, diff.stdout)
        }
    }

    func testXcodeLayoutWritesAProjectFromOtherFormsAsXcodeDoes() throws {
        let (path, original) = try realProject("beside/rectangle/Rectangle.xcodeproj/project.pbxproj")
        // From XML (as plutil -convert xml1 leaves it): the name comes from the folder.
        XCTAssertEqual(try run(["convert", path, "--to", "xml1", "--in-place"]).status, 0)
        XCTAssertTrue(contents(path).map { String(decoding: $0, as: UTF8.self).hasPrefix("<?xml") } ?? false)
        let back = try run(["convert", path, "--to", "openstep", "--in-place"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(contents(path), original, "XML converted back is Xcode's file")

        // The generic layout on request: no header, no sections, no comments, the same property list.
        XCTAssertEqual(try run(["convert", path, "--to", "openstep", "--generic-layout", "-o", "generic.pbxproj"]).status, 0)
        let generic = String(decoding: try XCTUnwrap(contents("generic.pbxproj")), as: UTF8.self)
        XCTAssertFalse(generic.hasPrefix("// !$*UTF8*$!"))
        XCTAssertFalse(generic.contains("/* Begin "))
        XCTAssertFalse(generic.contains("/*"))
        XCTAssertEqual(try run(["convert", "generic.pbxproj", "--to", "xml1", "-o", "generic.xml"]).status, 0)
        XCTAssertEqual(try run(["convert", path, "--to", "xml1", "-o", "xcode.xml"]).status, 0)
        XCTAssertEqual(contents("generic.xml"), contents("xcode.xml"))

        // Another tool's output (generic OpenStep, keys in another order) is saved in Xcode's form.
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent(path).path, contents: Data(generic.utf8)))
        XCTAssertEqual(try run(["set", path, "objects.9824700822AF9B7D0037B409.name", "Rectangle", "--type", "string"]).status, 0)
        XCTAssertEqual(contents(path), original, "an edit of a generic file writes Xcode's form")
    }

    func testXcodeLayoutOfAStringCatalog() throws {
        let source = TestPaths.realWorld.appendingPathComponent("beside/netnewswire/Mac/AccountStats/mul.lproj/AccountStatsWindow.xcstrings")
        guard let original = FileManager.default.contents(atPath: source.path) else { throw XCTSkip("the catalog is not there") }
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("Window.xcstrings").path, contents: original))
        let key = "strings.1Nz-s2-tlh\\.title.localizations.es.stringUnit.value"
        XCTAssertEqual(try run(["set", "Window.xcstrings", key, "Actualizar ahora", "--type", "string"]).status, 0)
        let before = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let after = String(decoding: try XCTUnwrap(contents("Window.xcstrings")), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(after.count, before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        XCTAssertEqual(changed.map(\.1), ["            \"value\" : \"Actualizar ahora\""], "one line changes")

        // A new key goes where Xcode sorts it (numbers by value, case aside), with Xcode's spacing.
        make("small.json", #"{"version": "1.0", "strings": {"b10": {}, "B2": {}, "a": {"comment": "x/y"}}, "sourceLanguage": "en"}"#)
        XCTAssertEqual(try run(["convert", "small.json", "--to", "json", "-o", "small.xcstrings"]).status, 0)
        XCTAssertEqual(contents("small.xcstrings").map { String(decoding: $0, as: UTF8.self) }, """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "a" : {
                  "comment" : "x/y"
                },
                "B2" : {

                },
                "b10" : {

                }
              },
              "version" : "1.0"
            }
            """)
        // The generic layout on request.
        XCTAssertEqual(try run(["convert", "small.json", "--to", "json", "--generic-layout", "-o", "generic.json"]).status, 0)
        XCTAssertEqual(contents("generic.json").map { String(decoding: $0, as: UTF8.self) },
                       #"{"version":"1.0","strings":{"b10":{},"B2":{},"a":{"comment":"x/y"}},"sourceLanguage":"en"}"#)
    }
}
