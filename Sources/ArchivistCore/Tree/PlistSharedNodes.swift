/// The nodes of a tree that views show once and refer to after: a node
/// several containers share (a binary plist's shared object) that is a
/// non-empty container or a string or data of at least
/// `PlistTreeCopy.sharedFrom` bytes. Smaller shared values (numbers, short
/// strings) are shown in full at each use: each costs a view at most a few
/// times what the reference to it costs in the input, so a view stays within
/// a constant multiple of its input. Package API for `dump`.
package struct PlistSharedNodes {
    /// Uses of each node reached from the root, at most 2 (keys are not counted).
    private var uses: [UInt8]
    /// Whether any node is referable.
    package private(set) var any = false

    /// The shared nodes of `tree`: one walk of the containers reachable
    /// from the root, each walked once however often it is used.
    package init(_ tree: PlistTree) {
        uses = [UInt8](repeating: 0, count: tree.nodeCount)
        guard tree.root >= 0, tree.root < uses.count else { return }
        uses[tree.root] = 1
        var stack = [tree.root]
        var any = false
        tree.withView { view in
            func use(_ child: Int) {
                switch uses[child] {
                case 0:
                    uses[child] = 1
                    switch view.nodes[child].kind {
                    case .array, .dictionary: stack.append(child)
                    case .string, .data, .integer, .real, .bool, .date, .uid, .null: break
                    }
                case 1:
                    uses[child] = 2
                    if Self.referable(view.nodes[child]) { any = true }
                default: break
                }
            }
            while let n = stack.popLast() {
                let node = view.nodes[n]
                switch node.kind {
                case .array: for i in 0..<node.count { use(view.element(i, of: n)) }
                case .dictionary: for i in 0..<node.count { use(view.value(i, of: n)) }
                case .string, .data, .integer, .real, .bool, .date, .uid, .null: break
                }
            }
        }
        self.any = any
    }

    /// True when `node` is used more than once and large enough to be
    /// shown once and referred to after.
    @inline(__always)
    package func isReferable(_ node: Int, in tree: PlistTree) -> Bool {
        any && node >= 0 && node < uses.count && uses[node] > 1 && Self.referable(tree.nodes[node])
    }

    private static func referable(_ node: PlistTree.Node) -> Bool {
        switch node.kind {
        case .array, .dictionary: return node.count > 0
        case .string, .data: return node.count >= PlistTreeCopy.sharedFrom
        case .integer, .real, .bool, .date, .uid, .null: return false
        }
    }
}

extension Limits {
    /// The bytes of shared strings and data a view or export may repeat for
    /// an input that holds `inputBytes` bytes: 16 times the input, at least
    /// 4 MiB, and never more than `maxSharedExpansion`. A small file whose
    /// one long value is used from many places is refused before its
    /// repetitions are made, at a cost that grows with the file, not with
    /// its sharing.
    package func repeatBudget(forInput inputBytes: Int) -> Int {
        let (scaled, overflow) = max(inputBytes, 0).multipliedReportingOverflow(by: 16)
        return min(maxSharedExpansion, max(1 << 22, overflow ? .max : scaled))
    }
}

extension PlistTree {
    /// The size of what the tree was read from, as a budget counts it: its
    /// strings and data (shared ones once) and one byte per node.
    package var inputMeasure: Int { bytes.count + nodes.count }
}
