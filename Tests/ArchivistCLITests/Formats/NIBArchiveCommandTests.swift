import ArchivistTestSupport
import Foundation
import XCTest

/// iOS compiled nibs (NIBArchive) through the built command: `dump`, `dump
/// --json`, `--format dot`, `classes`, `info`, `get`, `diff` and `lint` read
/// them as the keyed archive they hold; the real nibs in
/// `../shared/real-world/beside` match the PyPI `nibarchive` oracle field
/// for field; writing commands refuse them; hostile nibs fail with located
/// errors, never a crash. No value of the real files is printed: a mismatch
/// names the file, the object and the key.
extension CLITests {
    /// Compares the oracle's tables with the archive `dump --raw --json`
    /// shows (argv: the nib, that JSON): object `i` is `$objects[i + 1]`
    /// with `$class` and its keys' values (an array for a key given more
    /// than once; a collection's members as `NS.objects`, a dictionary's as
    /// `NS.keys` and `NS.objects`), each class a class description after the
    /// objects. Data values are compared as the bytes the oracle's framing
    /// reads (its own reading turns some into lists of doubles); a float as
    /// the 32-bit value it is. The oracle names type 4 BOOL_TRUE and 5
    /// BOOL_FALSE; the format's documentation (nibsqueeze's NibArchive.md)
    /// and Apple's files have 4 false and 5 true (a label's
    /// `UIUserInteractionDisabled` is 5), so its names are swapped here. Its
    /// int8 is unsigned; the format's is signed. Prints OK, or one line per
    /// difference without the values.
    private static let oracleScript = """
        import sys, json, base64, struct
        from nibarchive import NIBArchiveParser, NIBValueType as T, varint
        class Parser(NIBArchiveParser):
            def _parse_data(self, fp, value, offset):
                length, n = varint(fp)
                value.data = fp.read(length)
                return offset + n + length
        a = Parser(verify=True).parse(open(sys.argv[1], 'rb'))
        t = json.load(open(sys.argv[2]))
        objs, n = t['$objects'], len(a.objects)
        bad = []
        uid = lambda i: {'CF$UID': i}
        def plain(v):
            if v.type == T.INT8: return v.data - 256 if v.data > 127 else v.data
            if v.type == T.BOOL_TRUE: return False
            if v.type == T.BOOL_FALSE: return True
            if v.type == T.NIL: return uid(0)
            if v.type == T.OBJECT_REF: return uid(v.data + 1)
            if v.type == T.DATA: return base64.b64encode(v.data).decode()
            return v.data
        def same(got, want, ty):
            if ty == T.FLOAT: return isinstance(got, float) and struct.pack('<f', got) == struct.pack('<f', want)
            return got == want and type(got) == type(want)
        LISTS = {'NSArray', 'NSMutableArray', 'NSSet', 'NSMutableSet', 'NSOrderedSet', 'NSMutableOrderedSet'}
        MAPS = {'NSDictionary', 'NSMutableDictionary'}
        if len(objs) != 1 + n + len(a.class_names): bad.append('entries: %d, not %d' % (len(objs), 1 + n + len(a.class_names)))
        if t.get('$top') != ({'root': uid(1)} if n else {}): bad.append('$top')
        if t.get('$nibversion') != [a.header.unknown_1, a.header.unknown_2]: bad.append('versions')
        if t.get('$nibarchive') != 'NIBArchive': bad.append('$nibarchive')
        for i, o in enumerate(a.objects):
            grouped = {}
            for v in a.get_object_values(o):
                grouped.setdefault(a.keys[v.key_index].name, []).append((plain(v), v.type))
            cls = a.class_names[o.class_name_index].name
            want = {'$class': [(uid(1 + n + o.class_name_index), None)]}
            members = grouped.get('UINibEncoderEmptyKey')
            rename = members is not None and 'NS.objects' not in grouped and 'NS.keys' not in grouped and \\
                (cls in LISTS or (cls in MAPS and len(members) % 2 == 0))
            for k, vs in grouped.items():
                if rename and k == 'UINibEncoderEmptyKey':
                    if cls in LISTS: want['NS.objects'] = [vs]
                    else: want['NS.keys'], want['NS.objects'] = [vs[0::2]], [vs[1::2]]
                else:
                    want[('$' + k) if k.startswith('$') else k] = vs if len(vs) == 1 else [vs]
            got = objs[i + 1] if i + 1 < len(objs) else None
            if not isinstance(got, dict) or list(got) != list(want):
                bad.append('object %d (%s): keys differ' % (i, cls)); continue
            for k, w in want.items():
                g = got[k]
                if len(w) == 1 and isinstance(w[0], list):
                    ok = isinstance(g, list) and len(g) == len(w[0]) and all(same(x, y, ty) for x, (y, ty) in zip(g, w[0]))
                else:
                    ok = same(g, w[0][0], w[0][1])
                if not ok: bad.append('object %d (%s): %s differs' % (i, cls, k))
        for c, cn in enumerate(a.class_names):
            want = {'$classname': cn.name, '$classes': [cn.name] + [a.class_names[e].name for e in cn.extras]}
            if 1 + n + c >= len(objs) or objs[1 + n + c] != want: bad.append('class %d differs' % c)
        print('\\n'.join(bad) if bad else 'OK %d objects' % n)
        """

