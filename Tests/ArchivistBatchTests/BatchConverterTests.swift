import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore

/// Output planning and the batch loop: where results go, which files are
/// protected, and that a failure writes nothing.
final class BatchConverterTests: XCTestCase {
    var scratch: ScratchFolder!
    var dir: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try makeScratchFolder("archivist-batch")
    }

    /// Writes a file of the scratch folder and returns its path.
    func make(_ name: String, _ text: String) -> String {
        _ = try? scratch.write(name, text)
        return scratch.path(name)
    }

    func testDestinations() {
        let folder = OutputTarget.directory("out")
        XCTAssertEqual(folder.destination(for: "a/b/Info.plist", format: .json), "out/Info.json")
        XCTAssertEqual(folder.destination(for: "Info.plist", format: .binary), "out/Info.plist")
        XCTAssertEqual(OutputTarget.directory("out/").destination(for: "x.y.bplist", format: .xml), "out/x.y.plist")
        XCTAssertEqual(folder.destination(for: ".hidden", format: .openstep), "out/.hidden.plist")
        XCTAssertEqual(folder.destination(for: "noext", format: .json), "out/noext.json")
        // Unusual names.
        for (input, expected) in [("dir/", "dir"), ("/", "output"), ("a//b", "b"), (".", "."), ("x.", "x"), ("a.b.c", "a.b"),
                                  ("/abs/p.q/name", "name"), ("./f.plist", "f"), ("..", "."), ("d/.e.f", ".e")] {
            XCTAssertEqual(folder.destination(for: input, format: .xml), "out/\(expected).plist", input)
        }
        XCTAssertEqual(folder.destination(for: "été/ça.plist", format: .xml), "out/ça.plist")
        XCTAssertEqual(folder.destination(for: "-", format: .json), "out/stdin.json")
        XCTAssertEqual(OutputTarget.standardOutput.destination(for: "a.plist", format: .xml), "-")
        XCTAssertEqual(OutputTarget.file("o.json").destination(for: "a.plist", format: .json), "o.json")
        XCTAssertEqual(OutputTarget.inPlace.destination(for: "a.plist", format: .json), "a.plist")

        XCTAssertNil(OutputTarget.standardOutput.usageProblem(inputs: ["a"]))
        XCTAssertNotNil(OutputTarget.standardOutput.usageProblem(inputs: ["a", "b"]))
        XCTAssertNotNil(OutputTarget.file("o").usageProblem(inputs: ["a", "b"]))
        XCTAssertNil(OutputTarget.directory("o").usageProblem(inputs: ["a", "b", "-"]))
        XCTAssertNotNil(OutputTarget.directory("").usageProblem(inputs: ["a"]))
        XCTAssertNotNil(OutputTarget.file("").usageProblem(inputs: ["a"]))
        XCTAssertNotNil(OutputTarget.inPlace.usageProblem(inputs: ["a", "-"]))
        XCTAssertNil(OutputTarget.inPlace.usageProblem(inputs: ["a", "b"]))
    }

    func testConvertsIntoAFolderAndProtectsInputsAndEarlierResults() throws {
        let a = make("a.plist", "<plist><dict><key>k</key><string>v</string><key>k</key><string>w</string></dict></plist>")
        let b = make("a.json", "[1, 2]")
        let out = dir + "/out/nested"
        let batch = BatchConverter(inputs: [a, b], format: .xml, target: .directory(out))
        try batch.prepare()
        var diagnostics: [PlistDiagnostic] = []
        try batch.convert(a) { diagnostics.append($0) }
        XCTAssertEqual(diagnostics.map(\.kind), [.duplicateKey])
        XCTAssertEqual(try PropertyList.read(FileIO.read(out + "/a.plist")).tree.value, .dictionary(PlistDictionary([("k", .string("w"))])))
        // a.json would also become out/nested/a.plist: the first result stays.
        XCTAssertThrowsError(try batch.convert(b)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "refusing to overwrite \(out)/a.plist, the result of \(a)"))
        }
        let kept = try PropertyList.read(try FileIO.read(out + "/a.plist")).tree.value
        XCTAssertEqual(kept.typeName, "dictionary")

        // A folder that holds the inputs would overwrite them.
        let beside = BatchConverter(inputs: [a], format: .json, target: .directory(dir))
        XCTAssertNoThrow(try beside.convert(a), "a.json is not an input of this batch")
        let over = BatchConverter(inputs: [b], format: .json, target: .directory(dir))
        XCTAssertThrowsError(try over.convert(b)) { error in
            XCTAssertEqual((error as? PlistError)?.message, "refusing to overwrite the input \(b) (only in-place conversion replaces inputs)")
        }
        let named = BatchConverter(inputs: [a], format: .binary, target: .file(dir + "/./a.plist"))
        XCTAssertThrowsError(try named.convert(a))
        let input = try FileIO.read(a)
        XCTAssertEqual(Array(input.prefix(7)), Array("<plist>".utf8), "the input is untouched")
    }

    func testInPlaceAndFailures() throws {
        let good = make("good.plist", "<plist><integer>7</integer></plist>")
        let bad = make("bad.plist", "<plist><integer>7</plist>")
        let nan = make("nan.plist", "<plist><real>nan</real></plist>")
        let batch = BatchConverter(inputs: [good, bad, nan], format: .json, target: .inPlace)
        var warned = false
        try batch.convert(good) { _ in warned = true }
        XCTAssertFalse(warned)
        XCTAssertEqual(try FileIO.read(good), Array("7".utf8))
        XCTAssertThrowsError(try batch.convert(bad)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .syntax)
        }
        XCTAssertThrowsError(try batch.convert(nan)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .notRepresentable)
        }
        XCTAssertEqual(try FileIO.read(bad), Array("<plist><integer>7</plist>".utf8))
        XCTAssertEqual(try FileIO.read(nan), Array("<plist><real>nan</real></plist>".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["bad.plist", "good.plist", "nan.plist"])
    }

    /// Plain lint of a binary plist checks it in place (no tree) and finds
    /// what reading it finds: every binary file of the corpora and every
    /// truncation of a few, both ways, and the format requirement on both paths.
    func testBinaryLintInPlaceFindsWhatReadingFinds() throws {
        var files: [(String, [UInt8])] = []
        for folder in [TestPaths.corpus, TestPaths.sharedCorpus] {
            guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where !url.hasDirectoryPath {
                guard let data = FileManager.default.contents(atPath: url.path), data.starts(with: Array("bplist".utf8)) else { continue }
                files.append((url.path, [UInt8](data)))
            }
        }
        XCTAssertGreaterThan(files.count, 20)
        func bothWays(_ bytes: [UInt8], _ name: String, required: PlistFormat? = nil) {
            let inPlace = bytes.withUnsafeBytes { Linter.findings(in: $0, path: "f", inPlace: true, requiredFormat: required) }
            let read = bytes.withUnsafeBytes { Linter.findings(in: $0, path: "f", requiredFormat: required) }
            XCTAssertEqual(inPlace, read, name)
        }
        var invalid = 0
        for (path, bytes) in files {
            bothWays(bytes, path)
            bothWays(bytes, path, required: .xml)
            if !Linter.findings(in: bytes, path: "f").isEmpty { invalid += 1 }
        }
        XCTAssertGreaterThan(invalid, 5)
        for (path, bytes) in files.filter({ Linter.findings(in: $0.1, path: "f").isEmpty }).prefix(4) {
            for n in 0..<bytes.count { bothWays(Array(bytes[..<n]), "\(path) prefix \(n)") }
        }
    }

    func testLinterLines() {
        XCTAssertEqual(Linter.findings(in: Array("<plist><true/></plist>".utf8), path: "ok.plist").map(\.line), [])
        XCTAssertEqual(Linter.findings(in: Array("{\n \"a\": 1,\n \"a\": 2\n}".utf8), path: "d.json").map(\.line),
                       ["d.json:3:2: error: duplicate key \"a\"; the last value is kept (see 2:2)"])
        XCTAssertEqual(Linter.findings(in: Array("bplist00".utf8), path: "b").map(\.line).count, 1)
        XCTAssertTrue(Linter.findings(in: Array("bplist00".utf8), path: "b").map(\.line)[0].hasPrefix("b: offset "))
        // A check beyond the format (keyed archives) adds its error after the diagnostics.
        let checked = Linter.findings(in: Array("{\"a\": 1, \"a\": 2}".utf8), path: "c.json") { _ in
            throw PlistError(.invalidValue, "not an archive\nsecond line", at: .archive(object: 3, keyPath: "root"))
        }.map(\.line)
        XCTAssertEqual(checked.count, 2)
        XCTAssertEqual(checked.last, "c.json: $objects[3] (root): error: not an archive\\nsecond line")
        let reported = Linter.findings(in: Array("<plist><true/></plist>".utf8), path: "p") { _ in
            [PlistError(.invalidValue, "one", at: .archive(object: 1, keyPath: "root")), PlistError(.invalidValue, "two")]
        }.map(\.line)
        XCTAssertEqual(reported, ["p: $objects[1] (root): error: one", "p: error: two"])
    }
}
