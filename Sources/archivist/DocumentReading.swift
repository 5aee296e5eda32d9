import ArchivistArchive
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

    /// What `set`, `remove` and `convert --in-place` say of a signed file
    /// (without `--strip-signature`).
    static let signedRefusal = "a CMS (PKCS #7) signed envelope: writing it in place would strip its signature; "
        + "give --strip-signature to do that, or -o to write the property list to another file"
}
