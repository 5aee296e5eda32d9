// PLACEHOLDER: replaced by the real BinaryPlistWriter (work in progress on a branch).
public enum BinaryPlistWriter {
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        throw PlistError(.unsupported, "BinaryPlistWriter is not built yet")
    }
}
