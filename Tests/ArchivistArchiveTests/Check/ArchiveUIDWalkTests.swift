import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// The validator's UID walk finds the UIDs of an entry in field order, each
/// with its field steps, as a recursive walk does, and stops at the depth limit.
final class ArchiveUIDWalkTests: XCTestCase {
    /// The recursive walk the iterator replaced: UIDs and their steps as text.
    private func expected(_ node: Int, _ view: PlistTree.View, _ steps: [String] = [], depth: Int = 0) -> [String] {
        guard depth < ArchiveUIDWalk.maxDepth else { return [] }
        let n = view.nodes[node]
        switch n.kind {
        case .uid: return ["\(n.payload)@" + steps.joined(separator: ".")]
        case .array:
            return (0..<n.count).flatMap { i in expected(view.element(i, of: node), view, steps + ["\(i)"], depth: depth + 1) }
        case .dictionary:
            return (0..<n.count).flatMap { i -> [String] in
                let key = view.nodes[view.key(i, of: node)]
                let text = String(decoding: view.bytes[key.start..<(key.start + key.count)], as: UTF8.self)
                return expected(view.value(i, of: node), view, steps + [text], depth: depth + 1)
            }
        default: return []
        }
    }

    private func walked(_ node: Int, _ tree: PlistTree, _ view: PlistTree.View) -> [String] {
        var walk = ArchiveUIDWalk(view)
        walk.start(node)
        var out: [String] = []
        while let uid = walk.next() {
            let steps = TreeStep.fieldSteps(walk.steps, in: tree).map { step -> String in
                switch step {
                case .key(let k): return k
                case .index(let i): return String(i)
                }
            }
            out.append("\(uid)@" + steps.joined(separator: "."))
        }
        return out
    }

    func testWalkFindsEachUIDWithItsSteps() throws {
        var deep: PlistValue = .uid(99)
        for _ in 0..<520 { deep = .array([deep, .uid(7)]) }
        let entries: [PlistValue] = [
            .uid(3),
            .string("no UIDs"),
            .array([]),
            .dictionary(PlistDictionary([])),
            .dictionary(PlistDictionary([
                ("$class", .uid(1)), ("a", .int(1)), ("b", .uid(2)),
                ("list", .array([.uid(4), .string("x"), .array([.uid(5), .dictionary(PlistDictionary([("k", .uid(6))]))]), .array([])])),
                ("map", .dictionary(PlistDictionary([("empty", .dictionary(PlistDictionary([]))), ("z", .uid(8))]))),
                ("tail", .uid(9)),
            ])),
            deep,
        ]
        var limits = Limits()
        limits.maxDepth = 1_000
        let tree = try PlistTree(.array(entries), limits: limits)
        try tree.withView { view in
            var total = 0
            for i in 0..<tree.count(of: tree.root) {
                let node = tree.element(i, of: tree.root)
                let want = expected(node, view)
                XCTAssertEqual(walked(node, tree, view), want, "entry \(i)")
                total += want.count
            }
            // The deep entry: the UIDs of its first 511 levels, none below the limit.
            XCTAssertEqual(walked(tree.element(5, of: tree.root), tree, view).count, 511)
            XCTAssertEqual(total, 1 + 7 + 511)
        }
    }
}
