// Writes Archivist's fixture corpus. Usage: swift run fixture-gen [Corpus]
//
// - foundation/NAME.xml.plist, foundation/NAME.bplist: each tree written by Foundation's
//   PropertyListSerialization (XML and binary).
// - json/NAME.json: the trees JSON can hold, written by Archivist (Foundation has no
//   property-list JSON), checked to parse with JSONSerialization.
// - openstep/: OpenStep files, hand-written and written by Archivist, and encodings/:
//   UTF-16 files; each is checked to read in Foundation to the tree it was made from.
// - malformed/: broken files, each in the format it pretends to be.
// - expected/PATH.txt for every valid file: the reading a correct parser gives
//   (PlistValue.description with keys sorted), derived from the tree the file was
//   made from and what the format keeps of it, never from Archivist's readers.
// - archives/: keyed archives written by NSKeyedArchiver (Archives.swift).
// - MANIFEST.tsv: path, format, valid, kind, source (as ../shared/corpus/MANIFEST.tsv).
//
// Foundation writes binary dictionaries in hash order; run with
// SWIFT_DETERMINISTIC_HASHING=1 for byte-identical output from run to run.
import ArchivistCore
import Foundation

if ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil {
    FileHandle.standardError.write(Data("note: set SWIFT_DETERMINISTIC_HASHING=1 for reproducible binary files\n".utf8))
}

let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Corpus")
let source = "archivist:tools/fixture-gen"
var manifest = "path\tformat\tvalid\tkind\tsource\n"
var written = 0

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
}

/// Writes one file of the corpus, its manifest row and (for a valid file) its expected reading.
@MainActor func emit(_ path: String, _ bytes: Data, format: String, kind: String, expected: PlistValue?) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try bytes.write(to: url)
    let top = expected.map { "; top \($0.typeName)" } ?? ""
    manifest += "\(path)\t\(format)\t\(expected == nil ? "no" : "yes")\t\(kind)\(top)\t\(source)\n"
    if let expected {
        let golden = root.appendingPathComponent("expected/\(path).txt")
        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((expected.sortingKeys.description + "\n").utf8).write(to: golden)
    }
    written += 1
}

// MARK: Trees and what each format keeps of them

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

/// The tree Foundation reads from a file holding only strings, data, arrays and
/// dictionaries (OpenStep and the UTF-16 fixtures); nil for anything else.
func textTree(_ object: Any) -> PlistValue? {
    switch object {
    case let s as String: return .string(s)
    case let d as Data: return .data([UInt8](d))
    case let a as [Any]:
        var items: [PlistValue] = []
        for element in a {
            guard let v = textTree(element) else { return nil }
            items.append(v)
        }
        return .array(items)
    case let d as [String: Any]:
        var pairs: [(String, PlistValue)] = []
        for (k, element) in d {
            guard let v = textTree(element) else { return nil }
            pairs.append((k, v))
        }
        return .dictionary(PlistDictionary(pairs))
    default: return nil
    }
}

/// Applies `leaf` to every scalar of a tree.
func mapLeaves(_ v: PlistValue, _ leaf: (PlistValue) -> PlistValue) -> PlistValue {
    switch v {
    case .array(let items): return .array(items.map { mapLeaves($0, leaf) })
    case .dictionary(let d): return .dictionary(PlistDictionary(zip(d.keys, d.values.map { mapLeaves($0, leaf) }).map { ($0, $1) }))
    case .string, .integer, .real, .bool, .date, .data, .uid, .null: return leaf(v)
    }
}

/// What Foundation's XML keeps: dates to the whole second (floored), reals as
/// 64-bit, and zero without its sign (`-0.0` is written `0.0`).
func xmlShape(_ v: PlistValue) -> PlistValue {
    mapLeaves(v) { leaf in
        switch leaf {
        case .date(let d): return .date(PlistDate(secondsSinceReferenceDate: d.secondsSinceReferenceDate.rounded(.down)))
        case .real(let r): return .real(PlistReal(r.value == 0 ? 0 : r.value))
        default: return leaf
        }
    }
}

/// What a JSON file keeps: dates become ISO 8601 strings (whole seconds), data
/// becomes base64 strings, reals are 64-bit.
func jsonShape(_ v: PlistValue) -> PlistValue {
    mapLeaves(v) { leaf in
        switch leaf {
        case .date(let d): return .string(ISO8601.format(d))
        case .data(let bytes): return .string(Data(bytes).base64EncodedString())
        case .real(let r): return .real(PlistReal(r.value))
        default: return leaf
        }
    }
}

func dict(_ pairs: [(String, PlistValue)]) -> PlistValue { .dictionary(PlistDictionary(pairs)) }

