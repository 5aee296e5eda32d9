/// One node of a ``PlistTree``, typed: the way to navigate a tree read from
/// a file without handling node numbers.
///
/// ```swift
/// let document = try PropertyList.read(bytes)
/// let top = document.tree.rootNode
/// let identifier = top["CFBundleIdentifier"]?.stringValue
/// let firstScheme = top["CFBundleURLTypes"]?[0]?["CFBundleURLSchemes"]?[0]?.stringValue
/// for (key, value) in top.entries { print(key, value.kind) }
/// ```
///
/// Every accessor answers `nil` (or an empty collection) where the node is
/// of another kind or an index is out of range: nothing traps on what a
/// file holds. Keys compare by code points, as CoreFoundation compares them.
/// A node keeps its tree alive; copying one copies no storage.
public struct PlistNode: Sendable {
    /// The tree the node belongs to.
    public let tree: PlistTree
    /// The node's number in `tree`, for the APIs that take node numbers.
    @usableFromInline package let index: Int

    /// The node numbered `index` in `tree`; `nil` when there is no such node.
    package init?(_ tree: PlistTree, index: Int) {
        guard index >= 0, index < tree.nodeCount else { return nil }
        self.tree = tree
        self.index = index
    }

    /// A node number known to be of `tree` (its root, a child of one of its
    /// nodes, a node a validated structure over it names).
    @inlinable package init(unchecked tree: PlistTree, _ index: Int) {
        self.tree = tree
        self.index = index
    }

    /// The node's kind.
    @inlinable public var kind: PlistKind { tree.kind(of: index) }

    /// Elements of an array, entries of a dictionary, bytes of data, UTF-8
    /// bytes of a string; 0 for other kinds.
    @inlinable public var count: Int { tree.count(of: index) }

    /// The string, when the node is a string.
    @inlinable public var stringValue: String? { tree.string(at: index) }
    /// The integer, when the node is an integer.
    @inlinable public var integerValue: PlistInteger? { tree.integer(at: index) }
    /// The real, when the node is a real.
    @inlinable public var realValue: PlistReal? { tree.real(at: index) }
    /// The boolean, when the node is a boolean.
    @inlinable public var boolValue: Bool? { tree.bool(at: index) }
    /// The date, when the node is a date.
    @inlinable public var dateValue: PlistDate? { tree.date(at: index) }
    /// The bytes, when the node is data.
    @inlinable public var dataValue: [UInt8]? { tree.data(at: index) }
    /// The `CF$UID` number, when the node is a UID.
    @inlinable public var uidValue: UInt64? { tree.uid(at: index) }

    /// The value of `key`, when the node is a dictionary that holds it.
    ///
    /// - Parameter key: The key, compared by code points.
    @inlinable public subscript(key: String) -> PlistNode? {
        tree.node(forKey: key, in: index).map { PlistNode(unchecked: tree, $0) }
    }

    /// Element `index` of an array; `nil` when the node is not an array or
    /// has no such element.
    ///
    /// - Parameter index: The element's position, from 0.
    @inlinable public subscript(index: Int) -> PlistNode? {
        guard kind == .array, index >= 0, index < count else { return nil }
        return PlistNode(unchecked: tree, tree.element(index, of: self.index))
    }

    /// An array's elements in order; empty for other kinds.
    @inlinable public var elements: Elements { Elements(node: self) }

    /// A dictionary's entries in the order read; empty for other kinds.
    @inlinable public var entries: Entries { Entries(node: self) }

    /// The node as an editable ``PlistValue`` (a copy of it and everything below).
    public var value: PlistValue { tree.value(at: index) }

    /// The elements of an array node.
    public struct Elements: RandomAccessCollection, Sendable {
        @usableFromInline let node: PlistNode

        @inlinable init(node: PlistNode) { self.node = node }
        /// 0.
        @inlinable public var startIndex: Int { 0 }
        /// The number of elements; 0 when the node is not an array.
        @inlinable public var endIndex: Int { node.kind == .array ? node.count : 0 }
        /// Element `position`.
        ///
        /// - Parameter position: A valid index of the collection.
        @inlinable public subscript(position: Int) -> PlistNode {
            PlistNode(unchecked: node.tree, node.tree.element(position, of: node.index))
        }
    }

    /// The entries of a dictionary node: each key's text and its value.
    public struct Entries: RandomAccessCollection, Sendable {
        @usableFromInline let node: PlistNode

        @inlinable init(node: PlistNode) { self.node = node }
        /// 0.
        @inlinable public var startIndex: Int { 0 }
        /// The number of entries; 0 when the node is not a dictionary.
        @inlinable public var endIndex: Int { node.kind == .dictionary ? node.count : 0 }
        /// Entry `position`.
        ///
        /// - Parameter position: A valid index of the collection.
        @inlinable public subscript(position: Int) -> (key: String, value: PlistNode) {
            let entry = node.tree.entry(position, of: node.index)
            return (node.tree.string(at: entry.key) ?? "", PlistNode(unchecked: node.tree, entry.value))
        }
    }
}

extension PlistTree {
    /// The top node, typed.
    @inlinable public var rootNode: PlistNode { PlistNode(unchecked: self, root) }
}
