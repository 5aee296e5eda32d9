import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// `SwiftCodegen` on hostile graphs and on the rules' inline settings; the
/// generated code is compiled and run against Foundation in the CLI tests.
final class SwiftCodegenTests: XCTestCase {
    func corpusTree(_ path: String) throws -> PlistTree {
        let url = TestPaths.corpus.appendingPathComponent("\(path)")
        return try PropertyList.read([UInt8](try Data(contentsOf: url))).tree
    }

    /// Properties are named in lower camel case, as Swift names properties:
    /// leading capitals lowered (all of them for an acronym, all but the one
    /// that starts the next word), keywords and NSObject's members avoided,
    /// names kept apart.
    func testPropertyNamesAreLowerCamelCase() {
        let keys = ["Title", "URLString", "ID", "Class", "Description", "title", "first name", "cpu_name"]
        XCTAssertEqual(SwiftNames.propertyNames(for: keys, avoiding: SwiftNames.objectMembers, lowerCamel: true),
                       ["title2", "urlString", "id", "Class", "descriptionField", "title", "firstName", "cpu_name"])
    }

    /// A key the rules keep inline is read with decodeFloat and written back
    /// inline; boxed keys go through NSNumber.
    func testInlineKeysFollowTheRules() throws {
        let rules = try MigrationRules(bytes: Array(#"{"classes": {"ScaryCreatures.ScaryCreatureData": {"keys": {"Rating": {"box": false}}}}}"#.utf8))
        var codegen = SwiftCodegen(rules: rules)
        try codegen.add(try corpusTree("archives/scary-creature-v1.plist"))
        let source = codegen.secureCodingSource
        XCTAssertTrue(source.contains(#"        self.rating = coder.decodeFloat(forKey: "Rating")"#), source)
        XCTAssertTrue(source.contains(#"        coder.encode(rating, forKey: "Rating")"#), source)
        var boxed = SwiftCodegen()
        try boxed.add(try corpusTree("archives/scary-creature-v1.plist"))
        XCTAssertTrue(boxed.secureCodingSource.contains(#"coder.decodeObject(of: NSNumber.self, forKey: "Rating")?.floatValue"#), boxed.secureCodingSource)
    }

    /// Scenario 3: the archive nested in a preferences file is found; a field
    /// only ever nil is optional.
    func testNestedArchivesAreIncluded() throws {
        var codegen = SwiftCodegen()
        try codegen.add(try corpusTree("archives/preferences-with-user.plist"))
        let source = codegen.secureCodingSource
        XCTAssertTrue(source.contains("final class User: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains("    var email: String? // only nulls seen: the type is a guess\n"), source)
        XCTAssertTrue(codegen.allowedClassesSource.contains("{ [User.self] }"), codegen.allowedClassesSource)
    }

    /// Containers shared along many paths and containers that contain
    /// themselves are read once: finite and fast.
    func testSharedAndSelfContainingContainersAreReadOnce() throws {
        var codegen = SwiftCodegen()
        XCTAssertNoThrow(try codegen.add(try corpusTree("hostile/fuzz-schema-shared-containers.plist")))
        let arrayClass = PlistValue.dictionary(PlistDictionary([("$classname", .string("NSArray")), ("$classes", .array([.string("NSArray"), .string("NSObject")]))]))
        let nodeClass = PlistValue.dictionary(PlistDictionary([("$classname", .string("Node")), ("$classes", .array([.string("Node"), .string("NSObject")]))]))
        let node = PlistValue.dictionary(PlistDictionary([("items", .uid(2)), ("$class", .uid(4))]))
        let array = PlistValue.dictionary(PlistDictionary([("NS.objects", .array([.uid(2), .uid(1)])), ("$class", .uid(3))]))
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array([.string("$null"), node, array, arrayClass, nodeClass])),
        ]))
        var looped = SwiftCodegen()
        try looped.add(try PlistTree(archive))
        XCTAssertTrue(looped.secureCodingSource.contains(#"coder.decodeObject(of: [NSArray.self, Node.self], forKey: "items") as? [Node]"#), looped.secureCodingSource)
    }

    /// 20,000 classes of one object each, in a chain: folding, the census and
    /// the source stay linear (the migration reports nothing: no primitives).
    func testManyClassesStayLinear() throws {
        let n = 20_000
        var objects: [PlistValue] = [.string("$null")]
        for i in 0..<n {
            let next: PlistValue = i + 1 < n ? .uid(UInt64(i + 2)) : .uid(0)
            objects.append(.dictionary(PlistDictionary([("next", next), ("$class", .uid(UInt64(n + 1 + i)))])))
        }
        for i in 0..<n {
            objects.append(.dictionary(PlistDictionary([("$classname", .string("C\(i)")), ("$classes", .array([.string("C\(i)"), .string("NSObject")]))])))
        }
        let archive = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        var codegen = SwiftCodegen()
        try codegen.add(try PlistTree(archive))
        let source = codegen.secureCodingSource
        XCTAssertTrue(source.contains("final class C19999: NSObject, NSSecureCoding {"))
        XCTAssertTrue(source.contains(#"        self.next = coder.containsValue(forKey: "next") ? coder.decodeObject(of: C1.self, forKey: "next") : nil"#))
        XCTAssertTrue(codegen.allowedClassesSource.contains("C19999.self]"))
    }

    func archive(className: String, fields: [(String, PlistValue)]) throws -> PlistTree {
        try PlistTree(ArchiveBuilder.archive(className: className, fields: fields, more: [.string("v")]))
    }

    /// A field that holds an object can hold nil in any archive, whatever the
    /// sample holds: it is optional unless the rules mark it required. A
    /// primitive that the archive held inline is never nil, boxed or not.
    func testObjectFieldsAreOptionalUnlessRequired() throws {
        let sample = try archive(className: "App.User", fields: [("name", .uid(3)), ("email", .uid(3)), ("age", .int(36))])
        let rules = MigrationRules(classes: [.init(name: "App.User", renameTo: "App2.User", keys: [.init(key: "name", required: true)])])
        var codegen = SwiftCodegen(rules: rules)
        try codegen.add(sample)
        let source = codegen.secureCodingSource
        XCTAssertTrue(source.contains("    var age: Int\n    var email: String?\n    var name: String\n")
                      || source.contains("    var name: String\n    var email: String?\n    var age: Int\n"), source)
        XCTAssertTrue(source.contains(#"        guard let name = coder.decodeObject(of: NSString.self, forKey: "name") as String? else { return nil }"#), source)
        XCTAssertTrue(source.contains(#"        self.email = coder.containsValue(forKey: "email") ? coder.decodeObject(of: NSString.self, forKey: "email") as String? : nil"#), source)
        XCTAssertTrue(source.contains(#"        guard let age = coder.decodeObject(of: NSNumber.self, forKey: "age")?.intValue else { return nil }"#), source)

        var plain = SwiftCodegen()
        try plain.add(sample)
        XCTAssertTrue(plain.secureCodingSource.contains("    var name: String?\n"), plain.secureCodingSource)

        let parsed = try MigrationRules(bytes: Array(#"{"classes": {"App.User": {"renameTo": "App2.User", "keys": {"name": {"required": true}}}}}"#.utf8))
        XCTAssertEqual(parsed, rules)
    }

    /// Class names and keys come from the archive: a name that is no Swift
    /// type is an error naming it, and keys reach the source only as
    /// identifiers and escaped string literals, never as code.
    func testHostileNamesCannotInjectCode() throws {
        var codegen = SwiftCodegen()
        XCTAssertThrowsError(try codegen.add(archive(className: "App.X {}\nfunc evil() {}\nclass Y", fields: []))) { error in
            XCTAssertEqual((error as? PlistError)?.message, #"class "App.X {}\nfunc evil() {}\nclass Y" is not a Swift type name; give it one with renameTo in the rules file"#)
            XCTAssertEqual((error as? PlistError)?.location, .archive(object: 1, keyPath: ""))
        }
        XCTAssertEqual(codegen.secureCodingSource, "import Foundation\n\n/// Maps the archived class names to these classes; call it once before decoding.\nfunc registerArchivedClassNames() {\n}\n",
                       "a failed input leaves nothing behind")
        XCTAssertThrowsError(try codegen.transformerSource(named: "T {}\nfunc evil()"))

        try codegen.add(archive(className: "App.Safe", fields: [("k\"\n}\nfunc evil() {", .uid(3)), ("description", .uid(3))]))
        let source = codegen.secureCodingSource
        XCTAssertFalse(source.contains("\nfunc evil"), source)
        XCTAssertTrue(source.contains(#"forKey: "k\"\n}\nfunc evil() {")"#), source)
        XCTAssertTrue(source.contains("    var descriptionField: String?\n"), source)

        let schema = try CodableSchema(archive(className: "App.X {}\nfunc evil() {}\nclass Y", fields: [("a\nfunc evil() {}", .uid(3))]))
        XCTAssertFalse(schema.swift.contains("\nfunc evil"), schema.swift)
        XCTAssertTrue(schema.swift.contains("struct XFuncEvilClassY: Codable {"), schema.swift)
    }

    /// A field holding a number in one archive and a string in another keeps
    /// the first type, says so in the source, and is listed in `warnings`.
    func testFieldsOfTwoTypesAreWarnedAbout() throws {
        var codegen = SwiftCodegen()
        try codegen.add(archive(className: "App.A", fields: [("x", .int(1))]))
        try codegen.add(archive(className: "App.A", fields: [("x", .uid(3))]))
        XCTAssertEqual(codegen.warnings, ["A.x: also holds String: the type is the first seen"])
        XCTAssertTrue(codegen.secureCodingSource.contains("    var x: Int // also holds String: the type is the first seen\n"), codegen.secureCodingSource)
    }

    /// Keys whose Swift names would collide get distinct properties, in
    /// `schema` as in the classes: the key that is a Swift name keeps it.
    func testPropertyNamesAreDistinct() throws {
        let schema = try CodableSchema(try PlistTree(.dictionary(PlistDictionary([("first name", .string("Ada")), ("firstName", .string("Grace"))]))))
        XCTAssertEqual(schema.swift, """
            import Foundation

            struct Root: Codable {
                var firstName2: String
                var firstName: String

                enum CodingKeys: String, CodingKey {
                    case firstName2 = "first name"
                    case firstName
                }
            }

            """)
    }
}
