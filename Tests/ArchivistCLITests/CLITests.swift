import Foundation
import XCTest

/// Runs the built `archivist` and checks its exact output and exit codes.
final class CLITests: XCTestCase {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("archivist-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    @discardableResult
    func run(_ args: [String], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent("archivist")
        process.arguments = args
        process.currentDirectoryURL = work
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    func fixture(_ name: String) -> String {
        Self.packageRoot.appendingPathComponent("Corpus/foundation/\(name)").path
    }

    func testConvertToEveryFormatAndBack() throws {
        let source = fixture("info-plist.bplist")
        let xml = try run(["convert", source, "--to", "xml1"])
        XCTAssertEqual(xml.status, 0, xml.stderr)
        XCTAssertEqual(xml.stdout, try String(contentsOfFile: fixture("info-plist.xml.plist"), encoding: .utf8))
        for format in ["binary", "json", "xml", "openstep"] {
            let r = try run(["convert", source, "--to", format, "-o", "out.\(format)"])
            if format == "openstep" {
                XCTAssertEqual(r.status, 1)
                XCTAssertTrue(r.stderr.contains("OpenStep has no bool type"), r.stderr)
                XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("out.openstep").path))
                continue
            }
            XCTAssertEqual(r.status, 0, r.stderr)
            let back = try run(["convert", "out.\(format)", "--to", "xml"])
            XCTAssertEqual(back.status, 0, back.stderr)
            if format != "json" { XCTAssertEqual(back.stdout, xml.stdout, format) }
        }
    }

    func testStdinToStdout() throws {
        let r = try run(["convert", "-", "--to", "json"], stdin: Data("{ a = (b, c); }".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"a":["b","c"]}"#)
    }

    func testOutputDirAndNoOverwrite() throws {
        let r = try run(["convert", fixture("dates.bplist"), fixture("integers.bplist"), "--to", "json", "--output-dir", "out"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("out").path).sorted(), ["dates.json", "integers.json"])
        let again = try run(["convert", fixture("dates.bplist"), "--to", "json", "--output-dir", "out"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("exists"), again.stderr)
    }

    func testInPlaceFailureLeavesInputUntouched() throws {
        let path = work.appendingPathComponent("broken.plist").path
        let broken = Data("<plist><dict><key>a</key></plist>".utf8)
        FileManager.default.createFile(atPath: path, contents: broken)
        let r = try run(["convert", "broken.plist", "--to", "binary", "--in-place"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: path), broken)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), ["broken.plist"], "no temporary file left")
        let good = work.appendingPathComponent("good.plist").path
        FileManager.default.createFile(atPath: good, contents: Data("<plist><true/></plist>".utf8))
        XCTAssertEqual(try run(["convert", "good.plist", "--to", "binary", "--in-place"]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: good)?.prefix(8), Data("bplist00".utf8))
    }

    func testLintOutputAndExitCodes() throws {
        let ok = try run(["lint", fixture("strings.xml.plist")])
        XCTAssertEqual(ok.status, 0)
        XCTAssertEqual(ok.stdout, "\(fixture("strings.xml.plist")): OK\n")
        FileManager.default.createFile(atPath: work.appendingPathComponent("bad.json").path, contents: Data("{\n  \"a\": tru\n}".utf8))
        FileManager.default.createFile(atPath: work.appendingPathComponent("dup.plist").path,
                                       contents: Data("<plist><dict>\n<key>k</key><true/>\n<key>k</key><false/>\n</dict></plist>".utf8))
        let bad = try run(["lint", "bad.json", "dup.plist"])
        XCTAssertEqual(bad.status, 1)
        let lines = bad.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, bad.stdout)
        XCTAssertTrue(lines[0].hasPrefix("bad.json:2:8: error: "), lines[0])
        XCTAssertEqual(lines[1], "dup.plist:3:1: error: duplicate key \"k\"; the last value is kept (see 2:1)")
        let binary = try run(["lint", Self.packageRoot.appendingPathComponent("Corpus/malformed/bad-offset.bplist").path])
        XCTAssertEqual(binary.status, 1)
        XCTAssertTrue(binary.stdout.contains(": offset "), binary.stdout)
        let archive = "<plist><dict><key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>"
            + "<key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>"
            + "<key>$objects</key><array><string>$null</string><dict><key>name</key><dict><key>CF$UID</key><integer>5</integer></dict>"
            + "<key>$class</key><dict><key>CF$UID</key><integer>2</integer></dict></dict>"
            + "<dict><key>$classname</key><string>Foo</string><key>$classes</key><array><string>Foo</string></array></dict></array></dict></plist>"
        FileManager.default.createFile(atPath: work.appendingPathComponent("archive.plist").path, contents: Data(archive.utf8))
        let broken = try run(["lint", "archive.plist"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stdout, "archive.plist: $objects[1] (root.name): error: name refers to object 5, past the 3 objects\n")
        XCTAssertEqual(try run(["lint"]).status, 64)
        XCTAssertEqual(try run(["convert", "a", "b", "--to", "xml"]).status, 64)
        XCTAssertEqual(try run(["convert", "a", "--to", "yaml"]).status, 64)
    }
}
