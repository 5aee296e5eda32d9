import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistArchive

/// Struct-wrapper archives become the JSON JSONEncoder writes for the structs:
/// JSONDecoder reads it into them with equal values.
final class CodableExportTests: XCTestCase {
    /// Exporting a document's compact tree gives what exporting its value
    /// gives, errors included, for every file of `Corpus/archives`.
    func testTreeAndValueExportAlike() throws {
        let folder = TestPaths.archives
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names {
            let document = try PropertyList.read([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
            let fromTree = Result { try CodableExport.value(document.tree) }
            let fromValue = Result { try CodableExport.value(converting: document.tree.value) }
            switch (fromTree, fromValue) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, name)
            case (.failure(let a), .failure(let b)): XCTAssertEqual("\(a)", "\(b)", name)
            default: XCTFail("\(name): \(fromTree) but \(fromValue)")
            }
        }
    }

    /// A long string Foundation archives once and refers to from many places
    /// is written at each; from the second time on its bytes count, and past
    /// `maxSharedBytes` the export is refused rather than made.
    func testRepeatedBytesOfASharedStringAreBounded() throws {
        let long = String(repeating: "long text ", count: 10_000)
        var options = CodableOptions()
        options.maxSharedBytes = 1_600_000
        func archive(_ count: Int) throws -> PlistValue {
            let data = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: Array(repeating: long as NSString, count: count)), requiringSecureCoding: false)
            return try PropertyList.read([UInt8](data)).tree.value
        }
        XCTAssertThrowsError(try CodableExport.value(converting: try archive(40), options: options)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
            XCTAssertTrue((error as? PlistError)?.message.contains("1600000 bytes") == true, "\(error)")
        }
        // Sixteen references repeat 1,500,000 bytes: within the bound.
        XCTAssertEqual(try CodableExport.value(converting: try archive(16), options: options), .array(Array(repeating: .string(long), count: 16)))
        XCTAssertEqual(CodableOptions().maxSharedBytes, Limits.default.maxSharedExpansion)
    }

    static let corpus = TestPaths.corpus

    func archive(_ name: String) throws -> PlistValue {
        try PropertyList.read([UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("archives/\(name)")))).tree.value
    }

    func rules(_ name: String) throws -> MigrationRules {
        try MigrationRules(bytes: [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("rules/\(name)"))))
    }

    func json(_ value: PlistValue, rules: MigrationRules = MigrationRules(), options: CodableOptions = CodableOptions()) throws -> Data {
        Data(try PropertyList.write(try CodableExport.value(converting: value, rules: rules, options: options), as: .json))
    }

    func text(_ value: PlistValue, rules: MigrationRules = MigrationRules(), options: CodableOptions = CodableOptions()) throws -> String {
        String(decoding: try json(value, rules: rules, options: options), as: UTF8.self)
    }

    // MARK: Scenario 2 through JSONDecoder

    func testComputerBecomesCodableJSON() throws {
        let data = try json(try archive("computer.plist"), rules: try rules("music-box.json"))
        XCTAssertEqual(try JSONDecoder().decode(Computer.self, from: data), ScenarioTwo.computer)
        // Without rules the wrapper's keys stay as archived.
        let raw = try text(try archive("computer.plist"))
        XCTAssertTrue(raw.hasPrefix(#"{"cpu_name":"Mac","cpu_coder":{"#), raw)
    }

    func testCoordinateAndWrappedPropertyListPayload() throws {
        let coordinate = try json(try archive("coordinate.plist"), rules: try rules("coordinate.json"))
        XCTAssertEqual(try JSONDecoder().decode(Coordinate.self, from: coordinate), ScenarioTwo.coordinate)
        let order = try json(try archive("order-with-cart.plist"), rules: try rules("shop.json"))
        XCTAssertEqual(try JSONDecoder().decode(Order.self, from: order), ScenarioTwo.order)
        // Every date strategy JSONDecoder has reads back the same date.
        let strategies: [(CodableOptions.DateStrategy, JSONDecoder.DateDecodingStrategy)] = [
            (.deferred, .deferredToDate), (.iso8601, .iso8601), (.seconds1970, .secondsSince1970), (.milliseconds1970, .millisecondsSince1970),
        ]
        for (ours, theirs) in strategies {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = theirs
            let data = try json(try archive("order-with-cart.plist"), rules: try rules("shop.json"), options: CodableOptions(dates: ours))
            XCTAssertEqual(try decoder.decode(Order.self, from: data), ScenarioTwo.order, "\(ours)")
        }
    }

    func testMixedArraysCarryTheirType() throws {
        let data = try json(try archive("drawing.plist"), rules: try rules("shapes.json"))
        XCTAssertEqual(try JSONDecoder().decode(Drawing.self, from: data), ScenarioTwo.drawing)
    }

    /// Archives written here by Foundation's NSKeyedArchiver: optionals left
    /// nil are left out, as encodeIfPresent does.
    func testFreshArchiveWithMissingOptional() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: CoordinateWrapper(latitude: 1.25, longitude: nil), requiringSecureCoding: false)
        let tree = try PropertyList.read([UInt8](data)).tree.value
        XCTAssertEqual(try text(tree), #"{"latitude":1.25}"#)
        struct Loose: Codable, Equatable { var latitude: Double?; var longitude: Double? }
        XCTAssertEqual(try JSONDecoder().decode(Loose.self, from: try json(tree)), Loose(latitude: 1.25, longitude: nil))
    }

    // MARK: Foundation values and shapes

    func testFoundationValueShapes() throws {
        let values = try archive("foundation-values.plist")
        let tree = try CodableExport.value(converting: values)
        guard case .dictionary(let d) = tree else { return XCTFail("\(tree)") }
        XCTAssertEqual(d["array"], .array([.string("shared string"), .string("shared string"), .int(42)]), "shared objects at every reference")
        XCTAssertEqual(d["uuid"], .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(d["url"], .string("https://example.com/a?b=c"))
        XCTAssertEqual(d["data"], .string("AQID"))
        XCTAssertEqual(d["date"], .double(700_000_000.25))
        XCTAssertEqual(d["null"], .null)
        XCTAssertEqual(d["bool"], .int(1), "Foundation on Linux archives NSNumber(value: true) as the integer 1")
        let classes = try CodableExport.value(converting: try archive("foundation-classes.plist"))
        guard case .dictionary(let c) = classes else { return XCTFail() }
        XCTAssertEqual(c["NSValue rect"], .array([.array([.double(0), .double(10)]), .array([.double(320), .double(240)])]))
        XCTAssertEqual(c["NSValue point"], .array([.double(1.5), .double(-2)]))
        XCTAssertEqual(c["NSValue range"], .array([.int(5), .int(12)]))
        XCTAssertEqual(c["NSLocale"], .dictionary(PlistDictionary([("identifier", .string("fr_CA"))])))
        XCTAssertEqual(c["NSTimeZone"], .dictionary(PlistDictionary([("identifier", .string("America/New_York"))])))
        XCTAssertEqual(c["NSURL relative"], .string("https://example.com/a/b/c.txt"))
    }

    func testDictionaryKeysAndFloats() throws {
        func node(_ cls: Int, _ fields: [(String, PlistValue)]) -> PlistValue {
            .dictionary(PlistDictionary(fields + [("$class", .uid(UInt64(cls)))]))
        }
        func cls(_ name: String) -> PlistValue {
            .dictionary(PlistDictionary([("$classname", .string(name)), ("$classes", .array([.string(name), .string("NSObject")]))]))
        }
        let tree = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))),
            ("$objects", .array([
                .string("$null"),
                node(8, [("ints", .uid(2)), ("mixed", .uid(3)), ("f", .real(PlistReal(float: 0.1)))]),
                node(9, [("NS.keys", .array([.uid(4), .uid(5)])), ("NS.objects", .array([.uid(6), .uid(6)]))]),
                node(9, [("NS.keys", .array([.uid(4), .uid(7)])), ("NS.objects", .array([.uid(6), .uid(6)]))]),
                .int(1), .int(2), .string("v"), .bool(true),
                cls("App.Thing"), cls("NSDictionary"),
            ])),
        ]))
        XCTAssertEqual(try text(tree), #"{"ints":{"1":"v","2":"v"},"mixed":[1,"v",true,"v"],"f":0.1}"#)
        struct Thing: Codable, Equatable { var ints: [Int: String]; var f: Float }
        XCTAssertEqual(try JSONDecoder().decode(Thing.self, from: try json(tree)), Thing(ints: [1: "v", 2: "v"], f: 0.1))
    }

    // MARK: Cycles and hostile graphs

    func testCyclesAreErrorsOrOmitted() throws {
        let cycle = try archive("cycle.plist")
        XCTAssertThrowsError(try CodableExport.value(converting: cycle)) { error in
            let e = error as? PlistError
            XCTAssertEqual(e?.kind, .cycle)
            XCTAssertEqual(e?.message, "root.children.0.parent refers back to root, a cycle JSON cannot hold")
            XCTAssertEqual(e?.reason, .referenceCycle, "the reason CodableOptions(cycles: .omit) answers; the message names no option")
        }
        XCTAssertEqual(try text(cycle, options: CodableOptions(cycles: .omit)), #"{"children":[{"label":"child","children":[]}],"label":"parent"}"#)
    }

    /// Every object refers twice to the next: written at every reference, the
    /// JSON would double with each level, so the value budget stops it.
    func testSharedReferenceBombIsBounded() throws {
        let n = 60
        var objects: [PlistValue] = [.string("$null")]
        for i in 1...n {
            let next: PlistValue = i == n ? .string("leaf") : .uid(UInt64(i + 1))
            let fields: [(String, PlistValue)] = i == n ? [("v", .int(1))] : [("a", next), ("b", next)]
            objects.append(.dictionary(PlistDictionary(fields + [("$class", .uid(UInt64(n + 1)))])))
        }
        objects.append(.dictionary(PlistDictionary([("$classname", .string("Bomb")), ("$classes", .array([.string("Bomb")]))])))
        let tree = PlistValue.dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary([("root", .uid(1))]))), ("$objects", .array(objects)),
        ]))
        XCTAssertThrowsError(try CodableExport.value(converting: tree, options: CodableOptions(maxValues: 100_000))) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
        }
    }

    func testUnwrapOfAMissingFieldIsLocated() throws {
        let rules = try MigrationRules(bytes: Array(#"{"classes": {"Shop.Cart.Box": {"unwrap": "contents"}}}"#.utf8))
        XCTAssertThrowsError(try CodableExport.value(converting: try archive("order-with-cart.plist"), rules: rules)) { error in
            XCTAssertEqual((error as? PlistError)?.message, #"Shop.Cart.Box has no field "contents" to unwrap (fields: payload)"#)
            XCTAssertEqual((error as? PlistError)?.location, .archive(object: 3, keyPath: "root.cart"))
        }
    }

    // MARK: Suggestions and schema

    func testSuggestedRulesAreValidRules() throws {
        var suggestion = RulesSuggestion()
        for name in ["computer.plist", "coordinate.plist", "order-with-cart.plist", "drawing.plist"] { suggestion.add(try PlistTree(try archive(name))) }
        let text = try suggestion.rulesJSON()
        let rules = try MigrationRules(bytes: Array(text.utf8))
        XCTAssertEqual(rules.rule(for: ClassName(archived: "_TtCV8MusicBox3CPU8CPUCoder"))?.renameTo, "MusicBox.CPU")
        XCTAssertEqual(rules.rule(for: ClassName(archived: "MusicBox.Computer"))?.key("cpu_name")?.renameTo, "cpuName")
        XCTAssertEqual(rules.rule(for: ClassName(archived: "Maps.EncodableCoordinate"))?.renameTo, "Maps.Coordinate")
        XCTAssertEqual(rules.codableRule(for: ClassName(archived: "Shop.Cart.Box"))?.unwrap, "payload")
        XCTAssertNil(rules.codableRule(for: ClassName(archived: "Shapes.Circle"))?.unwrap, "a number field is not a wrapped struct")
        XCTAssertEqual(rules.codable.typeKey, "type")
        XCTAssertTrue(text.contains(#""MusicBox.CPU.CPUCoder""#), "classes are listed by their readable names")
    }

    func testSchemaOfTheComputer() throws {
        let schema = try CodableSchema(try PlistTree(try archive("computer.plist")), rules: try rules("music-box.json"))
        XCTAssertEqual(schema.swift, """
            import Foundation

            struct Computer: Codable {
                var name: String
                var cpu: CPU
            }

            struct CPU: Codable {
                var clock: Int
                var constant: Int
                var cores: [CPUCore]
            }

            struct CPUCore: Codable {
                var coreID: String
                var constant: Int
            }

            """)
        let order = try CodableSchema(try PlistTree(try archive("order-with-cart.plist")), rules: try rules("shop.json"))
        XCTAssertEqual(order.types.map(\.name), ["Order", "Cart", "Item"])
        XCTAssertEqual(order.types[1].properties.map { "\($0.key): \($0.type.swift)" }, ["items: [Item]", "updated: Date"])
        let raw = try CodableSchema(try PlistTree(try archive("computer.plist")))
        XCTAssertTrue(raw.swift.contains("    var cpu_name: String\n"), raw.swift)
        XCTAssertTrue(raw.swift.contains("    var cpu_coder: CPUCoder\n"), raw.swift)
        // Keys that are not Swift names get camelCase properties and CodingKeys.
        let plain = try CodableSchema(try PlistTree(.dictionary(PlistDictionary([("first name", .string("Ada")), ("class", .int(1)), ("tags", .array([.string("a")]))]))))
        XCTAssertEqual(plain.swift, """
            import Foundation

            struct Root: Codable {
                var firstName: String
                var `class`: Int
                var tags: [String]

                enum CodingKeys: String, CodingKey {
                    case firstName = "first name"
                    case `class` = "class"
                    case tags
                }
            }

            """)
    }
}

/// EncodableCoordinate's wrapper as the scenario declares it: optionals
/// encoded as objects.
final class CoordinateWrapper: NSObject, NSCoding {
    let latitude: Double?, longitude: Double?
    init(latitude: Double?, longitude: Double?) { self.latitude = latitude; self.longitude = longitude }
    func encode(with coder: NSCoder) {
        coder.encode(latitude.map { NSNumber(value: $0) }, forKey: "latitude")
        coder.encode(longitude.map { NSNumber(value: $0) }, forKey: "longitude")
    }
    init?(coder: NSCoder) { nil }
}

extension CodableExport {
    /// The export of a value built in code: its tree, exported as a
    /// document's is.
    static func value(converting value: PlistValue, rules: MigrationRules = MigrationRules(),
                      options: CodableOptions = CodableOptions()) throws -> PlistValue {
        try Self.value(try PlistTree(value, limits: .writing), rules: rules, options: options)
    }
}
