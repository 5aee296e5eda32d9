import Foundation
import XCTest

/// A custom class with an inline integer, as plain NSCoding writes it.
final class Gadget: NSObject, NSCoding {
    let name: String, level: Int
    init(name: String, level: Int) { self.name = name; self.level = level }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(level, forKey: "level")
    }
    init?(coder: NSCoder) { nil }
}

/// Every key path a message prints is one `get` takes.
extension CLITests {
    /// The key paths of `$objects[N] (PATH): error:` lines.
    func printedKeyPaths(_ text: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"\$objects\[\d+\] \((.*)\): error: "#)
        return text.split(separator: "\n").compactMap { line in
            let line = String(line)
            guard let m = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let r = Range(m.range(at: 1), in: line) else { return nil }
            return String(line[r])
        }
    }

    func testKeyPathsInMessagesAreOnesGetTakes() throws {
        // Gadgets in an NSArray, in an NSDictionary under a key with a dot.
        let root: NSDictionary = [
            "shelf.top": NSArray(array: [Gadget(name: "a", level: 1), Gadget(name: "b", level: 2)]),
            "single": Gadget(name: "c", level: 3),
        ]
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("gadgets.plist").path, contents: data))
        try copyCorpus("archives/preferences-with-user.plist", to: "prefs.plist")
        try copyCorpus("archives/computer.plist", to: "computer.plist")

        // An archive in data under a key with a dot, as preferences hold them.
        let holder = try PropertyListSerialization.data(fromPropertyList: ["user.data": try NSKeyedArchiver.archivedData(withRootObject: Gadget(name: "d", level: 4), requiringSecureCoding: false)],
                                                        format: .binary, options: 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("holder.plist").path, contents: holder))
        let info = try run(["info", "holder.plist"])
        XCTAssertTrue(info.stdout.contains(#"nested archive at user\.data: "#), info.stdout)

        let lint = try run(["lint", "--secure", "gadgets.plist", "prefs.plist", "computer.plist", "holder.plist"])
        XCTAssertEqual(lint.status, 1)
        var checked: [(file: String, path: String)] = []
        for line in lint.stdout.split(separator: "\n") {
            let file = String(line.prefix { $0 != ":" })
            for path in try printedKeyPaths(String(line)) { checked.append((file, path)) }
        }
        let paths = checked.map(\.path)
        XCTAssertTrue(paths.contains(#"root.shelf\.top.1.level"#), "\(paths)")
        XCTAssertTrue(paths.contains("root.single.level"), "\(paths)")
        XCTAssertTrue(paths.contains("currentUser.root.age"), "\(paths)")
        XCTAssertTrue(paths.contains("root.cpu_coder.cores.0.constant"), "\(paths)")
        XCTAssertTrue(paths.contains(#"user\.data.root.level"#), "\(paths)")

        // migrate refuses what a secure decoder would still reject, naming the same places.
        let refused = try run(["migrate", "prefs.plist", "gadgets.plist", "--rules", make("keep.json", #"{"boxPrimitives": false}"#), "--output-dir", "out"])
        XCTAssertEqual(refused.status, 1)
        var migratePaths = 0
        for line in refused.stderr.split(separator: "\n") {
            let file = String(line.prefix { $0 != ":" })
            for path in try printedKeyPaths(String(line)) {
                checked.append((file, path))
                migratePaths += 1
            }
        }
        XCTAssertGreaterThan(migratePaths, 3, refused.stderr)

        for (file, path) in checked {
            let get = try run(["get", file, path])
            XCTAssertEqual(get.status, 0, "get \(file) \(path): \(get.stderr)")
        }
    }
}
