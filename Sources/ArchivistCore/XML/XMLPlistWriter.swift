// PLACEHOLDER: replaced by the real XMLPlistWriter (work in progress on a branch).
public enum XMLPlistWriter {
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        throw PlistError(.unsupported, "XMLPlistWriter is not built yet")
    }
}
