import ArchivistTestSupport
import Foundation
import XCTest

/// `.strings` files written as OpenStep keep their comments and encoding.
extension CLITests {
    func testStringsFilesOfTheSharedCorporaAreWrittenBackByteForByte() throws {
        guard FileManager.default.fileExists(atPath: TestPaths.realWorld.path) else {
            throw XCTSkip("../shared/real-world is not beside the clone")
        }
        var files: [String] = []
        for root in [TestPaths.realWorld, TestPaths.sharedCorpus] {
            guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = walk.nextObject() as? String {
                guard relative.hasSuffix(".strings") else { continue }
                files.append(root.appendingPathComponent(relative).path)
            }
        }
        XCTAssertGreaterThanOrEqual(files.count, 9, "the real strings files were not found")
        var utf16 = 0
        for path in files {
            let original = try XCTUnwrap(FileManager.default.contents(atPath: path))
            if original.starts(with: [0xFF, 0xFE]) || original.starts(with: [0xFE, 0xFF]) { utf16 += 1 }
            let result = try run(["convert", path, "--to", "openstep", "-o", "out.strings"])
            XCTAssertEqual(result.status, 0, "\(path): \(result.stderr)")
            XCTAssertEqual(contents("out.strings"), original, "\(path) is not written back byte for byte")
        }
        XCTAssertGreaterThanOrEqual(utf16, 5, "UTF-16 strings files were not among them")
    }

    func testStringsFileEditsKeepCommentsAndUTF16() throws {
        let text = "/* Title of the window */\n\"title\" = \"Hello\";\n\n/* Button that closes */\n\"close\" = \"Close\";\n\n// Shown when done\n\"done\" = \"Done\";\n"
        let body = try XCTUnwrap(text.data(using: .utf16LittleEndian))
        let utf16LE = Data([0xFF, 0xFE]) + body
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("L.strings").path, contents: utf16LE))
        XCTAssertEqual(try run(["set", "L.strings", "close", "Schließen", "--type", "string"]).status, 0)
        XCTAssertEqual(try run(["remove", "L.strings", "title"]).status, 0)
        XCTAssertEqual(try run(["set", "L.strings", "new", "Neu \"x\"", "--type", "string"]).status, 0)
        let edited = try XCTUnwrap(contents("L.strings"))
        XCTAssertEqual(Array(edited.prefix(2)), [0xFF, 0xFE], "UTF-16 stays UTF-16, its byte order mark kept")
        XCTAssertEqual(String(data: edited.dropFirst(2), encoding: .utf16LittleEndian), """
            /* Button that closes */
            "close" = "Schließen";

            // Shown when done
            "done" = "Done";
            "new" = "Neu \\"x\\"";

            """, "a removed key takes its comment along, the others keep theirs")

        // convert --in-place keeps it too; the generic layout on request writes a plain dictionary in UTF-8.
        XCTAssertEqual(try run(["convert", "L.strings", "--to", "openstep", "--in-place"]).status, 0)
        XCTAssertEqual(contents("L.strings"), edited)
        let generic = try run(["convert", "L.strings", "--to", "openstep", "--generic-layout"])
        XCTAssertEqual(generic.stdout, "{\n\tclose = \"Schließen\";\n\tdone = Done;\n\tnew = \"Neu \\\"x\\\"\";\n}\n")
    }
}
