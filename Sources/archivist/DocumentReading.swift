import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned

/// How the commands that read a file's document read it: a signed profile
/// as the property list inside its CMS envelope (`SignedPlist`), an
/// NSArchiver typedstream as the keyed archive it reads as, anything else
/// as `PropertyList.read` reads it.
enum DocumentReading {
    static func read(_ bytes: [UInt8]) throws -> PlistDocument {
        SignedPlist.isSigned(bytes) ? try SignedPlist.read(bytes) : try Typedstream.readDocument(bytes)
    }

    /// The document of a file (or `-`), read as `read(_:)` reads bytes: a
    /// large file in place, its pages handed back as they are read (see
    /// `InputPages`) and the mapping gone once the tree holds it.
    static func read(file path: String) throws -> PlistDocument {
        let input = try FileIO.input(path)
        return try input.withUnsafeBytes { buffer in
            Typedstream.isArchiveStream(buffer) ? try Typedstream.readDocument(Array(buffer))
                : try SignedPlist.read(buffer, options: input.readOptions(ReadOptions()))
        }
    }

    /// What `set`, `remove` and `convert --in-place` say of a signed file
    /// (without `--strip-signature`).
    static let signedRefusal = "a CMS (PKCS #7) signed envelope: writing it in place would strip its signature; "
        + "give --strip-signature to do that, or -o to write the property list to another file"
}
