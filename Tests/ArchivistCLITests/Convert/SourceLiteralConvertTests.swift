import Foundation
import XCTest

/// `convert --to swift|objc`: the source plutil's `-convert swift|objc`
/// writes. The Swift is compiled with `swiftc` into a program that writes the
/// constant as a binary plist, which Foundation reads back equal to its
/// reading of the input; the Objective-C (no Foundation headers here) is
/// compared as text.
extension CLITests {
    /// Strings that need every escape, numbers at the ends of their ranges,
    /// mixed and empty containers, keys out of order.
    static let literalInput = #"""
        {"str": "q\"\\\u0001\n\t\r\u0000\u00e9\ud83d\ude00\u0085 ??= end", "mixed": [1, "x", 2.5, true, {"k": []}],
         "ints": [1, -2, 9223372036854775807, -9223372036854775808], "big": 18446744073709551615,
         "reals": [1.5, 1e20, -0.0, 5e-324, 3.0], "bools": [true, false], "empty": {}, "emptyA": [],
         "nested": {"a": {"b": [[1, 2], ["x"]]}}, "Zed": "last", "é key \"q\"": 0}
        """#

    /// A Foundation value as text that tells types apart, keys sorted.
    private func canonical(_ value: Any) -> String {
        if let d = value as? [String: Any] {
            return "{" + d.keys.sorted().map { "\($0.debugDescription): \(canonical(d[$0] as Any))" }.joined(separator: ", ") + "}"
        }
        if let a = value as? [Any] { return "[" + a.map(canonical).joined(separator: ", ") + "]" }
        if let s = value as? String { return s.debugDescription }
        return "\(type(of: value))(\(value))"
    }

    private func foundationValue(_ data: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    func testConvertToSwiftCompilesToTheSameValue() throws {
        make("Literal Values.json", Self.literalInput)
        XCTAssertEqual(try run(["convert", "Literal Values.json", "--to", "binary", "-o", "input.bplist"]).status, 0)
        let swift = try run(["convert", "input.bplist", "--to", "swift", "-o", "values.swift"])
        XCTAssertEqual(swift.status, 0, swift.stderr)
        let source = String(decoding: contents("values.swift") ?? Data(), as: UTF8.self)
        XCTAssertTrue(source.hasPrefix("/// Generated from input.bplist\nlet input: [String: Any] = [\n\t\"Zed\" : \"last\",\n"), source)
        XCTAssertTrue(source.contains("\t" + #""str" : "q\"\\\u{1}\n\t\r\0\u{E9}\u{1F600}\u{85} ??= end","#), source)
        XCTAssertTrue(source.hasSuffix("\n]\n"), source)
        // The program writes the constant as a binary plist on standard output.
        make("main.swift", """
            import Foundation
            \(source)
            let data = try PropertyListSerialization.data(fromPropertyList: input, format: .binary, options: 0)
            FileHandle.standardOutput.write(data)
            """)
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let compile = try run(executable: env, ["swiftc", "main.swift", "-o", "literal"])
        XCTAssertEqual(compile.status, 0, compile.stderr)
        let program = try run(executable: work.appendingPathComponent("literal"), [])
        XCTAssertEqual(program.status, 0, program.stderr)
        let expected = canonical(try foundationValue(contents("input.bplist") ?? Data()))
        XCTAssertEqual(canonical(try foundationValue(program.output)), expected)
        XCTAssertTrue(expected.contains("18446744073709551615") && expected.contains("2.5"), expected)
    }

    func testConvertToObjCWritesTheLiteral() throws {
        make("in.json", #"{"s": "a\"\\\u0001\u00e9\ud83d\ude00??x", "n": [1, -9223372036854775808, 18446744073709551615, 2.5, true], "e": {}, "a": []}"#)
        let objc = try run(["convert", "in.json", "--to", "objc"])
        XCTAssertEqual(objc.status, 0, objc.stderr)
        XCTAssertEqual(objc.stdout, #"""
            /// Generated from in.json
            __attribute__((visibility("hidden")))
            NSDictionary * const _in = @{
            	@"a" : @[],
            	@"e" : @{},
            	@"n" : @[
            		@1,
            		@(-9223372036854775807LL - 1),
            		@18446744073709551615ULL,
            		@2.5,
            		@YES,
            	],
            	@"s" : @"a\"\\\001\u00E9\U0001F600?\?x",
            };

            """#)
        // --keep-key-order keeps the file's order; --output-dir names the file after the constant.
        let kept = try run(["convert", "in.json", "--to", "swift", "--keep-key-order", "--output-dir", "out"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(try listing("out"), ["_in.swift"])
        let swift = String(decoding: contents("out/_in.swift") ?? Data(), as: UTF8.self)
        XCTAssertTrue(swift.hasPrefix("/// Generated from in.json\nlet _in: [String: Any] = [\n\t\"s\" : "), swift)
    }

    func testConvertToSourceRefusesDatesAndData() throws {
        make("d.plist", """
            <plist version="1.0"><dict><key>ok</key><string>x</string><key>when</key><array><date>2020-01-01T00:00:00Z</date></array></dict></plist>
            """)
        make("b.plist", "<plist version=\"1.0\"><dict><key>blob</key><data>AAE=</data></dict></plist>")
        for language in ["swift", "objc"] {
            let r = try run(["convert", "d.plist", "b.plist", "--to", language, "--output-dir", "src"])
            XCTAssertEqual(r.status, 1)
            let name = language == "swift" ? "Swift" : "Objective-C"
            XCTAssertTrue(r.stderr.contains("d.plist: error: \(name) literal syntax has no date: the date at \"when[0]\" cannot be written"), r.stderr)
            XCTAssertTrue(r.stderr.contains("b.plist: error: \(name) literal syntax has no data: the data at \"blob\" cannot be written"), r.stderr)
            XCTAssertEqual((try? listing("src")) ?? [], [])
        }
        let inPlace = try run(["convert", "d.plist", "--to", "swift", "--in-place"])
        XCTAssertEqual(inPlace.status, 64)
        XCTAssertTrue(inPlace.stderr.contains("use -o FILE or --output-dir DIR"), inPlace.stderr)
    }
}
