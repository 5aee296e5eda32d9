/// Reads binary property lists (`bplist00`) from one buffer.
///
/// The trailer and the offset table are validated first; every object's
/// header and length are checked against the buffer before any read. Objects
/// referenced from several places are decoded once and become one node of the
/// tree. A container that contains itself is an error, as is nesting deeper
/// than `Limits.maxDepth`.
package enum BinaryPlistReader {
    /// Reads a binary property list.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        var scanner = try BinaryScanner(buffer, limits: options.limits, pages: options.inputPages)
        let tree = try scanner.readRoot()
        return PlistDocument(tree: tree, format: .binary, diagnostics: scanner.diagnostics)
    }

    /// Reads a binary property list from bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }
}