var nested = PlistValue.string("bottom")
for i in 0..<200 { nested = i % 2 == 0 ? .array([nested]) : dict([("level\(i)", nested)]) }
let shared = dict([("name", .string("shared")), ("values", .array([.int(1), .int(2)]))])

let trees: [(name: String, kind: String, tree: PlistValue)] = [
    ("empty-containers", "empty dict, array, string, data", dict([("d", dict([])), ("a", .array([])), ("s", .string("")), ("data", .data([]))])),
    ("integers", "integer widths 8/16/32/64 bits, Int64.min/max, above Int64.max", .array([
        .int(0), .int(255), .int(256), .int(65_535), .int(65_536), .int(4_294_967_295), .int(4_294_967_296),
        .int(Int64.max), .int(Int64.min), .int(-1), .int(-129), .int(-32_769), .int(-2_147_483_649),
        .integer(PlistInteger(UInt64(Int64.max) + 1)), .integer(PlistInteger(UInt64.max)),
    ])),
    ("reals", "float vs double, tiny, huge, negative zero", .array([
        .double(0.1), .real(PlistReal(float: 0.1)), .real(PlistReal(float: .greatestFiniteMagnitude)), .double(1e300),
        .double(.leastNonzeroMagnitude), .double(-0.0), .double(2.5), .double(-1.5e-10), .double(123_456_789.125),
    ])),
    ("special-reals", "infinities and NaN (no JSON form)", .array([.double(.infinity), .double(-.infinity), .double(.nan)])),
    ("strings", "ASCII, Latin, CJK, non-BMP, escapes and control characters", dict([
        ("ascii", .string("plain")), ("latin", .string("héllo wörld")), ("cjk", .string("日本語のテキスト")),
        ("emoji", .string("😀 𝄞 👩‍👩‍👧")), ("markup", .string("a < b && c > d \"quoted\" 'single'")), ("control", .string("tab\there\nnewline")),
        ("ключ", .string("non-ASCII key")),
    ])),
    ("dates", "year 1, 1900, 2001, sub-second, far future", .array([
        .date(PlistDate(secondsSinceReferenceDate: -63_113_904_000)), .date(PlistDate(secondsSinceReferenceDate: -3_187_296_000)),
        .date(PlistDate(secondsSinceReferenceDate: 0)), .date(PlistDate(secondsSinceReferenceDate: 730_907_159.25)),
        .date(PlistDate(secondsSinceReferenceDate: -0.5)), .date(PlistDate(secondsSinceReferenceDate: 3e10)),
    ])),
    ("booleans", "true and false", dict([("yes", .bool(true)), ("no", .bool(false)), ("list", .array([.bool(false), .bool(true)]))])),
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
    ("top-string", "a string as the whole document", .string("just a string")),
    ("top-integer", "an integer as the whole document", .int(-42)),
]

// MARK: Foundation's XML and binary, Archivist's JSON

for (name, kind, tree) in trees {
    let obj = object(tree)
    let xml = try PropertyListSerialization.data(fromPropertyList: obj, format: .xml, options: 0)
    try emit("foundation/\(name).xml.plist", xml, format: "xml", kind: "\(kind); written by Foundation", expected: xmlShape(tree))
    let binary = try PropertyListSerialization.data(fromPropertyList: obj, format: .binary, options: 0)
    try emit("foundation/\(name).bplist", binary, format: "binary", kind: "\(kind); written by Foundation", expected: tree)
    if let json = try? PropertyList.write(tree, as: .json, options: WriteOptions(pretty: true)) {
        _ = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
        try emit("json/\(name).json", Data(json), format: "json", kind: "\(kind); written by Archivist", expected: jsonShape(tree))
    }
}

// MARK: OpenStep and UTF-16, checked against Foundation's reading

/// Writes a text fixture after checking that Foundation reads it to `tree`.
@MainActor func emitChecked(_ path: String, _ bytes: Data, format: String, kind: String, tree: PlistValue) throws {
    let read = try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
    guard let value = textTree(read), value == tree else {
        throw GeneratorError(description: "\(path): Foundation reads \(read), not \(tree)")
    }
    try emit(path, bytes, format: format, kind: kind, expected: tree)
}

let stringsTable = dict([
    ("greeting", .string("Hello, world!")),
    ("escapes", .string("tab\there\nnew line \"quoted\" \\ backslash")),
    ("unicode", .string("café 日本")),
    ("octal", .string("AB")),
    ("unquoted_key", .string("unquoted-value.1")),
    ("empty", .string("")),
])
let stringsText = """
    /* Localizable.strings: comments, escapes and unquoted strings. */
    "greeting" = "Hello, world!";
    // A line comment.
    "escapes" = "tab\\there\\nnew line \\"quoted\\" \\\\ backslash";
    "unicode" = "caf\\U00e9 \\U65e5\\U672c";
    "octal" = "\\101\\102";
    unquoted_key = unquoted-value.1;
    "empty" = "";

    """
