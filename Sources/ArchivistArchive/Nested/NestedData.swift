import ArchivistCore

/// What a `<data>` value holds, by the one definition every command shares
/// (`dump`, `get`, `lint --secure`, rules checks, `schema`, `codegen`,
/// `info`, `diff`, `migrate`): a binary or XML property list (a keyed
/// archive or a plain one), an NSArchiver typedstream (read as the keyed
/// archive that holds its objects), macOS bookmark data (as the dictionary
/// ``Bookmark/value`` makes) or a JSON object or array (a value stored with
/// `JSONEncoder`). Anything else is plain data.
package struct NestedData {
    /// What kind of document the data holds.
    package enum Kind: Equatable, Sendable {
        /// A binary or XML property list that is not a keyed archive.
        case propertyList(PlistFormat)
        /// A keyed archive written as a binary or XML property list.
        case keyedArchive(PlistFormat)
        /// An NSArchiver typedstream, read as a keyed archive's tree.
        case typedstream
        /// macOS bookmark data, read as a dictionary.
        case bookmark
        /// A JSON object or array.
        case json
    }

    /// How many levels of data inside data are followed: a property list in
    /// a `<data>` value is one level, an archive inside that another.
    package static let maxLevels = 8

    /// What the data holds.
    package var kind: Kind
    /// The document read from it (a typedstream's is its keyed archive).
    package var document: PlistDocument

    /// The document a data value holds; nil when it holds none of the kinds
    /// above or does not read as what it starts like.
    package static func read(_ bytes: [UInt8]) -> NestedData? {
        if Bookmark.looksLikeBookmark(bytes) {
            return Bookmark.decode(bytes).flatMap { try? PlistTree($0.value) }.map { NestedData(kind: .bookmark, document: PlistDocument(tree: $0, format: .binary)) }
        }
        if Typedstream.looksLikeTypedstream(bytes) {
            return (try? Typedstream.document(bytes)).map { NestedData(kind: .typedstream, document: $0) }
        }
        if bytes.starts(with: Array("bplist00".utf8)) || bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) {
            guard let doc = try? PropertyList.read(bytes) else { return nil }
            return NestedData(kind: KeyedArchive.looksLikeArchive(doc.tree) ? .keyedArchive(doc.format) : .propertyList(doc.format), document: doc)
        }
        guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              let doc = try? bytes.withUnsafeBytes({ try PropertyList.read($0, as: .json) }) else { return nil }
        return NestedData(kind: .json, document: doc)
    }

    /// A property list, archive or not, or JSON: what the Codable export and
    /// schema read as a value stored with an encoder.
    package var holdsEncodedValue: Bool {
        switch kind {
        case .propertyList, .keyedArchive, .json: return true
        case .typedstream, .bookmark: return false
        }
    }

    /// The format a property list or keyed archive was written in.
    package var propertyListFormat: PlistFormat? {
        switch kind {
        case .propertyList(let format), .keyedArchive(let format): return format
        case .typedstream, .bookmark, .json: return nil
        }
    }

    /// The format the document is written back in after an edit; nil for
    /// a typedstream or a bookmark, which are read but not written.
    package var writableFormat: PlistFormat? {
        switch kind {
        case .propertyList(let format), .keyedArchive(let format): return format
        case .json: return .json
        case .typedstream, .bookmark: return nil
        }
    }

    /// The object graph of a keyed archive or typedstream; nil for the other
    /// kinds or an archive that does not read as one (shown then as the plain
    /// tree it is).
    package var objectGraph: ObjectGraph? {
        switch kind {
        case .keyedArchive, .typedstream: return try? ObjectGraph(document.tree)
        case .propertyList, .bookmark, .json: return nil
        }
    }

    /// What the dumpers call it.
    package var label: String {
        switch kind {
        case .bookmark: return "a bookmark"
        case .typedstream: return "an NSArchiver typedstream"
        case .json: return "JSON"
        case .keyedArchive: return "a keyed archive"
        case .propertyList(let format): return format == .binary ? "a binary property list" : "an XML property list"
        }
    }
}
