import ArchivistCore
import Foundation
import XCTest

/// `archivist merge` on files: where the result goes, exit statuses, and
/// what it refuses to write.
extension CLITests {
    private func xml(_ entries: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(entries)
        </dict>
        </plist>

        """
    }

    func testMergeWritesToStandardOutputOrOutputFileAndExitsByOutcome() throws {
        make("base.plist", xml("\t<key>a</key>\n\t<string>1</string>\n\t<key>b</key>\n\t<string>1</string>"))
        make("ours.plist", xml("\t<key>a</key>\n\t<string>2</string>\n\t<key>b</key>\n\t<string>1</string>"))
        make("theirs.plist", xml("\t<key>a</key>\n\t<string>1</string>\n\t<key>b</key>\n\t<string>3</string>\n\t<key>c</key>\n\t<true/>"))
        let merged = try run(["merge", "base.plist", "ours.plist", "theirs.plist"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertEqual(merged.stderr, "")
        XCTAssertEqual(merged.stdout, xml("\t<key>a</key>\n\t<string>2</string>\n\t<key>b</key>\n\t<string>3</string>\n\t<key>c</key>\n\t<true/>"))
        let toFile = try run(["merge", "base.plist", "ours.plist", "theirs.plist", "-o", "out.plist"])
        XCTAssertEqual(toFile.status, 0, toFile.stderr)
        XCTAssertEqual(toFile.stdout, "")
        XCTAssertEqual(contents("out.plist"), merged.output)
        XCTAssertEqual(try listing(), ["base.plist", "ours.plist", "out.plist", "theirs.plist"], "no temporary file left")

        make("clash.plist", xml("\t<key>a</key>\n\t<string>9</string>\n\t<key>b</key>\n\t<string>1</string>"))
        let conflict = try run(["merge", "base.plist", "ours.plist", "clash.plist"])
        XCTAssertEqual(conflict.status, 1)
        XCTAssertEqual(conflict.stderr, "ours.plist: conflict: a: both sides changed it, differently\n")
        XCTAssertEqual(conflict.stdout, xml("\t<key>a</key>\n<<<<<<< ours: a\n\t<string>2</string>\n=======\n\t<string>9</string>\n>>>>>>> theirs: a\n\t<key>b</key>\n\t<string>1</string>"))

        let missing = try run(["merge", "base.plist", "ours.plist", "nothing.plist"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("nothing.plist: error: "), missing.stderr)
        make("broken.plist", "<plist><dict><key>a</key></dict></plist>")
        let broken = try run(["merge", "broken.plist", "ours.plist", "theirs.plist", "-o", "never.plist"])
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.hasPrefix("broken.plist:"), broken.stderr)
        XCTAssertNil(contents("never.plist"))
        XCTAssertEqual(try run(["merge", "base.plist", "ours.plist", "theirs.plist", "--git", "-o", "x.plist"]).status, 64)
        XCTAssertEqual(try run(["merge", "base.plist", "ours.plist", "theirs.plist", "name.plist"]).status, 64)
        XCTAssertEqual(try run(["merge", "base.plist", "ours.plist", "theirs.plist", "-o", "ours.plist"]).status, 64, "an input is not an output")
        XCTAssertEqual(contents("ours.plist").map { String(decoding: $0, as: UTF8.self) }, xml("\t<key>a</key>\n\t<string>2</string>\n\t<key>b</key>\n\t<string>1</string>"))
    }

    /// With --git the result replaces OURS, as git's driver must (and a binary
    /// OURS stays binary, holding its own side of a conflict).
    func testMergeAsGitDriverReplacesOurs() throws {
        make("base.plist", xml("\t<key>a</key>\n\t<string>1</string>"))
        make("theirs.plist", xml("\t<key>a</key>\n\t<string>3</string>\n\t<key>t</key>\n\t<string>x</string>"))
        make("ours.xml", xml("\t<key>a</key>\n\t<string>2</string>"))
        XCTAssertEqual(try run(["convert", "ours.xml", "--to", "binary", "-o", "ours.plist"]).status, 0)
        let driven = try run(["merge", "--git", "base.plist", "ours.plist", "theirs.plist", "Settings.plist"])
        XCTAssertEqual(driven.status, 1)
        XCTAssertEqual(driven.stdout, "")
        XCTAssertEqual(driven.stderr, """
            Settings.plist: conflict: a: both sides changed it, differently
            Settings.plist: the result holds OURS' side of the conflict (binary has no conflict markers)

            """)
        let result = try XCTUnwrap(contents("ours.plist"))
        XCTAssertTrue(result.starts(with: Array("bplist00".utf8)))
        XCTAssertEqual(try PropertyList.read([UInt8](result)).tree.value,
                       .dictionary(PlistDictionary([("a", .string("2")), ("t", .string("x"))])))
    }

    /// A merge OURS' format cannot hold (an integer from THEIRS into an
    /// OpenStep file) is refused, nothing written: never a silent wrong merge.
    func testMergeRefusesAResultTheFormatCannotHold() throws {
        make("base.strings", "\"a\" = \"1\";\n")
        make("ours.strings", "\"a\" = \"2\";\n")
        make("theirs.plist", xml("\t<key>a</key>\n\t<string>1</string>\n\t<key>n</key>\n\t<integer>5</integer>"))
        let refused = try run(["merge", "base.strings", "ours.strings", "theirs.plist", "-o", "out.strings"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.hasPrefix("ours.strings: error: OpenStep has no integer type"), refused.stderr)
        XCTAssertNil(contents("out.strings"))
        make("theirs.strings", "\"a\" = \"1\";\n\"n\" = \"5\";\n")
        let merged = try run(["merge", "base.strings", "ours.strings", "theirs.strings"])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertEqual(merged.stdout, "a = 2;\nn = 5;\n", "a strings file stays one, without braces")
    }
}
