import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Issue 35's rule, checked on the sources: no feature outside the catalogue
/// switches over or compares a class name; it asks `ClassCatalogue` (the
/// class's `ClassDescription`) and switches over the shapes. A class-name
/// literal (`"NSArray"`, `"NSMutableDictionary"`, `"CKRecordID"`) in a
/// `case`, `==`, `!=`, `hasPrefix`/`hasSuffix`/`contains`, a set or
/// dictionary literal of names, or a `ClassName(archived:)` fails this test
/// unless the exemptions below say why it stays.
final class ClassNameLiteralTests: XCTestCase {
    /// Literals that look like class names but are format constants, each
    /// with the reason it stays: a file path suffix (or "*" for any file),
    /// the literal, and why.
    static let exemptions: [(file: String, literal: String, why: String)] = [
        ("*", "NSKeyedArchiver", "the `$archiver` value of a keyed archive: a format constant, not an archived class"),
        ("*", "NSArchiver", "the `$archiver` value a typedstream is read in as (`readFrom`): a format constant, not an archived class"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSArray",
         "the NIB reader's format table of the classes whose members NIBArchive keeps under `UINibEncoderEmptyKey`; "
             + "ArchivistNIB sits below ArchivistArchive and cannot see the catalogue"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSMutableArray", "as NSArray: the NIB reader's format table"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSSet", "as NSArray: the NIB reader's format table"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSMutableSet", "as NSArray: the NIB reader's format table"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSOrderedSet", "as NSArray: the NIB reader's format table"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSMutableOrderedSet", "as NSArray: the NIB reader's format table"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSDictionary", "the NIB reader's format table of key/value classes (as NSArray)"),
        ("Sources/ArchivistNIB/NIBArchive.swift", "NSMutableDictionary", "the NIB reader's format table of key/value classes (as NSArray)"),
    ]

    /// A class-name literal: `NS`, `CK` or `UI` and a capital, or a private `__NS` class.
    static let name = #""((?:NS|CK|UI|__NS)[A-Z][A-Za-z]*)""#

    /// The places a literal is used as a case or a comparison: every
    /// class-name literal inside a match is one.
    static let uses: [String] = [
        #"\bcase\s+"[^\n]*?:"#, // case "A", "B":
        #"[=!]=\s*"[^"\n]*""#, // == "A", != "A"
        #""[^"\n]*"\s*[=!]="#, // "A" == x
        #"\b(?:hasPrefix|hasSuffix|contains|starts\(with:)\(\s*"[^"\n]*""#, // hasPrefix("A")
        #"\bSet<String>\s*=\s*\[[^\]\n]*\]?"#, // Set<String> = ["A", ...]
        #"\bClassName\(archived:\s*"[^"\n]*""#, // ClassName(archived: "A")
        #"\bclassChain:\s*\[[^\]\n]*\]?"#, // classChain: ["A", ...]
        #"^\s*\[?\s*"[^"\n]*"\s*:\s*"[^"\n]*"\s*,"#, // a dictionary literal keyed by names: "NSString": "String",
    ]

    /// The field keys the catalogue declares (`NSAttributes`, `NSRGB`): keys,
    /// not classes, when no class has the name.
    static let fieldKeys: Set<String> = Set(ClassCatalogue.all.flatMap(\.fields).map(\.key)).subtracting(ClassCatalogue.byName.keys)

    /// The class-name literals a line uses as a case or a comparison.
    static func comparedNames(in line: String) -> [String] {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return [] }
        guard let literal = try? NSRegularExpression(pattern: name) else { return [] }
        var out: [String] = []
        for use in uses {
            guard let pattern = try? NSRegularExpression(pattern: use) else { continue }
            for match in pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                for inner in literal.matches(in: line, range: match.range) {
                    guard let r = Range(inner.range(at: 1), in: line) else { continue }
                    let found = String(line[r])
                    if !fieldKeys.contains(found), !out.contains(found) { out.append(found) }
                }
            }
        }
        return out
    }

    func testNoClassNameIsComparedOutsideTheCatalogue() throws {
        for use in Self.uses + [Self.name] {
            XCTAssertNoThrow(try NSRegularExpression(pattern: use), use)
        }
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let catalogue = "Sources/ArchivistArchive/Catalogue/"
        var found: [String] = []
        var usedExemptions = Set<String>()
        var files = 0
        let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = walk?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = "Sources/" + url.path.dropFirst(sources.path.count + 1)
            guard !path.hasPrefix(catalogue) else { continue }
            files += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for literal in Self.comparedNames(in: String(line)) {
                    if let e = Self.exemptions.first(where: { ($0.file == "*" || $0.file == path) && $0.literal == literal }) {
                        usedExemptions.insert(e.file + " " + e.literal)
                        continue
                    }
                    found.append("\(path):\(n + 1): \"\(literal)\" in `\(line.trimmingCharacters(in: .whitespaces))`")
                }
            }
        }
        XCTAssertGreaterThan(files, 100, "the sources were found")
        XCTAssertEqual(found, [], "ask ClassCatalogue (the class's ClassDescription) instead of naming the class")
        // An exemption nothing needs any more goes.
        for e in Self.exemptions where !usedExemptions.contains(e.file + " " + e.literal) {
            XCTFail("exemption \(e.file) \"\(e.literal)\" is no longer needed")
        }
    }

    /// The patterns catch each form the rule forbids, and pass over keys,
    /// output text and comments (a test that can fail).
    func testThePatternsCatchEachForm() {
        let forbidden: [(String, [String])] = [
            (#"case "NSString", "NSMutableString":"#, ["NSString", "NSMutableString"]), (#"if name == "NSURL" {"#, ["NSURL"]),
            (#"guard "NSDate" != name"#, ["NSDate"]), (#"name.hasPrefix("NSUnit")"#, ["NSUnit"]),
            (#"static let lists: Set<String> = ["NSArray", "NSSet"]"#, ["NSArray", "NSSet"]),
            (#"ClassName(archived: "NSDate")"#, ["NSDate"]), (#"classChain: ["NSDate", "NSObject"]"#, ["NSDate", "NSObject"]),
            (#"    "NSString": "String", "NSData": "Data","#, ["NSString"]), (#"case "CKRecordID":"#, ["CKRecordID"]),
            (#"o.className.archived == "NSColorSpace""#, ["NSColorSpace"]),
        ]
        for (line, names) in forbidden { XCTAssertEqual(Self.comparedNames(in: line), names, line) }
        let allowed = [#"out += "NSNull""#, #"o["NSString"]"#, #"case .nsRange: return "NSRange""#, #"// case "NSArray":"#,
                       #"if k == "NSAttributes" {"#, #"let fields: Set<String> = ["NSRGB", "NSWhite"]"#]
        for line in allowed { XCTAssertEqual(Self.comparedNames(in: line), [], line) }
    }

    /// Every plain value has the one class that stands for it, which the
    /// encoder, the editor and generated code use.
    func testEveryPlainValueHasOneClass() {
        for kind in ArchivedValueKind.allCases {
            let classes = ClassCatalogue.all.filter { $0.standsFor == kind }
            XCTAssertEqual(classes.count, 1, "\(kind): \(classes.map(\.name))")
        }
    }
}
