import ArchivistCore

extension PlistError.Kind {
    /// A keyed archive's structure is broken.
    public static let archive = PlistError.Kind("archive")
    /// The input is no keyed archive and holds none in its `<data>` values,
    /// where an operation needs one (a migration): batches skip such files.
    public static let noArchive = PlistError.Kind("noArchive")
}
