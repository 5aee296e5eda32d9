// PLACEHOLDER: replaced by the real XMLPlistReader (work in progress on a branch).
public enum XMLPlistReader {
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        throw PlistError(.unsupported, "XMLPlistReader is not built yet")
    }
}
