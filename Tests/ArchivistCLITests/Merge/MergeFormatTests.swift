import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// The merge driver on the other property lists of a repository: Info.plist
/// (XML and binary), entitlements, a string catalog, a stringsdict and a
/// UTF-16 `.strings` file, each edited by `archivist set` on two branches.
extension CLITests {
    /// A file, the key paths each side adds, and one key path both change.
    struct MergeCase {
        var name: String
        var source: URL
        var oursAdds: [String]
        var theirsAdds: [String]
        var conflict: String
        var edit: [String]
    }

    var mergeCases: [MergeCase] {
        let beside = TestPaths.realWorld.appendingPathComponent("beside")
        return [
            MergeCase(name: "Info.plist", source: TestPaths.corpus.appendingPathComponent("foundation/info-plist.xml.plist"),
                      oursAdds: ["NSCameraUsageDescription"], theirsAdds: ["NSMicrophoneUsageDescription"],
                      conflict: "CFBundleVersion", edit: ["--type", "string"]),
            MergeCase(name: "Binary/Info.plist", source: TestPaths.corpus.appendingPathComponent("foundation/info-plist.bplist"),
                      oursAdds: ["NSCameraUsageDescription"], theirsAdds: ["NSMicrophoneUsageDescription"],
                      conflict: "CFBundleVersion", edit: ["--type", "string"]),
            MergeCase(name: "Maccy.entitlements", source: beside.appendingPathComponent("maccy/Maccy/Maccy.entitlements"),
                      oursAdds: [#"com\.apple\.security\.network\.client"#], theirsAdds: [#"com\.apple\.security\.print"#],
                      conflict: #"com\.apple\.security\.files\.user-selected\.read-only"#, edit: ["--type", "string"]),
            MergeCase(name: "AccountStatsWindow.xcstrings",
                      source: beside.appendingPathComponent("netnewswire/Mac/AccountStats/mul.lproj/AccountStatsWindow.xcstrings"),
                      oursAdds: ["strings.OursNewKey"], theirsAdds: ["strings.TheirsNewKey"], conflict: "sourceLanguage", edit: ["--type", "string"]),
            MergeCase(name: "Localizable.stringsdict", source: beside.appendingPathComponent("netnewswire-2025/Widget/Resources/Localizable.stringsdict"),
                      oursAdds: ["UnreadCount.unread_count.two"], theirsAdds: ["StarredCount.starred_count.few"],
                      conflict: "UnreadCount.unread_count.one", edit: ["--type", "string"]),
            MergeCase(name: "en.lproj/Localizable.strings",
                      source: beside.appendingPathComponent("trash-it-app/Contents/Resources/en.lproj/Localizable.strings"),
                      oursAdds: ["OursNewKey"], theirsAdds: ["TheirsNewKey"], conflict: "Cancel", edit: []),
        ]
    }

    /// `archivist set` of each key path to `value` on a copy of `bytes`: the
    /// edited bytes (in the file's format). With no `type`, a UTF-16
    /// `.strings` file edited line by line, as Xcode and translators do.
    func edited(_ bytes: [UInt8], name: String, _ paths: [String], _ value: String, _ type: [String]) throws -> [UInt8] {
        if type.isEmpty {
            var lines = decodedText(bytes).components(separatedBy: "\n")
            for path in paths {
                let line = "\"\(path)\" = \"\(value)\";"
                if let i = lines.firstIndex(where: { $0.hasPrefix("\"\(path)\" = ") }) { lines[i] = line } else { lines.insert(line, at: 0) }
            }
            return [0xFF, 0xFE] + lines.joined(separator: "\n").utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        }
        let file = work.appendingPathComponent("edit-" + name.replacingOccurrences(of: "/", with: "-"))
        try Data(bytes).write(to: file)
        for path in paths {
            let r = try run(["set", file.lastPathComponent, path, value] + type)
            XCTAssertEqual(r.status, 0, "\(name) \(path): \(r.stderr)")
        }
        return [UInt8](try Data(contentsOf: file))
    }

    /// Text in the file's encoding (UTF-16 with its mark, or UTF-8).
    func decodedText(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xFE]) { return String(decoding: stride(from: 2, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }, as: UTF16.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each side adds a key: git merges them with the driver, the result has
    /// both and keeps the file's format (binary stays binary, UTF-16 stays
    /// UTF-16, a .strings file stays a .strings file) and Foundation reads it.
    func testGitMergesEachKindOfPropertyList() throws {
        for c in mergeCases {
            guard FileManager.default.fileExists(atPath: c.source.path) else { throw XCTSkip("\(c.source.path) is not here") }
            let base = [UInt8](try Data(contentsOf: c.source))
            let ours = try edited(base, name: "ours-" + c.name, c.oursAdds, "ours", c.edit)
            let theirs = try edited(base, name: "theirs-" + c.name, c.theirsAdds, "theirs", c.edit)
            let repo = try GitRepository(in: work.appendingPathComponent("clean-" + c.name.replacingOccurrences(of: "/", with: "-")))
            try repo.useMergeDriver(for: ["*.plist", "*.entitlements", "*.xcstrings", "*.strings", "*.stringsdict"])
            let merged = try repo.mergeBranches(base: [c.name: base], ours: [c.name: ours], theirs: [c.name: theirs])
            XCTAssertEqual(merged.status, 0, "\(c.name): \(merged.output)")
            let result = try repo.read(c.name)
            if c.name.hasSuffix(".xcstrings") {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result)), c.name)
            } else {
                XCTAssertNoThrow(try PropertyListSerialization.propertyList(from: Data(result), options: [], format: nil), c.name)
            }
            let document = try PropertyList.read(result), oursDocument = try PropertyList.read(ours)
            XCTAssertEqual(document.format, oursDocument.format, c.name)
            XCTAssertEqual(result.starts(with: [0xFF, 0xFE]), base.starts(with: [0xFF, 0xFE]), "\(c.name): the encoding kept")
            if c.name.hasSuffix(".strings") { XCTAssertFalse(decodedText(result).hasPrefix("{"), "\(c.name): still a strings file") }
            let value = document.tree.value
            for (path, side) in c.oursAdds.map({ ($0, "ours") }) + c.theirsAdds.map({ ($0, "theirs") }) {
                let steps = path.replacingOccurrences(of: #"\."#, with: "\u{0}").split(separator: ".").map { $0.replacingOccurrences(of: "\u{0}", with: ".") }
                var v: PlistValue? = value
                for step in steps { v = v?[step] }
                XCTAssertEqual(v, .string(side), "\(c.name): \(path)")
            }
        }
    }

    /// Both sides change one key differently: git reports a conflict on the
    /// file; a text file holds one marker block there, naming the key path;
    /// a binary one holds OURS' value.
    func testGitReportsAConflictInEachKindOfPropertyList() throws {
        for c in mergeCases {
            guard FileManager.default.fileExists(atPath: c.source.path) else { throw XCTSkip("\(c.source.path) is not here") }
            let base = [UInt8](try Data(contentsOf: c.source))
            let ours = try edited(try edited(base, name: "ours-" + c.name, [c.conflict], "ours-value", c.edit), name: "ours-" + c.name, c.oursAdds, "ours", c.edit)
            let theirs = try edited(base, name: "theirs-" + c.name, [c.conflict], "theirs-value", c.edit)
            let repo = try GitRepository(in: work.appendingPathComponent("conflict-" + c.name.replacingOccurrences(of: "/", with: "-")))
            try repo.useMergeDriver(for: ["*.plist", "*.entitlements", "*.xcstrings", "*.strings", "*.stringsdict"])
            let merged = try repo.mergeBranches(base: [c.name: base], ours: [c.name: ours], theirs: [c.name: theirs])
            XCTAssertEqual(merged.status, 1, c.name)
            XCTAssertTrue(merged.output.contains("\(c.name): conflict: \(c.conflict): both sides changed it, differently"), merged.output)
            XCTAssertEqual(try repo.unmerged(), [c.name])
            let result = try repo.read(c.name)
            if result.starts(with: Array("bplist00".utf8)) {
                XCTAssertEqual(try PropertyList.read(result).tree.value[c.conflict], .string("ours-value"))
                continue
            }
            let lines = decodedText(result).components(separatedBy: "\n")
            let starts = lines.indices.filter { lines[$0].hasPrefix("<<<<<<< ") }
            XCTAssertEqual(starts.count, 1, c.name)
            let start = try XCTUnwrap(starts.first)
            XCTAssertEqual(lines[start], "<<<<<<< ours: \(c.conflict)", c.name)
            let block = lines[start...].prefix { !$0.hasPrefix(">>>>>>> ") }
            XCTAssertTrue(block.contains { $0.contains("ours-value") } && block.contains { $0.contains("theirs-value") }, "\(c.name): \(block)")
            XCTAssertEqual(lines.filter { $0.contains("\"ours\"") || $0.contains(">ours<") || $0.contains("= ours;") }.count, 1,
                           "\(c.name): OURS' other change is merged, outside the block")
        }
    }
}
