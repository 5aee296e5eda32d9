#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A property list stored compactly: every node is 16 bytes in one array,
/// containers list their children as a range of a second array, and the text
/// of strings (UTF-8) and the bytes of data lie in one byte arena. Every reader
/// builds one without allocating per node, and it is freed in one step.
///
/// Navigate it through ``PlistNode``, starting at ``rootNode``: typed
/// accessors, subscripts by key and index and iteration, inlined into the
/// caller. A node may be the child of several containers (a binary plist's
/// shared objects stay shared, and the keys of a document are stored once
/// each), but a tree never contains itself. Strings become `String`s only
/// when asked for (``PlistNode/stringValue``).
///
/// `PlistTree` is read-only: edit a `PlistValue` (`value`, `init(_:)`), the
/// editable form, and convert back.
public struct PlistTree: Sendable {
    /// One node: a scalar's bits or where a string, data or container's
    /// contents start (`payload`), and the kind, flags and length or count
    /// (`header`: kind in bits 56-63, flags in 48-55, count in 0-47).
    @usableFromInline
    package struct Node: Sendable {
        @usableFromInline package var payload: UInt64
        @usableFromInline package var header: UInt64

        @inlinable @inline(__always)
        package init(_ kind: PlistKind, flags: UInt8 = 0, count: Int = 0, payload: UInt64) {
            self.payload = payload
            header = UInt64(kind.rawValue) << 56 | UInt64(flags) << 48 | UInt64(truncatingIfNeeded: count) & Node.countMask
        }

        @usableFromInline package static let countMask: UInt64 = (1 << 48) - 1

        @inlinable @inline(__always) package var kind: PlistKind { PlistKind(rawValue: UInt8(truncatingIfNeeded: header >> 56)) ?? .null }
        @inlinable @inline(__always) package var flags: UInt8 { UInt8(truncatingIfNeeded: header >> 48) }
        @inlinable @inline(__always) package var count: Int { Int(header & Node.countMask) }
        @inlinable @inline(__always) package var start: Int { Int(truncatingIfNeeded: payload) }
    }

    /// Flag of an integer above `Int64.max`.
    @usableFromInline package static let unsignedFlag: UInt8 = 1
    /// Flag of a real that was 32 bits wide.
    @usableFromInline package static let float32Flag: UInt8 = 1

    @usableFromInline package var nodes: [Node]
    /// Children of containers: an array's elements; a dictionary's key and
    /// value of each entry, side by side.
    @usableFromInline package var links: [UInt32]
    /// UTF-8 of strings and bytes of data.
    @usableFromInline package var bytes: [UInt8]
    /// The top node.
    @usableFromInline package let root: Int

    package init(nodes: [Node], links: [UInt32], bytes: [UInt8], root: Int) {
        self.nodes = nodes
        self.links = links
        self.bytes = bytes
        self.root = root
    }

    /// The number of nodes stored (shared nodes once).
    @inlinable public var nodeCount: Int { nodes.count }

    /// Bytes of memory the tree's three arrays use.
    public var storageSize: Int {
        nodes.capacity * MemoryLayout<Node>.stride + links.capacity * 4 + bytes.capacity
    }

    // MARK: - Reading nodes

    /// The kind of a node.
    @inlinable package func kind(of node: Int) -> PlistKind { nodes[node].kind }

    /// The number of elements of an array, entries of a dictionary, bytes
    /// of data or UTF-8 bytes of a string; 0 for other nodes.
    @inlinable package func count(of node: Int) -> Int {
        switch nodes[node].kind {
        case .array, .dictionary, .data, .string: return nodes[node].count
        case .integer, .real, .bool, .date, .uid, .null: return 0
        }
    }

