import Foundation
import XCTest

/// `archivist codegen --upgrade`: what it refuses, before writing anything.
extension CLITests {
    func testUpgradeRefusesWhatItCannotGenerate() throws {
        try copyCorpus("archives/scary-creature-v1.plist", to: "Data.plist")
        try copyCorpus("rules/scary-creatures.json", to: "rules.json")
        for args in [["--upgrade", "--secure-coding"], ["--upgrade", "--allowed-classes"], ["--upgrade", "--codable", "--transformer", "T"], ["--upgrade", "--encoding", "json"],
                     ["--codable", "--encoding", "binary"], ["--upgrade", "--codable", "--encoding", "yaml"]] {
            let refused = try run(["codegen", "Data.plist", "--rules", "rules.json"] + args + ["-o", "Upgrade.swift"])
            XCTAssertEqual(refused.status, 64, "\(args): \(refused.stderr)")
        }

        // An archive whose root is an array: nothing to map it to.
        let boxes = NSArray(array: [TitleBox(title: "a"), TitleBox(title: "b")])
        try NSKeyedArchiver.archivedData(withRootObject: boxes, requiringSecureCoding: false).write(to: work.appendingPathComponent("list.plist"))
        let list = try run(["codegen", "list.plist", "--upgrade", "-o", "Upgrade.swift"])
        XCTAssertEqual(list.status, 1)
        XCTAssertEqual(list.stderr, #"error: an archive's root object is "NSArray"; --upgrade upgrades archives whose root is one of the app's classes"# + "\n")

        // Rules that unwrap a class, and a struct that contains itself, have no Codable upgrade.
        try copyCorpus("archives/order-with-cart.plist", to: "order.plist")
        try copyCorpus("rules/shop.json", to: "shop.json")
        let unwrap = try run(["codegen", "order.plist", "--rules", "shop.json", "--upgrade", "--codable", "-o", "Upgrade.swift"])
        XCTAssertEqual(unwrap.status, 1)
        XCTAssertEqual(unwrap.stderr, #"error: class "Cart.Box" is unwrapped by the rules; --upgrade --codable converts classes into structs of their own"# + "\n")
        try copyCorpus("archives/cycle.plist", to: "tree.plist")
        let tree = try run(["codegen", "tree.plist", "--upgrade", "--codable", "-o", "Upgrade.swift"])
        XCTAssertEqual(tree.status, 1)
        XCTAssertEqual(tree.stderr, #"error: struct "Node" contains itself; --upgrade --codable converts structs that do not"# + "\n")
        XCTAssertNil(contents("Upgrade.swift"), "nothing is written")

        // The same inputs without --codable: an archive with nothing to change still gets its upgrade.
        let plain = try run(["codegen", "tree.plist", "--upgrade", "-o", "Upgrade.swift"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let source = String(decoding: try XCTUnwrap(contents("Upgrade.swift")), as: UTF8.self)
        XCTAssertFalse(source.contains("Version1: NSObject"), "no class changes shape: \(source)")
        XCTAssertTrue(source.contains("        (\"Tree.Node\", Node.self),\n"), source)
    }
}
