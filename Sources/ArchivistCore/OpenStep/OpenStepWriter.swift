// PLACEHOLDER: replaced by the real OpenStepWriter (work in progress on a branch).
public enum OpenStepWriter {
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        throw PlistError(.unsupported, "OpenStepWriter is not built yet")
    }
}