    /// A string node's text.
    @inlinable package func string(at node: Int) -> String? {
        let n = nodes[node]
        guard n.kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[n.start..<(n.start + n.count)]), as: UTF8.self) }
    }

    /// True when a string node's UTF-8 equals `text`'s, without making a `String`.
    @usableFromInline package func string(at node: Int, equals text: String) -> Bool {
        let n = nodes[node]
        // The length first: most calls compare a key with another key's text.
        guard n.kind == .string, n.count == text.utf8.count else { return false }
        var text = text
        return text.withUTF8 { other in
            return bytes.withUnsafeBytes { stored in
                guard let a = stored.baseAddress, let b = other.baseAddress else { return other.isEmpty }
                return memcmp(a + n.start, b, n.count) == 0
            }
        }
    }

    /// A data node's bytes.
    @inlinable package func data(at node: Int) -> [UInt8]? {
        let n = nodes[node]
        guard n.kind == .data else { return nil }
        return Array(bytes[n.start..<(n.start + n.count)])
    }

    /// An integer node's value.
    @inlinable package func integer(at node: Int) -> PlistInteger? {
        let n = nodes[node]
        guard n.kind == .integer else { return nil }
        return n.flags & PlistTree.unsignedFlag != 0 ? PlistInteger(n.payload) : PlistInteger(Int64(bitPattern: n.payload))
    }

    /// A real node's value.
    @inlinable package func real(at node: Int) -> PlistReal? {
        let n = nodes[node]
        guard n.kind == .real else { return nil }
        return PlistReal(Double(bitPattern: n.payload), width: n.flags & PlistTree.float32Flag != 0 ? .bits32 : .bits64)
    }

    /// A boolean node's value.
    @inlinable package func bool(at node: Int) -> Bool? {
        let n = nodes[node]
        guard n.kind == .bool else { return nil }
        return n.payload != 0
    }

    /// A date node's value.
    @inlinable package func date(at node: Int) -> PlistDate? {
        let n = nodes[node]
        guard n.kind == .date else { return nil }
        return PlistDate(secondsSinceReferenceDate: Double(bitPattern: n.payload))
    }

    /// A UID node's value.
    @inlinable package func uid(at node: Int) -> UInt64? {
        let n = nodes[node]
        guard n.kind == .uid else { return nil }
        return n.payload
    }

    /// Element `i` of an array node.
    @inlinable package func element(_ i: Int, of node: Int) -> Int {
        let n = nodes[node]
        precondition(n.kind == .array && i >= 0 && i < n.count, "not an element of an array")
        return Int(links[n.start + i])
    }

    /// The key (a string node) and value of entry `i` of a dictionary node, in the order read.
    @inlinable package func entry(_ i: Int, of node: Int) -> (key: Int, value: Int) {
        let n = nodes[node]
        precondition(n.kind == .dictionary && i >= 0 && i < n.count, "not an entry of a dictionary")
        return (Int(links[n.start + 2 * i]), Int(links[n.start + 2 * i + 1]))
    }

    /// The node of `key`'s value in a dictionary node (keys compared by code
    /// points), when present. ``value(at:)`` is what converts a node to a
    /// ``PlistValue``; this only finds it.
    @inlinable package func node(forKey key: String, in dictionary: Int) -> Int? {
        let n = nodes[dictionary]
        guard n.kind == .dictionary else { return nil }
        for i in 0..<n.count where string(at: Int(links[n.start + 2 * i]), equals: key) {
            return Int(links[n.start + 2 * i + 1])
        }
        return nil
    }

    // MARK: - Raw access

    /// Calls `body` with a view of the tree's storage for writers and other
    /// hot loops: plain pointer reads, valid only inside `body`.
    package func withView<R>(_ body: (inout View) throws -> R) rethrows -> R {
        try nodes.withUnsafeBufferPointer { n in
            try links.withUnsafeBufferPointer { l in
                try bytes.withUnsafeBytes { b in
                    var view = View(nodes: n, links: l, bytes: b, rootNode: root)
                    return try body(&view)
                }
            }
        }
    }

    /// A tree's storage as pointers. Every node was checked when it was
    /// built, so nothing here throws and nothing is visited twice on a path.
    package struct View: PlistNodes {
        package let nodes: UnsafeBufferPointer<Node>
        package let links: UnsafeBufferPointer<UInt32>
        package let bytes: UnsafeRawBufferPointer
        package let rootNode: Int

        @inline(__always)
        package func slice(_ n: Node) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[n.start..<(n.start + n.count)])
        }

        @inline(__always)
        package func item(_ node: Int) -> PlistItem {
            let n = nodes[node]
            switch n.kind {
            case .string: return .string(TextBytes(slice(n), .utf8))
            case .data: return .data(slice(n))
            case .integer:
                return .integer(n.flags & PlistTree.unsignedFlag != 0 ? PlistInteger(n.payload) : PlistInteger(Int64(bitPattern: n.payload)))
            case .real:
                return .real(PlistReal(Double(bitPattern: n.payload), width: n.flags & PlistTree.float32Flag != 0 ? .bits32 : .bits64))
            case .bool: return .bool(n.payload != 0)
            case .date: return .date(PlistDate(secondsSinceReferenceDate: Double(bitPattern: n.payload)))
            case .uid: return .uid(n.payload)
            case .null: return .null
            case .array: return .array(count: n.count)
            case .dictionary: return .dictionary(count: n.count)
            }
        }

        @inline(__always)
        package func element(_ i: Int, of node: Int) -> Int { Int(links[nodes[node].start + i]) }

        @inline(__always)
        package func key(_ i: Int, of node: Int) -> Int { Int(links[nodes[node].start + 2 * i]) }

        @inline(__always)
        package func value(_ i: Int, of node: Int) -> Int { Int(links[nodes[node].start + 2 * i + 1]) }

        @inline(__always)
        package func enter(_ node: Int, depth: Int) {}

        @inline(__always)
        package func leave(_ node: Int) {}
    }
}
