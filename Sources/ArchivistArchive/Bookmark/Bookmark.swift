import ArchivistCore

/// macOS bookmark data (`CFURLCreateBookmarkData`, `NSURL.bookmarkData`): what
/// `.sfl2`/`.sfl4` shared file lists, BackgroundItems `.btm` files and many
/// preferences keep in `<data>` to find a file again.
///
/// The layout: a header (`book`, the total size, a version, the header size),
/// then at the header's end the offset of the first table of contents. Each
/// table maps keys (numbers such as `0x1004` for the path components, or
/// strings) to typed items: strings, data, CFNumbers, dates (big-endian
/// seconds since 2001), booleans, arrays and dictionaries of item offsets,
/// URLs, UUIDs and null. Offsets count from the end of the header.
///
/// ``Bookmark/decode(_:)`` reads every item with bounds checks, within a depth
/// limit and a budget proportional to the input: truncated data, offsets out
/// of range, cyclic offsets and counts larger than the input are refused
/// (nil), never followed.
package struct Bookmark: Sendable, Equatable {
    /// One typed item of a bookmark.
    package indirect enum Item: Sendable, Equatable {
        /// A UTF-8 string (bytes that are not UTF-8 are shown replaced).
        case string(String)
        /// Raw bytes.
        case data([UInt8])
        /// A CFNumber of an integer type.
        case integer(Int64)
        /// A CFNumber of a floating-point type.
        case real(Double)
        /// A date, as seconds since 2001-01-01T00:00:00Z.
        case date(Double)
        /// A boolean.
        case bool(Bool)
        /// An array of items.
        case array([Item])
        /// A dictionary of items, in the order stored.
        case dictionary([Pair])
        /// A UUID, as its 16 bytes.
        case uuid([UInt8])
        /// An absolute URL, as its text.
        case url(String)
        /// A URL relative to a base URL.
        case relativeURL(base: Item, relative: Item)
        /// Null.
        case null
        /// An item of a type this reader does not know: its type code and bytes.
        case unknown(type: UInt32, bytes: [UInt8])
    }

    /// One entry of a bookmark dictionary.
    package struct Pair: Sendable, Equatable {
        /// The entry's key.
        package var key: Item
        /// The entry's value.
        package var value: Item
    }

    /// The key of a table-of-contents entry.
    package enum Key: Sendable, Equatable, Hashable {
        /// A numeric key such as `0x1004` (path components).
        case code(UInt32)
        /// A key stored as a string item.
        case name(String)
    }

    /// One entry of a table of contents.
    package struct Entry: Sendable, Equatable {
        /// The entry's key.
        package var key: Key
        /// The entry's item.
        package var item: Item
    }

    /// One table of contents: its identifier and entries in stored order.
    package struct Table: Sendable, Equatable {
        /// The table's identifier (1 for the first table bookmarks hold).
        package var id: UInt32
        /// The table's entries.
        package var entries: [Entry]
    }

    /// The tables of contents, in the order they are chained.
    package var tables: [Table]

    /// The item of the first table that has `key`.
    package subscript(key: Key) -> Item? {
        for table in tables {
            if let entry = table.entries.first(where: { $0.key == key }) { return entry.item }
        }
        return nil
    }

    /// The bookmark that `bytes` hold, or nil when they do not start with
    /// `book`, their size does not match, or any item is malformed.
    package static func decode(_ bytes: [UInt8]) -> Bookmark? {
        var reader = BookmarkReader(bytes)
        return try? reader.read()
    }

    /// True when `bytes` start like bookmark data (`book` and a size equal to
    /// the count, or a Finder alias file's wrapper, ``aliasFileHeaderSize(_:)``):
    /// the cheap test before ``decode(_:)``.
    static func looksLikeBookmark(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, bytes.starts(with: [0x62, 0x6F, 0x6F, 0x6B]) else { return false }
        let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        return size == bytes.count || aliasFileHeaderSize(bytes) != nil
    }

    /// The header size of a Finder alias file (`Mac::Alias::Format`): bookmark
    /// data wrapped in `book\0\0\0\0mark\0\0\0\0`, the header size twice
    /// (56 on disk), the data's size (the file's less the header) and the
    /// version; nil when `bytes` are not laid out so.
    static func aliasFileHeaderSize(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 32, bytes.starts(with: [0x62, 0x6F, 0x6F, 0x6B, 0, 0, 0, 0, 0x6D, 0x61, 0x72, 0x6B, 0, 0, 0, 0]) else { return nil }
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        let header = u32(16)
        guard header >= 32, header == u32(20), header <= bytes.count - 4, u32(24) == bytes.count - header else { return nil }
        return header
    }
}
