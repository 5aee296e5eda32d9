import ArchivistCore
import Foundation
import XCTest

/// `convert --to codable-json`, `--suggest-rules` and `schema` on the built binary.
extension CLITests {
    func testCodableJSONFromTheCommandLine() throws {
        let computer = try run(["convert", corpus("archives/computer.plist"), "--to", "codable-json", "--rules", corpus("rules/music-box.json")])
        XCTAssertEqual(computer.status, 0, computer.stderr)
        XCTAssertEqual(computer.stdout, #"{"name":"Mac","cpu":{"clock":3200,"constant":7,"cores":[{"coreID":"A1B2","constant":1494},{"constant":1494,"coreID":"C3D4"}]}}"#)
        let coordinate = try run(["convert", corpus("archives/coordinate.plist"), "--to", "codable-json", "-o", "coordinate.json"])
        XCTAssertEqual(coordinate.status, 0, coordinate.stderr)
        XCTAssertEqual(contents("coordinate.json").map { String(decoding: $0, as: UTF8.self) }, #"{"longitude":2.2945,"latitude":48.8584}"#)
        let order = try run(["convert", corpus("archives/order-with-cart.plist"), "--to", "codable-json", "--rules", corpus("rules/shop.json"),
                             "--dates", "iso8601", "--output-dir", "out"])
        XCTAssertEqual(order.status, 0, order.stderr)
        XCTAssertEqual(contents("out/order-with-cart.json").map { String(decoding: $0, as: UTF8.self) },
                       #"{"cart":{"items":[{"sku":"A-1","quantity":2,"price":9.5},{"sku":"B-2","quantity":1,"price":120}],"updated":"2023-10-26T08:00:00Z"},"id":"o-17"}"#)

        let cycle = try run(["convert", corpus("archives/cycle.plist"), "--to", "codable-json", "-o", "cycle.json"])
        XCTAssertEqual(cycle.status, 1)
        XCTAssertEqual(cycle.stderr, "\(corpus("archives/cycle.plist")): $objects[1] (root.children.0.parent): error: root.children.0.parent refers back to root, a cycle JSON cannot hold (--cycles omit leaves such references out)\n")
        XCTAssertNil(contents("cycle.json"))
        let omitted = try run(["convert", corpus("archives/cycle.plist"), "--to", "codable-json", "--cycles", "omit"])
        XCTAssertEqual(omitted.stdout, #"{"children":[{"label":"child","children":[]}],"label":"parent"}"#)

        XCTAssertEqual(try run(["convert", corpus("archives/computer.plist"), "--to", "json", "--dates", "iso8601"]).status, 64,
                       "--dates goes with codable-json")
        let typo = try run(["convert", corpus("archives/computer.plist"), "--to", "codable-json", "--rules", make("typo.json", #"{"classes": {"MusicBox.Computr": {"renameTo": "X"}}}"#)])
        XCTAssertEqual(typo.status, 64)
        XCTAssertEqual(typo.stderr, "typo.json: error: classes.\"MusicBox.Computr\": class MusicBox.Computr occurs in none of the inputs (did you mean MusicBox.Computer?)\n")
    }

    func testSuggestRulesAndSchema() throws {
        let suggested = try run(["convert", corpus("archives/computer.plist"), corpus("archives/order-with-cart.plist"), "--to", "codable-json",
                                 "--suggest-rules", "-o", "rules.json"])
        XCTAssertEqual(suggested.status, 0, suggested.stderr)
        let rules = String(decoding: try XCTUnwrap(contents("rules.json")), as: UTF8.self)
        XCTAssertTrue(rules.contains(#""MusicBox.CPU.CPUCoder": {"#), rules)
        XCTAssertTrue(rules.contains(#""renameTo": "MusicBox.CPU""#), rules)
        XCTAssertTrue(rules.contains(#""unwrap": "payload""#), rules)
        // Nothing is proposed that changes nothing: no key renamed to itself
        // (`cores` and `coreID` are Swift names already), no class to its own name.
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rules.utf8)) as? [String: Any])
        let classes = try XCTUnwrap(parsed["classes"] as? [String: [String: Any]])
        for (name, rule) in classes {
            XCTAssertNotEqual(rule["renameTo"] as? String, name, rules)
            for (key, keyRule) in rule["keys"] as? [String: [String: Any]] ?? [:] {
                XCTAssertNotEqual(keyRule["renameTo"] as? String, key, "\(name).\(key) is renamed to itself")
            }
        }
        XCTAssertEqual((classes["MusicBox.Computer"]?["keys"] as? [String: Any])?.keys.sorted(), ["cpu_coder", "cpu_name"], rules)
        XCTAssertNil(classes["MusicBox.CPUCore"], "every key of CPUCore is a Swift name already: \(rules)")
        // The suggestion is a rules file the commands accept as it is.
        let converted = try run(["convert", corpus("archives/computer.plist"), corpus("archives/order-with-cart.plist"), "--to", "codable-json",
                                 "--rules", "rules.json", "--output-dir", "json"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let json = String(decoding: try XCTUnwrap(contents("json/computer.json")), as: UTF8.self)
        XCTAssertTrue(json.hasPrefix(#"{"cpuName":"Mac","cpuCoder":{"#), json)

        let schema = try run(["schema", corpus("archives/computer.plist"), "--rules", corpus("rules/music-box.json"), "--swift"])
        XCTAssertEqual(schema.status, 0, schema.stderr)
        XCTAssertTrue(schema.stdout.hasPrefix("import Foundation\n\nstruct Computer: Codable {\n    var name: String\n    var cpu: CPU\n}\n"), schema.stdout)
        let lines = try run(["schema", corpus("archives/coordinate.plist"), "--rules", corpus("rules/coordinate.json")])
        XCTAssertEqual(lines.stdout, "Coordinate.longitude: Double\nCoordinate.latitude: Double\n")
        let broken = try run(["schema", make("broken.plist", "<plist><dict><key>$archiver</key><string>NSKeyedArchiver</string></dict></plist>")])
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.hasPrefix("broken.plist: "), broken.stderr)
    }
}
