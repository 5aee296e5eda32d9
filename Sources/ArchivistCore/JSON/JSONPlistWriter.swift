// PLACEHOLDER: replaced by the real JSONPlistWriter (work in progress on a branch).
public enum JSONPlistWriter {
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        throw PlistError(.unsupported, "JSONPlistWriter is not built yet")
    }
}
