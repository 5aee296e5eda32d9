// Writes Archivist's fixture corpus with Foundation's own PropertyListSerialization:
// one XML and one binary file per tree in `foundation/`, the tree's expected reading in
// `expected/NAME.txt` (PlistValue's stable description, keys sorted), a few malformed files,
// and `MANIFEST.tsv`. Usage: swift run fixture-gen [Corpus]
import ArchivistCore
import Foundation

let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Corpus")
let dir = root.appendingPathComponent("foundation")
let expectedDir = root.appendingPathComponent("expected")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: expectedDir, withIntermediateDirectories: true)

/// Foundation's object for a tree (the generator's trees hold no UIDs or nulls).
func object(_ v: PlistValue) -> Any {
    switch v {
    case .string(let s): return s
    case .integer(let i): return i.int64Value.map { NSNumber(value: $0) } ?? NSNumber(value: i.bitPattern)
    case .real(let r): return r.width == .bits32 ? NSNumber(value: Float(r.value)) : NSNumber(value: r.value)
    case .bool(let b): return b
    case .date(let d): return Date(timeIntervalSinceReferenceDate: d.secondsSinceReferenceDate)
    case .data(let d): return Data(d)
    case .array(let a): return a.map(object)
    case .dictionary(let d): return Dictionary(uniqueKeysWithValues: zip(d.keys, d.values.map(object)))
    case .uid, .null: return ""
    }
}

func dict(_ pairs: [(String, PlistValue)]) -> PlistValue { .dictionary(PlistDictionary(pairs)) }

var nested = PlistValue.string("bottom")
for i in 0..<200 { nested = i % 2 == 0 ? .array([nested]) : dict([("level\(i)", nested)]) }
let shared = dict([("name", .string("shared")), ("values", .array([.int(1), .int(2)]))])

let trees: [(String, String, PlistValue)] = [
    ("empty-containers", "empty dict, array, string, data", dict([("d", dict([])), ("a", .array([])), ("s", .string("")), ("data", .data([]))])),
    ("integers", "integer widths 8/16/32/64 bits, Int64.min/max, above Int64.max", .array([
        .int(0), .int(255), .int(256), .int(65_535), .int(65_536), .int(4_294_967_295), .int(4_294_967_296),
        .int(Int64.max), .int(Int64.min), .int(-1), .integer(PlistInteger(UInt64(Int64.max) + 1)), .integer(PlistInteger(UInt64.max)),
    ])),
    ("reals", "float vs double, tiny and huge, negative zero, infinities", .array([
        .double(0.1), .real(PlistReal(float: 0.1)), .double(1e300), .double(5e-324), .double(-0.0), .double(.infinity), .double(-.infinity), .double(2.5),
    ])),
    ("strings", "ASCII, Latin, CJK, non-BMP, escapes and control characters", dict([
        ("ascii", .string("plain")), ("latin", .string("héllo wörld")), ("cjk", .string("日本語のテキスト")),
        ("emoji", .string("😀 𝄞 👩‍👩‍👧")), ("markup", .string("a < b && c > d \"quoted\" 'single'")), ("control", .string("tab\there\nnewline")),
    ])),
    ("dates", "year 1, 1900, 2001, sub-second, far future", .array([
        .date(PlistDate(secondsSinceReferenceDate: -63_113_904_000)), .date(PlistDate(secondsSinceReferenceDate: -3_187_296_000)),
        .date(PlistDate(secondsSinceReferenceDate: 0)), .date(PlistDate(secondsSinceReferenceDate: 730_907_159.25)),
        .date(PlistDate(secondsSinceReferenceDate: 3e10)),
    ])),
    ("big-data", "100 KB of data", .data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })),
    ("deep-nesting", "200 levels of alternating arrays and dictionaries", nested),
    ("shared-objects", "one dictionary and one string referenced many times", dict([
        ("first", shared), ("second", shared), ("list", .array(Array(repeating: shared, count: 50))),
        ("strings", .array(Array(repeating: .string("repeated string value"), count: 200))),
    ])),
    ("info-plist", "a typical Info.plist", dict([
        ("CFBundleIdentifier", .string("org.example.Archivist")), ("CFBundleVersion", .string("42")),
        ("LSRequiresIPhoneOS", .bool(true)), ("UISupportedInterfaceOrientations", .array([.string("UIInterfaceOrientationPortrait")])),
        ("CFBundleURLTypes", .array([dict([("CFBundleURLSchemes", .array([.string("archivist")]))])])),
    ])),
]

var manifest = "path\tformat\tvalid\tkind\tsource\n"
let source = "archivist:tools/fixture-gen"
for (name, kind, tree) in trees {
    let obj = object(tree)
    for (format, ext, label) in [(PropertyListSerialization.PropertyListFormat.xml, "xml.plist", "xml"), (.binary, "bplist", "binary")] {
        let data = try PropertyListSerialization.data(fromPropertyList: obj, format: format, options: 0)
        try data.write(to: dir.appendingPathComponent("\(name).\(ext)"))
        manifest += "foundation/\(name).\(ext)\t\(label)\tyes\t\(kind); written by Foundation\t\(source)\n"
    }
    // The expected reading of the binary file: the tree itself, keys sorted.
    try Data((tree.sortingKeys.description + "\n").utf8).write(to: expectedDir.appendingPathComponent("\(name).txt"))
    if let json = try? PropertyList.write(tree, as: .json, options: WriteOptions(pretty: true)) {
        try Data(json).write(to: dir.appendingPathComponent("\(name).json"))
        manifest += "foundation/\(name).json\tjson\tyes\t\(kind); JSON form\t\(source)\n"
    }
}

let malformed = root.appendingPathComponent("malformed")
try FileManager.default.createDirectory(at: malformed, withIntermediateDirectories: true)
let info = try Data(contentsOf: dir.appendingPathComponent("info-plist.bplist"))
let broken: [(String, String, String, Data)] = [
    ("truncated.bplist", "binary", "binary plist cut in half", info.prefix(info.count / 2)),
    ("bad-offset.bplist", "binary", "offset table entry points past the objects", {
        var d = info
        let table = Int(d[d.count - 1]) | Int(d[d.count - 2]) << 8
        d[table] = 0xFF
        return d
    }()),
    ("unclosed.xml.plist", "xml", "XML element never closed", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>text\n</dict>\n</plist>\n".utf8)),
    ("duplicate-key.xml.plist", "xml", "duplicate key (Apple keeps the last; lint reports it)", Data("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<true/>\n\t<key>a</key>\n\t<false/>\n</dict>\n</plist>\n".utf8)),
    ("trailing-comma.json", "json", "JSON with a trailing comma", Data("{\"a\": [1, 2,]}\n".utf8)),
    ("unterminated.strings", "openstep", "OpenStep string never closed", Data("\"key\" = \"value;\n".utf8)),
]
for (name, format, kind, data) in broken {
    try data.write(to: malformed.appendingPathComponent(name))
    manifest += "malformed/\(name)\t\(format)\tno\t\(kind)\t\(source)\n"
}
manifest += try ArchiveFixtures.write(into: root)
try Data(manifest.utf8).write(to: root.appendingPathComponent("MANIFEST.tsv"))
print("wrote \(trees.count) trees and \(broken.count) malformed files into \(root.path)")
