// PLACEHOLDER: replaced by the real BinaryPlistReader (work in progress on a branch).
public enum BinaryPlistReader {
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        throw PlistError(.unsupported, "BinaryPlistReader is not built yet")
    }
}
