import ArchivistCore

/// iOS compiled nibs (`*.nib`, `*.storyboardc/*.nib`): the `NIBArchive`
/// format `ibtool` writes since iOS 6. Read only: a nib is read into the tree
/// of a keyed archive holding the same objects, as a typedstream is, so that
/// every view of archives (dump, classes, get, diff, lint, info) shows it.
///
/// The archive read: object `i` of the nib is `$objects[i + 1]` (entry 0 is
/// `$null`), `$top` holds object 0 as `root`; each class is a class
/// description after the objects, its `$classes` the class and then its
/// fallback classes. Values keep their keys in order: 8- to 64-bit integers
/// are integers, true and false booleans, float and double reals, data data,
/// nil the `$null` reference and object references UIDs. A key an object
/// holds more than once (`UINibEncoderEmptyKey`, the members of a collection)
/// is one field whose value is the array of its values; in NSArray, NSSet,
/// NSOrderedSet and their mutable kinds that field is `NS.objects`, in
/// NSDictionary and NSMutableDictionary (keys and values alternate) `NS.keys`
/// and `NS.objects`, as NSKeyedArchiver names them. A key starting with `$`
/// gets another `$` in front, as NSKeyedArchiver escapes one.
package enum NIBArchive {
    /// The envelope key that marks the archive a nib is read as
    /// (`"$nibarchive": "NIBArchive"`), so views name what was read.
    package static let envelopeKey = "$nibarchive"
    /// The value of ``envelopeKey``, and what `info` calls the archiver.
    package static let archiverName = "NIBArchive"
    /// The key NIBArchive gives the members of a collection.
    static let memberKey = "UINibEncoderEmptyKey"
    static let listClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"]
    static let mapClasses: Set<String> = ["NSDictionary", "NSMutableDictionary"]

    /// True when bytes start with a NIBArchive header (as the format sniffer tells it).
    package static func looksLikeNIBArchive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        FormatSniffer.kind(bytes) == .nibArchive
    }

    /// True when bytes start with a NIBArchive header.
    package static func looksLikeNIBArchive(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { looksLikeNIBArchive($0) }
    }

    /// The keyed archive (`$archiver`, `$version`, `$nibarchive`,
    /// `$nibversion`, `$top`, `$objects`) that holds the nib's objects, built
    /// straight into a compact tree.
    package static func tree(_ bytes: UnsafeRawBufferPointer) throws -> PlistTree {
        var reader = NIBArchiveReader(bytes)
        try reader.read()
        var builder = ArchiveTreeBuilder(reader: reader, bytes: bytes)
        return try builder.build()
    }

    /// The nib as a document (its tree is ``tree(_:)``'s), for the
    /// commands that read archives.
    package static func document(_ bytes: [UInt8]) throws -> PlistDocument {
        PlistDocument(tree: try bytes.withUnsafeBytes { try tree($0) }, format: .binary)
    }
}
