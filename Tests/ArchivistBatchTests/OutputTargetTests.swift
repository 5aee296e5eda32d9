@testable import ArchivistBatch
import ArchivistCore
import XCTest

/// Where a result lands in an output folder: the byte-level builder gives
/// what the path arithmetic it replaced gave (kept here as the reference).
final class OutputTargetTests: XCTestCase {
    /// The former String-based arithmetic, kept as the oracle.
    private func reference(_ dir: String, _ item: BatchItem, _ format: PlistFormat?) -> String {
        let slash = UInt8(ascii: "/")
        let path = item.relative ?? (item.source == "-" ? "stdin" : item.source.utf8.split(separator: slash).last.map { String(Substring($0)) } ?? "output")
        let parts = path.utf8.split(separator: slash)
        let name = parts.last.map { String(Substring($0)) } ?? "output"
        let subfolders = parts.dropLast().filter { !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8) }.map { Substring($0) + "/" }.joined()
        let folder = (dir.hasSuffix("/") ? dir : dir + "/") + subfolders
        guard let format else { return folder + name }
        let stem = name.utf8.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 == name.startIndex ? nil : name[..<$0] }.map(String.init) ?? name
        return folder + stem + "." + OutputTarget.fileExtension(for: format)
    }

    func testFolderDestinationsMatchTheReference() {
        let dirs = ["out", "out/", "/tmp/o u t//", "ünï"]
        let named = ["a.plist", "/abs/path/b.bplist", "c", ".hidden", "x.", "d/", "/", "//", "-", "dir/.e.json", "ü/é.strings", "a.b.c"]
        let found: [(String, String)] = [
            ("root/sub/f.plist", "sub/f.plist"), ("root/./x/../y.json", "./x/../y.json"), ("r/a//b/c.d", "a//b/c.d"),
            ("r/..", ".."), ("r/.../z", ".../z"), ("r/.git/k", ".git/k"), ("elsewhere/name", "link/name"), ("r/ü/ä.plist", "ü/ä.plist"),
        ]
        var items = named.map { BatchItem(source: $0) }
        items += found.map { BatchItem(source: $0.0, relative: $0.1) }
        for dir in dirs {
            for item in items {
                for format in [nil] + PlistFormat.allCases.map(Optional.some) {
                    XCTAssertEqual(OutputTarget.directory(dir).destination(for: item, format: format), reference(dir, item, format),
                                   "\(dir) \(item.source) \(item.relative ?? "-") \(String(describing: format))")
                }
            }
        }
    }
}
