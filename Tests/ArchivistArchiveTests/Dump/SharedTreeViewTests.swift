import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// A container a tree shares (a binary plist's shared object) is shown once,
/// labelled, and referred to after, in text and JSON; empty containers and
/// short scalars are shown at each use.
final class SharedTreeViewTests: XCTestCase {
    func testASharedContainerIsShownOnce() throws {
        var b = PlistTreeBuilder()
        let inner = b.openArray()
        b.append(b.integer(PlistInteger(Int64(1))), to: inner)
        b.append(b.string("s"), to: inner)
        let shared = b.close(inner)
        let empty = b.close(b.openArray())
        let outer = b.openArray()
        for node in [shared, shared, empty, empty, shared] { b.append(node, to: outer) }
        let tree = try b.finish(root: b.close(outer))

        let sink = ByteSink()
        try TreeDumper.render(tree, into: sink)
        XCTAssertEqual(sink.text(), """
            [
              0 => @1 [
                0 => 1
                1 => "s"
              ]
              1 => -> @1
              2 => []
              3 => []
              4 => -> @1
            ]

            """)

        let out = ByteSink()
        var json = JSONStream(into: out)
        try json.view(of: tree, at: tree.root)
        json.finish()
        XCTAssertEqual(out.text(), """
            [
              [
                1,
                "s"
              ],
              {
                "$ref": "#/0"
              },
              [],
              [],
              {
                "$ref": "#/0"
              }
            ]

            """)
        // Written as a value (conversions), the container is repeated.
        let full = ByteSink()
        var plain = JSONStream(into: full)
        try plain.value(in: tree, at: tree.root)
        XCTAssertFalse(full.text().contains("$ref"))
    }
}
