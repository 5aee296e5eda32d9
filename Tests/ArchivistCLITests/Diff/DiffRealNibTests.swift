import ArchivistTestSupport
import Foundation
import XCTest

/// `diff` walks real compiled nibs as object graphs, whose key views and
/// responders link everything to everything: each nib is equal to itself,
/// and a copy with one string changed differs at that string's key path.
extension CLITests {
    /// The compiled nibs (files, not nib folders) the real-world manifests list.
    private static func realNibs() throws -> [CorpusRow] {
        let rows = try CorpusManifest.rowsOrSkip(at: TestPaths.realWorld)
            + CorpusManifest.rows(at: TestPaths.realWorld.appendingPathComponent("beside"))
        return rows.filter { row in
            var folder: ObjCBool = false
            return row.path.hasSuffix(".nib") && FileManager.default.fileExists(atPath: row.file, isDirectory: &folder) && !folder.boolValue
        }
    }

    /// The printable ASCII runs of 6 bytes or more that occur once in `bytes`.
    private static func uniqueRuns(_ bytes: [UInt8]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for i in 0...bytes.count {
            let b = i < bytes.count ? bytes[i] : 0
            let printable = (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || b == 0x20
            if printable { if start == nil { start = i } } else {
                if let s = start, i - s >= 6 { runs.append(s..<i) }
                start = nil
            }
        }
        var seen: [ArraySlice<UInt8>: Int] = [:]
        for r in runs { seen[bytes[r], default: 0] += 1 }
        return runs.filter { seen[bytes[$0]] == 1 && !bytes[$0].starts(with: Array("NS".utf8)) && !bytes[$0].starts(with: Array("UI".utf8)) }
    }

    func testRealNibsDiffAsGraphs() throws {
        let nibs = try Self.realNibs()
        guard !nibs.isEmpty else { throw XCTSkip("no compiled nibs listed") }
        for nib in nibs {
            let same = try run(["diff", nib.file, nib.file])
            XCTAssertEqual(same.status, 0, "\(nib.path): \(same.stderr)")
            XCTAssertEqual(same.stdout, "", nib.path)
            // One string changed by a byte of the same width: the one change names its key path,
            // where get finds the old string in the nib and the new one in the copy.
            let bytes = [UInt8](try Data(contentsOf: nib.url))
            var named = false
            for run in Self.uniqueRuns(bytes).prefix(40) {
                var changed = bytes
                changed[run.upperBound - 1] = changed[run.upperBound - 1] == 0x71 ? 0x72 : 0x71
                let copy = work.appendingPathComponent("changed.nib")
                try Data(changed).write(to: copy)
                let diff = try self.run(["diff", nib.file, copy.path])
                let lines = diff.stdout.split(separator: "\n").map(String.init)
                guard diff.status == 1, lines.count == 1, lines[0].hasPrefix("~ "),
                      let colon = lines[0].range(of: ": string \"") else { continue }
                let path = String(lines[0][lines[0].index(lines[0].startIndex, offsetBy: 2)..<colon.lowerBound])
                let old = String(decoding: bytes[run], as: UTF8.self), new = String(decoding: changed[run], as: UTF8.self)
                XCTAssertTrue(lines[0].hasSuffix("\(old)\" -> string \"\(new)\"") || lines[0].contains(old), "\(nib.path): \(lines[0])")
                let before = try self.run(["get", nib.file, path]), after = try self.run(["get", copy.path, path])
                XCTAssertEqual(before.status, 0, "\(nib.path) \(path): \(before.stderr)")
                XCTAssertTrue(before.stdout.contains(old), "\(nib.path) \(path): \(before.stdout)")
                XCTAssertTrue(after.stdout.contains(new), "\(nib.path) \(path): \(after.stdout)")
                named = true
                break
            }
            XCTAssertTrue(named, "\(nib.path): no one-string change was named by its key path")
        }
    }
}
