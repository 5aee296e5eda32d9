/// Text as a node source stores it: UTF-8 in a `PlistTree`, and in a binary
/// property list read in place ASCII/Latin-1 (one byte per character) or
/// UTF-16 big-endian. Valid only while the source's buffer is.
package struct TextBytes {
    /// How the bytes encode the text.
    package enum Encoding {
        /// UTF-8, already validated.
        case utf8
        /// One byte per character, U+0000...U+00FF (a binary plist's `0x5X` string).
        case latin1
        /// UTF-16 code units, big-endian (a binary plist's `0x6X` string).
        case utf16BE
    }

    /// The encoded text.
    package var bytes: UnsafeRawBufferPointer
    /// Its encoding.
    package var encoding: Encoding

    package init(_ bytes: UnsafeRawBufferPointer, _ encoding: Encoding) {
        self.bytes = bytes
        self.encoding = encoding
    }
}

/// One node as a writer sees it: a scalar with its value (text and bytes by
/// reference into the source), or a container with its size.
package enum PlistItem {
    case string(TextBytes)
    case data(UnsafeRawBufferPointer)
    case integer(PlistInteger)
    case real(PlistReal)
    case bool(Bool)
    case date(PlistDate)
    case uid(UInt64)
    case null
    case array(count: Int)
    case dictionary(count: Int)
}

/// Read access to a property list by node number, for the writers: a
/// `PlistTree` (every node already checked) and a binary property list read in
/// place (each node checked as it is visited, so reads may throw). Writers are
/// generic over it and specialised for each source: no existentials, no
/// per-node allocation.
///
/// A writer visits a container between `enter` and `leave`; a source that can
/// hold cycles refuses to enter a container that is already open.
package protocol PlistNodes {
    /// True when no dictionary holds a key twice (a `PlistTree`); writers then
    /// skip looking for repeated keys.
    static var keysAreUnique: Bool { get }
    /// The top node.
    var rootNode: Int { get }
    /// What `node` is.
    mutating func item(_ node: Int) throws -> PlistItem
    /// Element `i` of an array node.
    mutating func element(_ i: Int, of node: Int) throws -> Int
    /// The key (a string node) of entry `i` of a dictionary node.
    mutating func key(_ i: Int, of node: Int) throws -> Int
    /// The value of entry `i` of a dictionary node.
    mutating func value(_ i: Int, of node: Int) throws -> Int
    /// Called before a container's children are visited, `depth` containers deep.
    mutating func enter(_ node: Int, depth: Int) throws
    /// Called after a container's children were visited.
    mutating func leave(_ node: Int)
    /// Upper bounds on the scalars, containers and references a writer
    /// meets from the root, when the source knows them without a walk; nil
    /// has the binary writer count them in a pass of its own first.
    var sizeBounds: PlistSizeBounds? { get }
}

extension PlistNodes {
    /// A source may repeat keys unless it says otherwise.
    package static var keysAreUnique: Bool { false }
    /// A source does not know its size unless it says otherwise.
    package var sizeBounds: PlistSizeBounds? { nil }
}

/// How many scalars (an upper bound on the distinct ones), containers and
/// references a writer meets in a source: what the binary writer sizes its
/// tables by.
package struct PlistSizeBounds {
    /// Scalars other than the UIDs below `directUIDs`.
    package var scalars: Int
    package var containers: Int
    package var references: Int
    /// UIDs below this value are many and dense (an archive's references,
    /// numbered from 0): the writer numbers them through a table indexed by
    /// value rather than its hash table.
    package var directUIDs: Int

    package init(scalars: Int, containers: Int, references: Int, directUIDs: Int = 0) {
        self.scalars = scalars
        self.containers = containers
        self.references = references
        self.directUIDs = directUIDs
    }
}

extension PlistTree.View {
    /// The builder stores each key of a dictionary once.
    package static var keysAreUnique: Bool { true }

    /// The tree's own node and link counts, one pass over its nodes: each
    /// node is met once unless shared (a binary plist's shared objects), and
    /// the writer's tables then grow past the bounds as needed.
    package var sizeBounds: PlistSizeBounds? {
        let containers = count(where: (.array, .dictionary))
        return PlistSizeBounds(scalars: nodes.count - containers, containers: containers, references: links.count)
    }

    /// How many of the tree's nodes are of one of two kinds (the same kind
    /// twice for one): one pass over its nodes.
    package func count(where kinds: (PlistKind, PlistKind)) -> Int {
        let a = UInt64(kinds.0.rawValue), b = UInt64(kinds.1.rawValue)
        var n = 0
        for node in nodes {
            let kind = node.header >> 56
            n &+= kind == a || kind == b ? 1 : 0
        }
        return n
    }
}

extension PlistItem {
    /// The kind of node the item is.
    package var kind: PlistKind {
        switch self {
        case .string: return .string
        case .data: return .data
        case .integer: return .integer
        case .real: return .real
        case .bool: return .bool
        case .date: return .date
        case .uid: return .uid
        case .null: return .null
        case .array: return .array
        case .dictionary: return .dictionary
        }
    }
}
