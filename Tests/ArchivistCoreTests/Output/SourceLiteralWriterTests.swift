import XCTest
@testable import ArchivistCore

/// `SourceLiteralWriter`: the layout, escapes and refusals of Swift and
/// Objective-C literals (the CLI tests compile the Swift).
final class SourceLiteralWriterTests: XCTestCase {
    private func source(_ value: PlistValue, _ language: SourceLanguage, name: String = "v.plist",
                        keepKeyOrder: Bool = false) throws -> String {
        let bytes = try SourceLiteralWriter.write(PlistTree(value), language: language, name: name, origin: name,
                                                  options: WriteOptions(keepKeyOrder: keepKeyOrder))
        return String(decoding: bytes, as: UTF8.self)
    }

    func testSwiftStringEscapes() {
        XCTAssertEqual(SourceStringEscaping.swift("a\"b\\c\n\r\t\0\u{1}\u{7F}é\u{1F600}"),
                       #""a\"b\\c\n\r\t\0\u{1}\u{7F}\u{E9}\u{1F600}""#)
        XCTAssertEqual(SourceStringEscaping.swift(""), #""""#)
    }

    func testObjCStringEscapes() {
        XCTAssertEqual(SourceStringEscaping.objc("a\"b\\c\n\r\t\0\u{1}\u{7F}é\u{1F600}"),
                       #"@"a\"b\\c\n\r\t\000\001\177\u00E9\U0001F600""#)
        // No trigraph; C forbids \u0085, so its UTF-8 bytes are written.
        XCTAssertEqual(SourceStringEscaping.objc("??=?\u{85}"), #"@"?\?=?\302\205""#)
    }

    func testTopLevelScalarsAndNonFiniteReals() throws {
        XCTAssertEqual(try source(.string("x"), .swift), "/// Generated from v.plist\nlet v = \"x\"\n")
        XCTAssertEqual(try source(.string("x"), .objc),
                       "/// Generated from v.plist\n__attribute__((visibility(\"hidden\")))\nNSString * const v = @\"x\";\n")
        let reals = PlistValue.array([.real(PlistReal(.infinity)), .real(PlistReal(-.infinity)), .real(PlistReal(.nan))])
        XCTAssertTrue(try source(reals, .swift).contains("\tDouble.infinity,\n\t-Double.infinity,\n\tDouble.nan,\n]\n"))
        XCTAssertTrue(try source(reals, .objc).contains("\t@(INFINITY),\n\t@(-INFINITY),\n\t@(NAN),\n];\n"))
    }

    func testKeysSortedUnlessKeptAndMixedContainersTyped() throws {
        let value = PlistValue.dictionary(PlistDictionary([("b", .array([.int(1), .string("x")])), ("a", .array([.int(1), .int(2)]))]))
        XCTAssertEqual(try source(value, .swift, keepKeyOrder: true), """
            /// Generated from v.plist
            let v: [String: Any] = [
            \t"b" : [
            \t\t1,
            \t\t"x",
            \t] as [Any],
            \t"a" : [
            \t\t1,
            \t\t2,
            \t],
            ]

            """)
        XCTAssertTrue(try source(value, .swift).contains("[\n\t\"a\" : [\n"))
    }

    func testDatesDataAndUIDsAreRefusedWithTheirKeyPath() {
        let cases: [(PlistValue, String)] = [
            (.dictionary(PlistDictionary([("when", .date(PlistDate(secondsSinceReferenceDate: 0)))])), "the date at \"when\""),
            (.array([.string("x"), .data([1])]), "the data at \"[1]\""),
            (.uid(3), "the uid at the top level"),
        ]
        for (value, place) in cases {
            for language in SourceLanguage.allCases {
                XCTAssertThrowsError(try source(value, language)) { error in
                    let message = (error as? PlistError)?.message ?? ""
                    XCTAssertEqual((error as? PlistError)?.kind, .notRepresentable)
                    XCTAssertTrue(message.contains("\(place) cannot be written"), message)
                }
            }
        }
    }

    func testIdentifiers() {
        XCTAssertEqual(SourceLanguage.identifier(from: "dir/Info.plist"), "Info")
        XCTAssertEqual(SourceLanguage.identifier(from: "My Prefs-2.json"), "My_Prefs_2")
        XCTAssertEqual(SourceLanguage.identifier(from: "1st.plist"), "_1st")
        XCTAssertEqual(SourceLanguage.identifier(from: "class.plist"), "_class")
        XCTAssertEqual(SourceLanguage.identifier(from: "Café.plist"), "Caf_")
        XCTAssertEqual(SourceLanguage.identifier(from: ".plist"), "_plist")
        XCTAssertEqual(SourceLanguage.identifier(from: "-"), "plist")
    }
}
