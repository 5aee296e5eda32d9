// PLACEHOLDER: replaced by the real JSONPlistReader (work in progress on a branch).
public enum JSONPlistReader {
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        throw PlistError(.unsupported, "JSONPlistReader is not built yet")
    }
}