try emitChecked("openstep/Localizable.strings", Data(stringsText.utf8), format: "openstep",
                kind: ".strings table: comments, escapes, \\U and octal, unquoted strings", tree: stringsTable)
guard let utf16Strings = stringsText.data(using: .utf16) else { throw GeneratorError(description: "UTF-16 encoding failed") }
try emitChecked("encodings/Localizable-utf16.strings", utf16Strings, format: "openstep",
                kind: ".strings table in UTF-16 with byte order mark", tree: stringsTable)

let openStepTree = dict([
    ("name", .string("Archivist")),
    ("empty-dict", dict([])),
    ("empty-array", .array([])),
    ("data", .data([0x00, 0x01, 0xFE, 0xFF, 0x7F, 0x80, 0x10, 0x20, 0x30])),
    ("list", .array([.string("needs quoting"), .string("é ü 日本 😀"), .string("with \"quotes\" and \\ backslash"), .string("new\nline"), .string("$unquoted/path:1.0_x-y")])),
    ("nested", dict([("a", dict([("b", .array([.string("c"), dict([("d", .string("e"))])]))]))])),
])
try emitChecked("openstep/nested.plist", Data(try PropertyList.write(openStepTree, as: .openstep)), format: "openstep",
                kind: "nested OpenStep with data, empty containers, quoting; written by Archivist", tree: openStepTree)

let utf16Tree = dict([("latin", .string("héllo")), ("cjk", .string("日本語")), ("emoji", .string("😀 𝄞"))])
let utf16XML = String(decoding: try PropertyListSerialization.data(fromPropertyList: object(utf16Tree), format: .xml, options: 0), as: UTF8.self)
    .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
guard let utf16XMLData = utf16XML.data(using: .utf16) else { throw GeneratorError(description: "UTF-16 encoding failed") }
try emitChecked("encodings/strings-utf16.xml.plist", utf16XMLData, format: "xml",
                kind: "XML in UTF-16 with byte order mark, non-BMP characters", tree: utf16Tree)

// MARK: Malformed files

let info = try Data(contentsOf: root.appendingPathComponent("foundation/info-plist.bplist"))
var badOffset = info
let tableOffset = Int(info[info.count - 1]) | Int(info[info.count - 2]) << 8
badOffset[tableOffset] = 0xFF
// An array that contains itself: object 0 is a one-element array referring to object 0.
var cycle = Data("bplist00".utf8) + Data([0xA1, 0x00, 0x08])
cycle += Data([0, 0, 0, 0, 0, 0, 1, 1]) + Data([0, 0, 0, 0, 0, 0, 0, 1]) + Data(count: 8) + Data([0, 0, 0, 0, 0, 0, 0, 10])

let broken: [(String, String, String, Data)] = [
    ("truncated.bplist", "binary", "binary plist cut in half", info.prefix(info.count / 2)),
    ("bad-offset.bplist", "binary", "offset table entry points past the objects", badOffset),
    ("cycle.bplist", "binary", "array that contains itself", cycle),
    ("unclosed.xml.plist", "xml", "XML element never closed", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>text\n</dict>\n</plist>\n".utf8)),
    ("unknown-tag.xml.plist", "xml", "XML with an element that is not a plist type", Data("<plist version=\"1.0\">\n<array>\n\t<float>1.5</float>\n</array>\n</plist>\n".utf8)),
    ("duplicate-key.xml.plist", "xml", "duplicate key (Apple keeps the last; lint reports it)", Data("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<true/>\n\t<key>a</key>\n\t<false/>\n</dict>\n</plist>\n".utf8)),
    ("trailing-comma.json", "json", "JSON with a trailing comma", Data("{\"a\": [1, 2,]}\n".utf8)),
    ("null.json", "json", "JSON null, which no property list holds", Data("{\n  \"a\": null\n}\n".utf8)),
    ("unterminated.strings", "openstep", "OpenStep string never closed", Data("\"key\" = \"value;\n".utf8)),
]
for (name, format, kind, data) in broken {
    if format != "json", (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) != nil,
       !name.hasPrefix("duplicate-key") {
        throw GeneratorError(description: "malformed/\(name): Foundation accepts it")
    }
    try emit("malformed/\(name)", data, format: format, kind: kind, expected: nil)
}

// MARK: Keyed archives (Archives.swift); their readings are checked by the archive dump goldens.

manifest += try ArchiveFixtures.write(into: root)
try Data(manifest.utf8).write(to: root.appendingPathComponent("MANIFEST.tsv"))
print("wrote \(written) files and their expected readings into \(root.path)")
