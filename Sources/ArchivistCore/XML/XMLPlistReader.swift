internal import CLibXML2
internal import CSystemLibraryLoader

/// Reads XML property lists with libxml2's streaming `xmlTextReader`: no DOM,
/// no network, no external DTDs or entities, and no user-defined entities at
/// all (CoreFoundation's parser refuses them too), which also rules out entity
/// expansion bombs. Errors carry libxml2's line and column.
package enum XMLPlistReader {
    /// Reads an XML property list.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try read(buffer, options: options, direct: true)
    }

    /// Reads an XML property list from bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }

    /// `direct: false` always reads with libxml2 (tests compare the two paths).
    static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions, direct: Bool) throws -> PlistDocument {
        guard buffer.count <= Int(Int32.max) else {
            throw PlistError(.limitExceeded, "XML input of \(buffer.count) bytes is larger than libxml2 reads")
        }
        var document = try readTree(buffer, options: options, direct: direct)
        if let mismatch = XMLEncodingCheck.mismatch(buffer) {
            document.diagnostics.insert(PlistDiagnostic(.encodingMismatch, mismatch, at: .text(line: 1, column: 1)), at: 0)
        }
        return document
    }

    /// The one place a reading path is chosen: the common shape of XML plists
    /// read directly; anything else (and every error) through libxml2, as
    /// UTF-8 rewritten where CoreFoundation reads what libxml2 would not
    /// (`XMLCoreFoundationText`). UTF-32 is transcoded for libxml2 (2.9 has no
    /// UTF-32 decoder), UTF-16 only when its text needs rewriting.
    private static func readTree(_ buffer: UnsafeRawBufferPointer, options: ReadOptions, direct: Bool) throws -> PlistDocument {
        if let bom = TextDecoding.detectBOM(buffer), bom.encoding != .utf8 {
            let utf32 = bom.encoding == .utf32BE || bom.encoding == .utf32LE
            let utf8: [UInt8]
            if utf32 {
                utf8 = try TextDecoding.decodeToUTF8(buffer, mode: .strict)
            } else if let decoded = try? TextDecoding.decodeToUTF8(buffer, mode: .strict) {
                utf8 = decoded
            } else {
                // Invalid UTF-16 is left to libxml2, which says where.
                return try parse(buffer, encoding: nil, marked: false, options: options)
            }
            let rewritten = utf8.withUnsafeBytes { XMLCoreFoundationText.rewrite($0) }
            guard utf32 || rewritten != nil else { return try parse(buffer, encoding: nil, marked: false, options: options) }
            let text = rewritten?.bytes ?? utf8
            return try text.withUnsafeBytes { try parse($0, encoding: "UTF-8", marked: rewritten?.marked ?? false, options: options) }
        }
        if direct, let tree = XMLFastReader.read(buffer, limits: options.limits) {
            return PlistDocument(tree: tree, format: .xml, diagnostics: [])
        }
        if !(buffer.count >= 2 && (buffer[0] == 0 || buffer[1] == 0)), let rewritten = XMLCoreFoundationText.rewrite(buffer) {
            return try rewritten.bytes.withUnsafeBytes { try parse($0, encoding: nil, marked: rewritten.marked, options: options) }
        }
        return try parse(buffer, encoding: nil, marked: false, options: options)
    }

    /// Reads with libxml2; `marked` says the text holds `XMLCoreFoundationText` markers.
    private static func parse(_ buffer: UnsafeRawBufferPointer, encoding: String?, marked: Bool, options: ReadOptions) throws -> PlistDocument {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw PlistError(.syntax, "empty input is not an XML property list", at: .text(line: 1, column: 1))
        }
        if let problem = archivist_libxml2_problem() {
            throw PlistError(.io, "this XML is read with libxml2, which could not be loaded: \(String(cString: problem))", at: .text(line: 1, column: 1))
        }
        let prescan = try XMLPrescan(buffer)
        var flags = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        if encoding != nil { flags |= Int32(XML_PARSE_IGNORE_ENC.rawValue) }
        // Text nodes over 10,000,000 bytes (an image in `<data>`), bounded by
        // Archivist's own limits. Not with entity declarations: XML_PARSE_HUGE
        // also lifts libxml2's guard against their expansion in attributes.
        if !prescan.declaresEntities { flags |= Int32(XML_PARSE_HUGE.rawValue) }
        let reader: xmlTextReaderPtr? = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
            if let encoding {
                return xmlReaderForMemory(chars, Int32(buffer.count), nil, encoding, flags)
            }
            return xmlReaderForMemory(chars, Int32(buffer.count), nil, nil, flags)
        }
        guard let reader else {
            throw PlistError(.syntax, "libxml2 could not start reading the input", at: .text(line: 1, column: 1))
        }
        defer { xmlFreeTextReader(reader) }
        let errors = XMLErrorSink()
        let sink = Unmanaged.passUnretained(errors).toOpaque()
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorSink>.fromOpaque(context).takeUnretainedValue().record(error)
        }, sink)
        var builder = XMLTreeBuilder(reader: reader, source: buffer, prescan: prescan, marked: marked,
                                    limits: options.limits, errors: errors)
        let tree = try withExtendedLifetime(errors) { try builder.run() }
        return PlistDocument(tree: tree, format: .xml, diagnostics: builder.diagnostics)
    }
}

/// Collects the first error libxml2 reports, with its position.
final class XMLErrorSink {
    var message: String?
    var line = 0
    var column = 0

    func record(_ error: UnsafeMutablePointer<xmlError>) {
        guard message == nil else { return }
        let e = error.pointee
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var text = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
        while text.last == "\n" || text.last == " " { text.removeLast() }
        message = text
        line = Int(e.line)
        column = Int(e.int2)
    }
}
