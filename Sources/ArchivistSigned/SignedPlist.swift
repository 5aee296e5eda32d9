import ArchivistCore

/// How the command reads a file that may be a signed profile: the property
/// list inside a CMS envelope (`SignedEnvelope`), anything else as
/// `PropertyList.read` reads it. `dump`, `get`, `convert`, `lint`, `diff`
/// and `info` see the inner property list as the document.
package enum SignedPlist {
    /// True when `buffer` starts as a CMS `SignedData` envelope.
    package static func isSigned(_ buffer: UnsafeRawBufferPointer) -> Bool {
        FormatSniffer.kind(buffer) == .signedEnvelope
    }

    /// True when `bytes` start as a CMS `SignedData` envelope.
    package static func isSigned(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isSigned($0) }
    }

    /// The document `buffer` holds: a signed envelope's property list, or
    /// what `PropertyList.read` reads. An error in the inner property list
    /// says it is inside the envelope.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try read(buffer, signed: isSigned(buffer), options: options)
    }

    /// The document `buffer` holds, when the caller has asked `isSigned`
    /// already (the envelope is sniffed once per file).
    package static func read(_ buffer: UnsafeRawBufferPointer, signed: Bool, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        guard signed else { return try PropertyList.read(buffer, options: options) }
        return try content(of: SignedEnvelope(buffer, limits: options.limits), options: options)
    }

    /// The document `bytes` hold (see `read(_:options:)` of a buffer).
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }

    /// The property list an envelope encapsulates.
    package static func content(of envelope: SignedEnvelope, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        do {
            return try PropertyList.read(envelope.content, options: options)
        } catch var error as PlistError {
            error.message = "in the signed content: " + error.message
            throw error
        }
    }
}
