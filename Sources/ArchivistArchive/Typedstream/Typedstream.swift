import ArchivistCore
import ArchivistNIB

/// NSArchiver's typedstreams (`\u{4}\u{B}streamtyped`): the `attributedBody`
/// of every iMessage, old preferences values and documents from before
/// keyed archives. Read only: a typedstream is read into the tree of a keyed
/// archive holding the same objects, so every view of archives shows it.
public enum Typedstream {
    /// The envelope key that marks the archive a typedstream is read as
    /// (`"$typedstream": "NSArchiver"`), so views name what was read.
    package static let envelopeKey = KeyedArchive.typedstreamEnvelopeKey

    /// True when bytes start with a typedstream header.
    ///
    /// - Parameter bytes: The input's bytes.
    /// - Returns: True when they start with `\u{4}\u{B}streamtyped`.
    public static func looksLikeTypedstream(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { FormatSniffer.isTypedstream($0) }
    }

    /// The keyed archive (`$archiver`, `$version`, `$typedstream`, `$top`,
    /// `$objects`) that holds the typedstream's objects: `$top` holds the first top-level value
    /// as `root`, the next ones as `root1`, `root2`, ...
    package static func archive(_ bytes: [UInt8]) throws -> PlistValue {
        var reader = TypedstreamReader(bytes)
        let values = try reader.read()
        var objects = reader.objects
        var top: [(String, PlistValue)] = []
        for (i, v) in values.enumerated() {
            let key = i == 0 ? "root" : "root\(i)"
            if case .object(let index) = v {
                top.append((key, .uid(UInt64(index))))
            } else if let scalar = v.scalar {
                top.append((key, scalar))
            } else {
                // A structure, an array or nil at the top: kept as an object of its own.
                let classNode = objects.count
                objects.append(.dictionary(PlistDictionary([("$classname", .string("typedstream value")), ("$classes", .array([.string("typedstream value")]))])))
                var fields: [(String, PlistValue)] = [("$class", .uid(UInt64(classNode)))]
                if case .list(let items) = v {
                    for (j, item) in items.enumerated() { fields.append((String(j), item.plist)) }
                }
                objects.append(.dictionary(PlistDictionary(fields)))
                top.append((key, .uid(UInt64(objects.count - 1))))
            }
        }
        return .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")),
            ("$version", .int(100_000)),
            (envelopeKey, .string("NSArchiver")),
            ("$top", .dictionary(PlistDictionary(top))),
            ("$objects", .array(objects)),
        ]))
    }

    /// The typedstream as a document (its tree is `archive(_:)`'s), for the
    /// commands that read archives.
    ///
    /// - Parameter bytes: The typedstream's bytes.
    /// - Returns: A document whose tree is a keyed archive of the same objects.
    /// - Throws: `PlistError` when the typedstream is broken or breaks a limit.
    public static func document(_ bytes: [UInt8]) throws -> PlistDocument {
        PlistDocument(tree: try PlistTree(try archive(bytes)), format: .binary)
    }

    /// Reads a file's or blob's bytes as an archive reader wants them: a
    /// typedstream or an iOS compiled nib (NIBArchive) as its keyed archive,
    /// anything else as a property list.
    ///
    /// - Parameter bytes: A file's or blob's bytes.
    /// - Returns: The document.
    /// - Throws: `PlistError` as ``document(_:)`` or
    ///   `PropertyList.read(_:options:)` throws it.
    public static func readDocument(_ bytes: [UInt8]) throws -> PlistDocument {
        if looksLikeTypedstream(bytes) { return try document(bytes) }
        if NIBArchive.looksLikeNIBArchive(bytes) { return try NIBArchive.document(bytes) }
        return try PropertyList.read(bytes)
    }

    /// True for bytes ``readDocument(_:)`` reads as an archive that is not a
    /// property list: a typedstream or an iOS compiled nib.
    package static func isArchiveStream(_ bytes: UnsafeRawBufferPointer) -> Bool {
        FormatSniffer.isTypedstream(bytes) || NIBArchive.looksLikeNIBArchive(bytes)
    }
}
