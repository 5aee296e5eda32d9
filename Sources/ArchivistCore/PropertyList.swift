/// The entry point of the core: read any supported format into a
/// `PlistDocument` (the `PlistTree` the format's reader builds, the format
/// and the diagnostics), and write a `PlistTree` or a `PlistValue` in any format.
public enum PropertyList {
    /// Reads `bytes`, detecting the format from the content.
    ///
    /// - Parameters:
    ///   - bytes: The whole input (a file's or a blob's bytes).
    ///   - options: Limits on what the input may make the reader do.
    /// - Returns: The tree, the format detected and the reader's diagnostics.
    /// - Throws: ``PlistError``, located, when the input is not a property list
    ///   or breaks a limit.
    public static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }

    /// Reads a buffer, detecting the format from the content.
    ///
    /// - Parameters:
    ///   - buffer: The whole input, valid for the call only (the tree copies
    ///     what it keeps).
    ///   - options: Limits on what the input may make the reader do.
    /// - Returns: The tree, the format detected and the reader's diagnostics.
    /// - Throws: ``PlistError``, located, when the input is not a property list
    ///   or breaks a limit.
    public static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try readDetecting(buffer, options: options)
    }

    private static func readDetecting(_ buffer: UnsafeRawBufferPointer, options: ReadOptions) throws -> PlistDocument {
        guard buffer.count <= options.limits.maxInputSize else {
            throw PlistError(.limitExceeded, "input of \(buffer.count) bytes exceeds the limit of \(options.limits.maxInputSize)")
        }
        guard !buffer.isEmpty else {
            throw PlistError(.syntax, "empty input is not a property list", at: .text(line: 1, column: 1))
        }
        if FormatSniffer.isTypedstream(buffer) {
            throw PlistError(.unsupported, "not a property list: an NSArchiver typedstream (dump, get, classes, info, diff and lint read it)",
                             at: .binary(offset: 0, object: nil))
        }
        if let kind = FormatSniffer.kind(buffer) {
            switch kind {
            case .binaryCookies: return try BinaryCookiesReader.read(buffer, options: options)
            case .dsStore: return try DSStoreReader.read(buffer, options: options)
            case .bookmark, .finderAlias: return try BookmarkFileReader.read(buffer, options: options)
            default: break
            }
            throw PlistError(.unsupported, "not a property list: \(kind.name)\(kind.notReadNote)")
        }
        do {
            return try readGuessing(buffer, options: options)
        } catch let error as PlistError where error.kind != .limitExceeded && startsAsBinaryData(buffer) {
            // The text readers' complaint about the first odd byte would point the wrong way.
            throw PlistError(.syntax, "not a property list: binary data that is neither a binary plist (bplist00) nor text",
                             at: .binary(offset: 0, object: nil))
        }
    }

    /// True for binary data from its first byte on (an image, an SQLite blob
    /// of another kind): NUL bytes, and a first byte that no text format
    /// starts with (neither printable ASCII nor whitespace). Text that goes
    /// wrong later keeps its reader's located error.
    private static func startsAsBinaryData(_ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let first = buffer.first, !(0x20...0x7E).contains(first), !FormatSniffer.isSpace(first) else { return false }
        return FormatSniffer.isBinaryData(buffer)
    }

    private static func readGuessing(_ buffer: UnsafeRawBufferPointer, options: ReadOptions) throws -> PlistDocument {
        switch FormatSniffer.guess(buffer) {
        case .format(let format):
            return try read(buffer, as: format, options: options)
        case .unsupportedBinary(let version):
            throw PlistError(.unsupported, "binary property list version \"bplist\(version)\" is not supported (only bplist00)",
                             at: .binary(offset: 0, object: nil))
        case .jsonOrOpenStep:
            let jsonError: PlistError
            do {
                return try JSONPlistReader.read(buffer, options: options)
            } catch let error as PlistError {
                jsonError = error
            }
            do {
                return try OpenStepReader.read(buffer, options: options)
            } catch let openStepError as PlistError {
                throw likelierError(json: jsonError, openStep: openStepError)
            }
        }
    }

    /// When text is neither valid JSON nor valid OpenStep, the error of the
    /// reader that got further is the one about the author's mistake (ties go
    /// to JSON); a limit hit by JSON stands.
    static func likelierError(json: PlistError, openStep: PlistError) -> PlistError {
        if json.kind == .limitExceeded { return json }
        guard case .text(let jl, let jc) = json.location, case .text(let ol, let oc) = openStep.location else { return json }
        return (ol, oc) > (jl, jc) ? openStep : json
    }

    /// Reads a buffer as the given format.
    ///
    /// - Parameters:
    ///   - buffer: The whole input, valid for the call only.
    ///   - format: The format to read it as; nothing is detected.
    ///   - options: Limits on what the input may make the reader do.
    /// - Returns: The tree, `format` and the reader's diagnostics.
    /// - Throws: ``PlistError``, located, when the input is not valid in
    ///   `format` or breaks a limit.
    public static func read(_ buffer: UnsafeRawBufferPointer, as format: PlistFormat, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        switch format {
        case .binary: return try BinaryPlistReader.read(buffer, options: options)
        case .xml: return try XMLPlistReader.read(buffer, options: options)
        case .json: return try JSONPlistReader.read(buffer, options: options)
        case .openstep: return try OpenStepReader.read(buffer, options: options)
        }
    }

    /// Writes a value built or edited in code in a format: the one place a
    /// `PlistValue` becomes bytes (it is made a ``PlistTree`` first, which
    /// every writer reads).
    ///
    /// - Parameters:
    ///   - value: The property list.
    ///   - format: The format to write.
    ///   - options: Key order and JSON style.
    /// - Returns: The bytes of the file.
    /// - Throws: ``PlistError`` (`notRepresentable`) naming the first value the
    ///   format cannot hold (a date in OpenStep, NaN in JSON...).
    public static func write(_ value: PlistValue, as format: PlistFormat, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        try write(PlistTree(value, limits: .writing), as: format, options: options)
    }

    /// Writes a compact tree in a format, as the same property list's value
    /// would be written.
    ///
    /// - Parameters:
    ///   - tree: The property list.
    ///   - format: The format to write.
    ///   - options: Key order and JSON style.
    /// - Returns: The bytes of the file.
    /// - Throws: ``PlistError`` (`notRepresentable`) naming the first value the
    ///   format cannot hold.
    public static func write(_ tree: PlistTree, as format: PlistFormat, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        switch format {
        case .binary: return try BinaryPlistWriter.write(tree, options: options)
        case .xml: return try XMLPlistWriter.write(tree, options: options)
        case .json: return try JSONPlistWriter.write(tree, options: options)
        case .openstep: return try OpenStepWriter.write(tree, options: options)
        }
    }

    /// Appends a node source (a tree's view, a binary plist read in place)
    /// in a format to `out`, which may stream (see `ByteSink`).
    package static func write<S: PlistNodes>(_ source: inout S, as format: PlistFormat, options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        var losses = WriteLosses()
        try write(&source, as: format, options: options, into: out, losses: &losses)
    }

    /// `write(_:as:options:into:)`, adding to `losses` what the format could
    /// not keep (`WriteLosses`; only XML loses anything).
    package static func write<S: PlistNodes>(_ source: inout S, as format: PlistFormat, options: WriteOptions = WriteOptions(),
                                             into out: ByteSink, losses: inout WriteLosses) throws {
        switch format {
        case .binary: try BinaryPlistWriter.write(&source, options: options, into: out)
        case .xml: try XMLPlistWriter.write(&source, options: options, into: out, losses: &losses)
        case .json: try JSONPlistWriter.write(&source, options: options, into: out)
        case .openstep: try OpenStepWriter.write(&source, options: options, into: out)
        }
    }
}
