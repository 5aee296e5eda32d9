import Foundation
import XCTest

/// Keys are the same key only when their code points are, as CoreFoundation
/// compares them: `é` (U+00E9) and `e` + U+0301, or `K` and the Kelvin sign
/// U+212A, are distinct keys for every command.
///
/// The oracle is Python's `plistlib`, whose `str` keys compare by code points
/// as CFString's do. Foundation on Linux cannot serve: swift-corelibs'
/// NSDictionary hashes keys as Swift `String`s and merges such keys into one.
extension CLITests {
    static let composed = "\u{E9}", decomposed = "e\u{301}", kelvin = "\u{212A}"

    /// Runs a Python script with `plistlib`; its standard output.
    func plistlib(_ script: String, _ args: [String] = []) throws -> String {
        let r = try run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import plistlib, json, sys\n" + script] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout
    }

    /// The dictionary of a property list file, as `plistlib` reads it: JSON
    /// with sorted keys and every non-ASCII code point as `\uXXXX`.
    func oracleDictionary(_ name: String) throws -> String {
        try plistlib("print(json.dumps(plistlib.load(open(sys.argv[1], 'rb')), ensure_ascii=True, sort_keys=True))", [name])
    }

    /// An XML plist of one dictionary with `pairs`, written by `plistlib`.
    func makeOracle(_ name: String, _ pairs: [(String, String)]) throws {
        let json = "{" + pairs.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", ") + "}"
        make(name + ".json", json)
        _ = try plistlib("open(sys.argv[2], 'wb').write(plistlib.dumps(json.load(open(sys.argv[1], encoding='utf-8')), sort_keys=False))", [name + ".json", name])
    }

    func testGetFindsOnlyTheKeyWithTheSameCodePoints() throws {
        try makeOracle("both.plist", [(Self.composed, "composed"), (Self.decomposed, "decomposed")])
        try makeOracle("one.plist", [(Self.composed, "composed"), ("K", "letter")])
        XCTAssertEqual(try oracleDictionary("both.plist"), #"{"e\u0301": "decomposed", "\u00e9": "composed"}"# + "\n")
        for (file, key, expected) in [("both.plist", Self.composed, "composed\n"), ("both.plist", Self.decomposed, "decomposed\n"),
                                      ("one.plist", Self.composed, "composed\n"), ("one.plist", "K", "letter\n")] {
            let r = try run(["get", file, key])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, expected, "\(file) \(Array(key.unicodeScalars))")
        }
        for (key, hint) in [(Self.decomposed, "the key U+00E9 differs from U+0065 U+0301"), (Self.kelvin, "the key U+004B differs from U+212A")] {
            let r = try run(["get", "one.plist", key])
            XCTAssertEqual(r.status, 1, "\(Array(key.unicodeScalars)) is not a key of one.plist")
            XCTAssertEqual(r.stdout, "")
            // The two print alike: the message names their code points.
            XCTAssertTrue(r.stderr.hasSuffix("(dictionary of 2 keys; \(hint) only by Unicode normalisation)\n"), r.stderr)
        }
        // Binary keeps both keys too.
        XCTAssertEqual(try run(["convert", "both.plist", "--to", "binary", "-o", "both.bin"]).status, 0)
        XCTAssertEqual(try run(["get", "both.bin", Self.decomposed]).stdout, "decomposed\n")
        XCTAssertEqual(try oracleDictionary("both.bin"), try oracleDictionary("both.plist"))
        XCTAssertEqual(try run(["lint", "both.plist", "both.bin"]).stdout, "both.plist: OK\nboth.bin: OK\n")
    }

    func testSetAndRemoveTouchOnlyTheKeyWithTheSameCodePoints() throws {
        try makeOracle("one.plist", [(Self.composed, "composed")])
        let set = try run(["set", "one.plist", Self.decomposed, "added", "--type", "string", "-o", "set.plist"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try oracleDictionary("set.plist"), #"{"e\u0301": "added", "\u00e9": "composed"}"# + "\n")
        let kelvin = try run(["set", "set.plist", Self.kelvin, "kelvin", "--type", "string", "-o", "kelvin.plist"])
        XCTAssertEqual(kelvin.status, 0, kelvin.stderr)
        let replaced = try run(["set", "kelvin.plist", "K", "letter", "--type", "string", "-o", "k.plist"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try oracleDictionary("k.plist"), #"{"K": "letter", "e\u0301": "added", "\u00e9": "composed", "\u212a": "kelvin"}"# + "\n")

        let removed = try run(["remove", "set.plist", Self.decomposed, "-o", "removed.plist"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try oracleDictionary("removed.plist"), #"{"\u00e9": "composed"}"# + "\n")
        let missing = try run(["remove", "removed.plist", Self.decomposed, "-o", "none.plist"])
        XCTAssertEqual(missing.status, 1, "no key e + U+0301 to remove")
    }

    func testDiffTellsKeysApartByCodePoints() throws {
        try makeOracle("old.plist", [(Self.composed, "same")])
        try makeOracle("new.plist", [(Self.decomposed, "same")])
        XCTAssertEqual(try plistlib("print(plistlib.load(open(sys.argv[1], 'rb')) == plistlib.load(open(sys.argv[2], 'rb')))", ["old.plist", "new.plist"]), "False\n")
        let diff = try run(["diff", "old.plist", "new.plist"])
        XCTAssertEqual(diff.status, 1, "the files differ")
        XCTAssertEqual(diff.stdout, "- \(Self.composed): string \"same\"\n+ \(Self.decomposed): string \"same\"\n")
        // String values too: NSString's isEqual: compares code points.
        make("a.plist", "<plist><string>\(Self.composed)</string></plist>")
        make("b.plist", "<plist><string>\(Self.decomposed)</string></plist>")
        XCTAssertEqual(try run(["diff", "a.plist", "b.plist"]).status, 1)
    }

    /// An archive whose `Thing` has fields `é` and `e` + U+0301 and a map
    /// (NSDictionary) with the same two keys, written by `plistlib`.
    func makeKeyArchive(_ name: String) throws {
        _ = try plistlib("""
            U = plistlib.UID
            objects = ["$null", {"$class": U(3), "\\u00e9": 1, "e\\u0301": 2, "map": U(2)},
                       {"$class": U(8), "NS.keys": [U(4), U(5)], "NS.objects": [U(6), U(7)]},
                       {"$classname": "Thing", "$classes": ["Thing", "NSObject"]},
                       "\\u00e9", "e\\u0301", "composed", "decomposed",
                       {"$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]}]
            archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": U(1)}, "$objects": objects}
            open(sys.argv[1], "wb").write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """, [name])
    }

    /// `Thing`'s fields and the map's entries, as `plistlib` reads the archive.
    func oracleArchive(_ name: String) throws -> String {
        try plistlib("""
            a = plistlib.load(open(sys.argv[1], 'rb'))
            o = a['$objects']
            thing = o[a['$top']['root'].data]
            def value(v): return o[v.data] if isinstance(v, plistlib.UID) else v
            fields = {k: value(v) for k, v in thing.items() if k not in ('$class', 'map')}
            m = o[thing['map'].data]
            entries = {o[k.data]: o[v.data] for k, v in zip(m['NS.keys'], m['NS.objects'])}
            print(json.dumps([fields, entries], ensure_ascii=True, sort_keys=True))
            """, [name])
    }

    func testArchiveKeyPathsTellKeysApartByCodePoints() throws {
        try makeKeyArchive("a.plist")
        XCTAssertEqual(try oracleArchive("a.plist"), #"[{"e\u0301": 2, "\u00e9": 1}, {"e\u0301": "decomposed", "\u00e9": "composed"}]"# + "\n")
        for (path, expected) in [("root.\(Self.composed)", "1\n"), ("root.\(Self.decomposed)", "2\n"),
                                 ("root.map.\(Self.composed)", "composed\n"), ("root.map.\(Self.decomposed)", "decomposed\n")] {
            let r = try run(["get", "a.plist", path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(r.stdout, expected, "\(Array(path.unicodeScalars))")
        }
        let set = try run(["set", "a.plist", "root.\(Self.decomposed)", "5", "--type", "integer", "-o", "set.plist"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(try oracleArchive("set.plist"), #"[{"e\u0301": 5, "\u00e9": 1}, {"e\u0301": "decomposed", "\u00e9": "composed"}]"# + "\n")
        let removed = try run(["remove", "a.plist", "root.map.\(Self.decomposed)", "-o", "removed.plist"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try oracleArchive("removed.plist"), #"[{"e\u0301": 2, "\u00e9": 1}, {"\u00e9": "composed"}]"# + "\n")
        let diff = try run(["diff", "a.plist", "set.plist"])
        XCTAssertEqual(diff.status, 1)
        XCTAssertEqual(diff.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, diff.stdout)
    }

    func testRulesRenameOnlyTheKeyWithTheSameCodePoints() throws {
        try makeKeyArchive("a.plist")
        make("rules.json", #"{"classes": {"Thing": {"keys": {"e\u0301": {"renameTo": "accent"}}}}, "allowedClasses": ["Thing"]}"#)
        let r = try run(["migrate", "a.plist", "--rules", "rules.json", "-o", "out.plist"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            a.plist -> out.plist:
              box inline \(Self.composed) of Thing into an NSNumber (1 object)
              box inline \(Self.decomposed) of Thing into an NSNumber (1 object)
              rename key \(Self.decomposed) -> accent in Thing (1 object)

            """)
        XCTAssertEqual(try oracleArchive("out.plist"), #"[{"accent": 2, "\u00e9": 1}, {"e\u0301": "decomposed", "\u00e9": "composed"}]"# + "\n")
        // Renaming one to the other is no clash: they are two names.
        make("swap.json", #"{"classes": {"Thing": {"keys": {"e\u0301": {"remove": true}, "\u00e9": {"renameTo": "e\u0301"}}}}, "allowedClasses": ["Thing"]}"#)
        let swap = try run(["migrate", "a.plist", "--rules", "swap.json", "-o", "swap.plist"])
        XCTAssertEqual(swap.status, 0, swap.stderr)
        XCTAssertEqual(try oracleArchive("swap.plist"), #"[{"e\u0301": 1}, {"e\u0301": "decomposed", "\u00e9": "composed"}]"# + "\n")
    }
}

extension CLITests {
    func testCodegenKeepsBothKeysUnderTwoNames() throws {
        try makeKeyArchive("a.plist")
        let r = try run(["codegen", "a.plist", "--secure-coding"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let composed = Self.composed, decomposed = Self.decomposed
        for line in ["    var \(composed): Int\n", "    var \(decomposed)2: Int\n",
                     "coder.encode(NSNumber(value: \(composed)), forKey: \"\(composed)\")",
                     "coder.encode(NSNumber(value: \(decomposed)2), forKey: \"\(decomposed)\")"] {
            // By bytes: `String.contains` would find either spelling.
            XCTAssertNotNil(Array(r.stdout.utf8).firstRange(of: Array(line.utf8)), "\(Array(line.unicodeScalars)) in \(r.stdout)")
        }
    }

    /// A subclass whose own key differs from an inherited one only by
    /// normalisation keeps it as its own field.
    func testCodegenKeepsASubclassKeyThatDiffersFromAnInheritedOne() throws {
        _ = try plistlib("""
            U = plistlib.UID
            objects = ["$null", {"$class": U(3), "base": U(2), "\\u00e9": 1, "e\\u0301": 2}, {"$class": U(4), "\\u00e9": 1},
                       {"$classname": "Sub", "$classes": ["Sub", "Base", "NSObject"]}, {"$classname": "Base", "$classes": ["Base", "NSObject"]}]
            archive = {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": U(1)}, "$objects": objects}
            open(sys.argv[1], "wb").write(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))
            """, ["sub.plist"])
        let r = try run(["codegen", "sub.plist", "--secure-coding"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = "coder.encode(NSNumber(value: \(Self.decomposed)2), forKey: \"\(Self.decomposed)\")"
        XCTAssertNotNil(Array(r.stdout.utf8).firstRange(of: Array(line.utf8)), r.stdout)
    }
}
