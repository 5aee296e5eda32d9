// PLACEHOLDER: replaced by the real OpenStepReader (work in progress on a branch).
public enum OpenStepReader {
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        throw PlistError(.unsupported, "OpenStepReader is not built yet")
    }
}
