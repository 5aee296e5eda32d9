import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// `convert`: every format, standard input and output, output folders,
/// in-place replacement, usage errors.
extension CLITests {
    func testConvertToEveryFormat() throws {
        let source = corpus("foundation/info-plist.bplist")
        let xml = try run(["convert", source, "--to", "xml1"])
        XCTAssertEqual(xml.status, 0)
        XCTAssertEqual(xml.stderr, "")
        XCTAssertEqual(xml.output, FileManager.default.contents(atPath: corpus("foundation/info-plist.xml.plist")), "Foundation's XML")

        let json = try run(["convert", corpus("foundation/info-plist.xml.plist"), "--to", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(json.stdout, #"{"CFBundleIdentifier":"org.example.Archivist","CFBundleURLTypes":[{"CFBundleURLSchemes":["archivist"]}],"CFBundleVersion":"42","LSRequiresIPhoneOS":true,"UISupportedInterfaceOrientations":["UIInterfaceOrientationPortrait"]}"#)

        let binary = try run(["convert", corpus("foundation/info-plist.xml.plist"), "--to", "binary1"])
        XCTAssertEqual(binary.status, 0)
        XCTAssertEqual(binary.output.prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(try PropertyList.read([UInt8](binary.output)).tree.value, try PropertyList.read([UInt8](xml.output)).tree.value)

        let openstep = try run(["convert", corpus("json/strings.json"), "--to", "openstep"])
        XCTAssertEqual(openstep.status, 0, openstep.stderr)
        XCTAssertTrue(openstep.stdout.hasPrefix("{\n\tascii = plain;\n"), openstep.stdout)
        XCTAssertEqual(try PropertyList.read([UInt8](openstep.output)).tree.value,
                       try PropertyList.read([UInt8](try XCTUnwrap(FileManager.default.contents(atPath: corpus("json/strings.json"))))).tree.value)

        // A tree OpenStep cannot hold: a located refusal, no output, no file.
        let refused = try run(["convert", source, "--to", "openstep", "-o", "out.plist"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertEqual(refused.stderr, "\(source): error: OpenStep has no bool type: the bool at \"LSRequiresIPhoneOS\" cannot be written (OpenStep holds only strings, data, arrays and dictionaries; write xml1, binary1 or json instead)\n")
        XCTAssertEqual(try listing(), [])
    }

    func testStandardInputAndOutput() throws {
        let r = try run(["convert", "-", "--to", "json"], stdin: Data("{ a = (b, c); }".utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"a":["b","c"]}"#)
        let pretty = try run(["convert", "-", "--to", "json", "--pretty", "-o", "-"], stdin: Data("<plist><array><integer>1</integer></array></plist>".utf8))
        XCTAssertEqual(pretty.stdout, "[\n  1\n]\n")
        let xml = try run(["convert", "-", "--to", "xml", "-o", "from-stdin.plist"], stdin: Data("(x)".utf8))
        XCTAssertEqual(xml.status, 0)
        XCTAssertEqual(xml.stdout, "")
        XCTAssertEqual(String(decoding: try XCTUnwrap(contents("from-stdin.plist")), as: UTF8.self).split(separator: "\n").dropFirst(3).first, "<array>")
        let broken = try run(["convert", "-", "--to", "xml"], stdin: Data("{\"a\": }".utf8))
        XCTAssertEqual(broken.status, 1)
        XCTAssertEqual(broken.stdout, "")
        XCTAssertTrue(broken.stderr.hasPrefix("-:1:7: error: "), broken.stderr)
    }

    func testKeepKeyOrder() throws {
        make("order.json", #"{"b": "1", "a": "2"}"#)
        let sorted = try run(["convert", "order.json", "--to", "openstep"])
        XCTAssertEqual(sorted.stdout, "{\n\ta = 2;\n\tb = 1;\n}\n")
        let kept = try run(["convert", "order.json", "--to", "openstep", "--keep-key-order"])
        XCTAssertEqual(kept.stdout, "{\n\tb = 1;\n\ta = 2;\n}\n")
        let xml = try run(["convert", "order.json", "--to", "xml", "--keep-key-order"])
        XCTAssertTrue(xml.stdout.contains("<key>b</key>\n\t<string>1</string>\n\t<key>a</key>"), xml.stdout)
    }

    /// Long input lists take a shortcut past ArgumentParser's quadratic parsing:
    /// the same results, order and usage errors as a short list.
    func testManyInputs() throws {
        var names: [String] = []
        for k in 0..<40 {
            let name = "in\(k).plist"
            try Data("<plist><dict><key>k</key><integer>\(k)</integer></dict></plist>".utf8).write(to: work.appendingPathComponent(name))
            names.append(name)
        }
        let r = try run(["convert"] + names.prefix(20) + ["--to", "binary"] + names.suffix(20) + ["--output-dir", "many"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try listing("many").count, 40)
        let last = try PropertyList.read([UInt8](try XCTUnwrap(contents("many/in39.plist"))))
        XCTAssertEqual(last.format, .binary)
        XCTAssertEqual(last.tree.value, .dictionary(PlistDictionary([("k", .int(39))])))
        // An output file with many inputs is the same usage error as with two.
        let many = try run(["convert"] + names + ["--to", "json", "-o", "one.json"])
        let two = try run(["convert"] + names.prefix(2) + ["--to", "json", "-o", "one.json"])
        XCTAssertEqual(many.status, 64)
        XCTAssertEqual(many.stderr, two.stderr)
        // A missing input among many: the others are converted, the status is 1.
        let missing = try run(["convert"] + names + ["nope.plist", "--to", "xml", "--output-dir", "xml"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("nope.plist"), missing.stderr)
        XCTAssertEqual(try listing("xml").count, 40)
    }

    func testOutputFolder() throws {
        let dates = corpus("foundation/dates.bplist"), integers = corpus("foundation/integers.xml.plist")
        let r = try run(["convert", dates, integers, "--to", "json", "--output-dir", "out/json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.hasPrefix("2 converted, 0 unchanged, 0 skipped, 0 failed; "), "the summary: \(r.stderr)")
        XCTAssertEqual(try listing("out/json"), ["dates.json", "integers.xml.json"])
        let written = try PropertyList.read([UInt8](try XCTUnwrap(contents("out/json/dates.json"))))
        XCTAssertEqual(written.format, .json)
        XCTAssertEqual(written.tree.value.arrayValue?.first, .string("0001-01-01T00:00:00Z"))
        // Results of an earlier run are replaced; inputs are not.
        XCTAssertEqual(try run(["convert", dates, "--to", "json", "--output-dir", "out/json"]).status, 0)

        // Two inputs with the same name: the first result stays, the second is refused.
        make("a.plist", "<plist><string>first</string></plist>")
        make("a.bplist", "<plist><string>second</string></plist>")
        let clash = try run(["convert", "a.plist", "a.bplist", "--to", "xml", "--output-dir", "out"])
        XCTAssertEqual(clash.status, 1)
        XCTAssertEqual(clash.stderr.split(separator: "\n").first, "a.bplist: error: refusing to overwrite out/a.plist, the result of a.plist")
        XCTAssertTrue(clash.stderr.contains("\n1 converted, 0 unchanged, 0 skipped, 1 failed; "), clash.stderr)
        XCTAssertTrue(String(decoding: try XCTUnwrap(contents("out/a.plist")), as: UTF8.self).contains("first"))
    }

    func testInputsAreNeverOverwrittenWithoutInPlace() throws {
        let text = "<plist><true/></plist>"
        make("keep.plist", text)
        for args in [["-o", "keep.plist"], ["-o", "./keep.plist"], ["--output-dir", "."]] {
            let r = try run(["convert", "keep.plist", "--to", "xml"] + args)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertEqual(r.stderr, "keep.plist: error: refusing to overwrite the input keep.plist (only in-place conversion replaces inputs)\n")
            XCTAssertEqual(contents("keep.plist"), Data(text.utf8))
        }
        XCTAssertEqual(try listing(), ["keep.plist"])
    }

    func testInPlaceReplacesGoodInputsAndLeavesBrokenOnes() throws {
        let broken = "<plist><dict><key>a</key></plist>"
        make("broken.plist", broken)
        make("good.plist", "<plist><true/></plist>")
        let good = work.appendingPathComponent("good.plist").path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: good)
        let r = try run(["convert", "broken.plist", "good.plist", "--to", "binary", "--in-place"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 2, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("broken.plist:1:"), r.stderr)
        XCTAssertTrue(r.stderr.split(separator: "\n").last?.hasPrefix("1 converted, 0 unchanged, 0 skipped, 1 failed; ") == true, r.stderr)
        XCTAssertEqual(contents("broken.plist"), Data(broken.utf8), "a failed conversion leaves the input as it was")
        XCTAssertEqual(contents("good.plist")?.prefix(8), Data("bplist00".utf8), "the other input is still converted")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: good)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try listing(), ["broken.plist", "good.plist"], "no temporary file is left")
    }

    func testDiagnosticsAreWarningsWhenConverting() throws {
        make("dup.plist", "<plist><dict>\n<key>k</key><true/>\n<key>k</key><false/>\n</dict></plist>")
        let r = try run(["convert", "dup.plist", "--to", "json"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout, #"{"k":false}"#)
        XCTAssertEqual(r.stderr, "dup.plist:3:1: warning: duplicate key \"k\"; the last value is kept (see 2:1)\n")
        // The warning comes even when the result cannot be written.
        let failed = try run(["convert", "dup.plist", "--to", "openstep"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.stderr.split(separator: "\n").map(String.init), [
            "dup.plist:3:1: warning: duplicate key \"k\"; the last value is kept (see 2:1)",
            "dup.plist: error: OpenStep has no bool type: the bool at \"k\" cannot be written (OpenStep holds only strings, data, arrays and dictionaries; write xml1, binary1 or json instead)",
        ])
    }

    func testUsageErrorsExit64() throws {
        make("a.plist", "<plist><true/></plist>")
        make("b.plist", "<plist><true/></plist>")
        let cases: [([String], String)] = [
            (["convert", "a.plist"], "Error: Missing expected argument '--to <FORMAT>'"),
            (["convert", "a.plist", "--to", "yaml"], "Error: The value 'yaml' is invalid for '--to <FORMAT>'"),
            (["convert", "a.plist", "b.plist", "--to", "xml"], "Error: Several inputs need an output folder or in-place conversion"),
            (["convert", "a.plist", "b.plist", "--to", "xml", "-o", "x"], "Error: An output file takes exactly one input"),
            (["convert", "a.plist", "--to", "xml", "-o", "x", "--in-place"], "Error: Use only one of -o, --output-dir and --in-place."),
            (["convert", "-", "--to", "xml", "--in-place"], "Error: Standard input cannot be replaced in place."),
            (["lint"], "Error: Give files or folders to check, or --sqlite STORE."),
            (["lint", "--bogus", "a.plist"], "Error: Unknown option '--bogus'"),
        ]
        for (args, message) in cases {
            let r = try run(args)
            XCTAssertEqual(r.status, 64, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try listing(), ["a.plist", "b.plist"])
    }

    func testHelpAndVersion() throws {
        let version = try run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.stdout, "0.1.0\n")
        for (command, example) in [("convert", "  archivist convert Info.plist --to json --pretty\n"), ("lint", "  archivist lint Info.plist\n")] {
            let help = try run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains("Examples:\n"), help.stdout)
            XCTAssertTrue(help.stdout.contains(example), help.stdout)
        }
    }
}
