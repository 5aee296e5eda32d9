/// Reads binary property lists (`bplist00`) from one buffer.
///
/// The trailer and the offset table are validated first; every object's
/// header and length are checked against the buffer before any read. Objects
/// referenced from several places are decoded once. A container that contains
/// itself is an error, as is nesting deeper than `Limits.maxDepth`.
public enum BinaryPlistReader {
    /// Reads a binary property list.
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        guard buffer.count >= 8, buffer.starts(with: "bplist".utf8) else {
            throw PlistError(.corrupt, "not a binary property list: missing \"bplist00\" header", at: .binary(offset: 0, object: nil))
        }
        guard buffer[6] == UInt8(ascii: "0"), buffer[7] == UInt8(ascii: "0") else {
            let version = String(decoding: buffer[6..<8], as: UTF8.self)
            throw PlistError(.unsupported, "binary property list version \"bplist\(version)\" is not supported (only bplist00)",
                             at: .binary(offset: 6, object: nil))
        }
        var scanner = try BinaryScanner(buffer, limits: options.limits)
        let value = try scanner.readRoot()
        return PlistDocument(value: value, format: .binary, diagnostics: scanner.diagnostics)
    }

    /// Reads a binary property list from bytes.
    public static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }
}