    private func nibRows() throws -> [(path: String, valid: Bool)] {
        let root = TestPaths.realWorld.appendingPathComponent("beside")
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            throw XCTSkip("no ../shared/real-world/beside/MANIFEST.tsv")
        }
        return text.split(separator: "\n").dropFirst().compactMap { row in
            let cols = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 3, cols[1] == "nibarchive" else { return nil }
            return (root.appendingPathComponent(cols[0]).path, cols[2] == "yes")
        }
    }

    /// The oracle's verdict on a nib and the archive Archivist reads it as.
    private func oracleVerdict(_ path: String, python: URL) throws -> String {
        let tree = try run(["dump", "--raw", "--json", path])
        XCTAssertEqual(tree.status, 0, path + ": " + tree.stderr)
        let archive = work.appendingPathComponent("archive-\(UUID().uuidString).json")
        try tree.output.write(to: archive)
        return try run(executable: python, ["-c", Self.oracleScript, path, archive.path]).stdout
    }

    /// Each real nib dumps (text, JSON, dot), lints, lists its classes, is
    /// reported by `info` as format nibarchive, diffs equal to itself, and
    /// its objects are the oracle's, field for field.
    func testRealNibsReadAsTheOracleReadsThem() throws {
        let rows = try nibRows()
        XCTAssertGreaterThanOrEqual(rows.count, 8)
        let python = try pythonOracle(importing: "nibarchive", package: "nibarchive")
        for (path, valid) in rows where valid {
            let dump = try run(["dump", path])
            XCTAssertEqual(dump.status, 0, path + ": " + dump.stderr)
            XCTAssertTrue(dump.stdout.hasPrefix("NIBArchive (iOS compiled nib), "), path)
            XCTAssertTrue(dump.stdout.contains("\n  root = NSObject {\n"), path)
            let json = try run(["dump", "--json", path])
            XCTAssertEqual(json.status, 0, path + ": " + json.stderr)
            let view = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
            XCTAssertEqual(view?["archiver"] as? String, "NIBArchive", path)
            let dot = try run(["dump", "--format", "dot", path])
            XCTAssertEqual(dot.status, 0, path + ": " + dot.stderr)
            XCTAssertTrue(dot.stdout.hasPrefix("digraph"), path)
            let lint = try run(["lint", path])
            XCTAssertEqual(lint.status, 0, path + ": " + lint.stdout)
            XCTAssertEqual(lint.stdout, "\(path): OK\n")
            let info = try run(["info", path])
            XCTAssertEqual(info.status, 0, path + ": " + info.stderr)
            XCTAssertTrue(info.stdout.hasPrefix("\(path)\n  format: nibarchive, "), path + ": " + info.stdout)
            XCTAssertTrue(info.stdout.contains("\n  NIBArchive (iOS compiled nib), top keys: root, "), path)
            let classes = try run(["classes", path])
            XCTAssertEqual(classes.status, 0, path + ": " + classes.stderr)
            XCTAssertTrue(classes.stdout.hasPrefix("1\tNSObject\tFoundation\tNSObject\n"), path)
            let diff = try run(["diff", path, path])
            XCTAssertEqual(diff.status, 0, path + ": " + diff.stderr)
            let verdict = try oracleVerdict(path, python: python)
            XCTAssertTrue(verdict.hasPrefix("OK "), path + ":\n" + verdict)
        }
    }

    /// A generated nib through the reading commands: the dump resolves its
    /// collections and strings, `get` follows key paths into it, `classes`
    /// shows a class's fallback, `diff` names the value that differs.
    func testAGeneratedNibReadsThroughTheCommands() throws {
        try Data(NIBArchiveSample.example).write(to: work.appendingPathComponent("View.nib"))
        let dump = try run(["dump", "View.nib"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.hasPrefix("NIBArchive (iOS compiled nib), 20 entries in $objects, 11 objects\n{\n  root = NSObject {\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("""
                    UISubviews = NSArray [
                      UILabel @5 {
                        UIText = "Hello, nib"
                        UIFontPointSize = 17.0 (inline real)
                        UIUserInteractionDisabled = true (inline bool)
                        UINumberOfLines = 2 (inline integer)
                        UIIdentifier = 1099511627776 (inline integer)
                        UIAttributes = NSMutableDictionary {
                          "NSFontSizeAttribute" => NSNumber {
                            NS.intval = 17 (inline integer)
                          }
                        }
                        UIShadowColor = nil
                      }
                    ]
            """), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("      UIGreen = 0.5 (inline float)\n"), dump.stdout)
        XCTAssertTrue(dump.stdout.contains("      UITag = -300 (inline integer)\n"), dump.stdout)
        XCTAssertEqual(try run(["get", "View.nib", "root.UINibTopLevelObjectsKey.1.UIText"]).stdout, "Hello, nib\n")
        XCTAssertEqual(try run(["get", "View.nib", "root.UINibTopLevelObjectsKey.0.UIBackgroundColor.UIGreen"]).stdout, "0.5\n")
        XCTAssertEqual(try run(["get", "--type", "View.nib", "root.UINibTopLevelObjectsKey.1"]).stdout, "UILabel\n")
        let classes = try run(["classes", "View.nib"])
        XCTAssertTrue(classes.stdout.contains("1\tUILabel\tUIKit\tUILabel < UIView\n"), classes.stdout)
        XCTAssertEqual(try run(["lint", "View.nib"]).stdout, "View.nib: OK\n")
        let info = try run(["info", "View.nib"])
        XCTAssertTrue(info.stdout.hasPrefix("""
            View.nib
              format: nibarchive, \(NIBArchiveSample.example.count) bytes
              values: 102, depth: 5
              NIBArchive (iOS compiled nib), top keys: root, 11 objects in 20 entries
            """), info.stdout)
        let json = try run(["dump", "--json", "View.nib"])
        let view = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
        XCTAssertEqual(view?["archiver"] as? String, "NIBArchive")
        let dot = try run(["dump", "--format", "dot", "View.nib"])
        XCTAssertTrue(dot.stdout.contains("o5 [label=\"UILabel\\nUIText = \\\"Hello, nib\\\""), dot.stdout)
        // The same nib with another tag: diff names the field.
        var other = NIBArchiveSample.example
        let tag: [UInt8] = [1] + [0xD4, 0xFE]  // int16 -300
        let at = try XCTUnwrap((0..<(other.count - 3)).first { Array(other[$0..<($0 + 3)]) == tag })
        other[at + 1] = 0xD3
        try Data(other).write(to: work.appendingPathComponent("Other.nib"))
        XCTAssertEqual(try run(["diff", "View.nib", "View.nib"]).status, 0)
        let diff = try run(["diff", "View.nib", "Other.nib"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("UITag"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("-301"), diff.stdout)
    }

    /// A nib is read only: convert, set and in-place conversion refuse it
    /// with the commands that read it, and the file is untouched.
    func testANibIsNeverWrittenOver() throws {
        let file = work.appendingPathComponent("View.nib")
        try Data(NIBArchiveSample.example).write(to: file)
        let refusal = "View.nib: error: not a property list: an iOS compiled nib (NIBArchive) (dump, get, classes, info, diff and lint read it)\n"
        for args in [["convert", "--to", "xml1", "View.nib", "-o", "x.plist"], ["convert", "--in-place", "--to", "xml1", "View.nib"],
                     ["set", "--type", "integer", "View.nib", "root.UITag", "1"]] {
            let r = try run(args)
            XCTAssertEqual(r.status, 1, "\(args)")
            XCTAssertEqual(r.stderr, refusal, "\(args)")
        }
        XCTAssertEqual(try Data(contentsOf: file), Data(NIBArchiveSample.example))
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("x.plist").path))
    }

    /// Broken nibs fail with the reader's located error (exit 1), in every
    /// reading command, and lint reports them.
    func testABrokenNibFailsWithALocatedError() throws {
        var bytes = NIBArchiveSample.example
        bytes[18] = 0xFF  // the object count, now past what the file holds
        try Data(bytes).write(to: work.appendingPathComponent("Broken.nib"))
        for command in ["dump", "info", "classes"] {
            let r = try run([command, "Broken.nib"])
            XCTAssertEqual(r.status, 1, command)
            XCTAssertTrue(r.stderr.hasPrefix("Broken.nib: offset "), command + ": " + r.stderr)
            XCTAssertTrue(r.stderr.contains(": error: NIBArchive: "), command + ": " + r.stderr)
        }
        let lint = try run(["lint", "Broken.nib"])
        XCTAssertEqual(lint.status, 1)
        XCTAssertTrue(lint.stdout.contains("Broken.nib"), lint.stdout)
        XCTAssertTrue(lint.stdout.contains("NIBArchive: "), lint.stdout)
    }
}
