/// Decides an input's format from its first bytes, never from a file name.
package enum FormatSniffer {
    /// What the first bytes say.
    package enum Guess: Sendable, Equatable {
        /// Certainly this format.
        case format(PlistFormat)
        /// A `bplist` header of a version Archivist does not read (`bplist15`...).
        case unsupportedBinary(version: String)
        /// Either JSON or OpenStep: JSON is tried first, OpenStep after.
        case jsonOrOpenStep
    }

    /// Guesses the format of `bytes`.
    package static func guess(_ bytes: UnsafeRawBufferPointer) -> Guess {
        if bytes.count >= 6, bytes.starts(with: "bplist".utf8) {
            if bytes.count >= 8, bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") {
                return .format(.binary)
            }
            let version = String(decoding: bytes[6..<min(8, bytes.count)], as: UTF8.self)
            return .unsupportedBinary(version: version)
        }
        // Byte-order marks: UTF-8, UTF-16 and UTF-32 text. XML carries its own
        // encoding (libxml2 decodes it); other text formats are decoded first by
        // the readers that accept them.
        if let encoded = TextDecoding.detectBOM(bytes) {
            if encoded.encoding == .utf8 {
                return guessText(UnsafeRawBufferPointer(rebasing: bytes[encoded.bomLength...]))
            }
            let text = TextDecoding.decodeToUTF8(bytes)
            return text.withUnsafeBytes { guessText($0) }
        }
        // UTF-16/32 XML without a BOM starts with `<` and NUL bytes.
        if bytes.count >= 2, (bytes[0] == 0 && bytes[1] == UInt8(ascii: "<")) || (bytes[0] == UInt8(ascii: "<") && bytes[1] == 0) {
            return .format(.xml)
        }
        // UTF-16/32 JSON without a BOM (RFC 4627 §3).
        if let encoding = TextInput.unmarkedEncoding(bytes) {
            let text = TextInput.decodeUnmarked(bytes, as: encoding)
            return text.withUnsafeBytes { guessText($0) }
        }
        return guessText(bytes)
    }

    /// True for an NSArchiver typedstream: version 4, then the 11-byte
    /// signature `streamtyped` (little-endian) or `typedstream` (big-endian).
    /// Not a property list; ArchivistArchive's `Typedstream` reads it.
    package static func isTypedstream(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 13, bytes[0] == 4, bytes[1] == 11 else { return false }
        let signature = UnsafeRawBufferPointer(rebasing: bytes[2..<13])
        return signature.elementsEqual("streamtyped".utf8) || signature.elementsEqual("typedstream".utf8)
    }

    /// The kind of a non-property-list format by its magic bytes, as lists of
    /// blobs name it (`gzip data`, `zip archive`, `SQLite database`, `PNG
    /// image`; see `kind(_:)`); nil for others.
    package static func dataKind(_ bytes: UnsafeRawBufferPointer) -> String? {
        kind(bytes)?.shortName
    }

    /// True for bytes that cannot be a property list in any format: binary
    /// data that is neither `bplist` nor text (it holds NUL bytes but no
    /// byte-order mark and not the NULs of unmarked UTF-16 or UTF-32), such
    /// as an image or an SQLite blob of another kind.
    package static func isBinaryData(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard isUnmarkedText(bytes) else { return false }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return false }
        return bytes.contains(0)
    }

    /// True when nothing but the content can tell the format: no `bplist`
    /// header and no byte-order mark.
    package static func isUnmarkedText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch guess(bytes) {
        case .format(.binary), .unsupportedBinary: return false
        case .format, .jsonOrOpenStep: return TextDecoding.detectBOM(bytes) == nil
        }
    }

    private static func guessText(_ bytes: UnsafeRawBufferPointer) -> Guess {
        let n = bytes.count
        var i = 0
        while i < n, isSpace(bytes[i]) { i += 1 }
        guard i < n else { return .jsonOrOpenStep }
        let afterComments = skipSpaceAndComments(bytes, from: i)
        if afterComments > i {
            // Comments first: OpenStep has them and JSON does not, but a JSON
            // text after a comment is still JSON to its author (the JSON reader
            // then says that JSON has no comments).
            guard afterComments < n else { return .format(.openstep) }
            return guessText(UnsafeRawBufferPointer(rebasing: bytes[afterComments...])) == .format(.json) ? .format(.json) : .format(.openstep)
        }
        switch bytes[i] {
        case UInt8(ascii: "<"):
            return looksLikeXMLTag(bytes, after: i) ? .format(.xml) : .format(.openstep)
        case UInt8(ascii: "["):
            return .format(.json)
        case UInt8(ascii: "("), UInt8(ascii: "/"), UInt8(ascii: "'"):
            return .format(.openstep)
        case UInt8(ascii: "\""):
            // `"key" = value;` is a strings file; `"text"` alone is either.
            return afterString(bytes, from: i).map { isOpenStepPairMark($0) ? .format(.openstep) : .jsonOrOpenStep } ?? .jsonOrOpenStep
        case UInt8(ascii: "{"):
            // `{ "k" :` is JSON, `{ "k" =` or `{ "k";` or `{ k =` is OpenStep
            // (comments before the key do not decide).
            let j = skipSpaceAndComments(bytes, from: i + 1)
            guard j < n else { return .jsonOrOpenStep }
            if bytes[j] == UInt8(ascii: "}") { return .jsonOrOpenStep }
            guard bytes[j] == UInt8(ascii: "\"") else { return .format(.openstep) }
            guard let next = afterString(bytes, from: j) else { return .jsonOrOpenStep }
            if next == UInt8(ascii: ":") { return .format(.json) }
            return isOpenStepPairMark(next) ? .format(.openstep) : .jsonOrOpenStep
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // A JSON number, or an OpenStep string such as `1.2.3` or a strings-file key.
            return .jsonOrOpenStep
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return isJSONLiteral(bytes, at: i) ? .jsonOrOpenStep : .format(.openstep)
        default:
            // Nothing else can start a JSON text: a bare word is an OpenStep
            // string or the first key of a strings file, and anything else is
            // not a property list, which the OpenStep reader says in its terms.
            return .format(.openstep)
        }
    }

    /// The index of the first byte at or after `start` that is neither
    /// whitespace nor inside a `//` or `/* */` comment.
    private static func skipSpaceAndComments(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = bytes.count
        var j = start
        while j < n {
            if isSpace(bytes[j]) {
                j += 1
            } else if bytes[j] == UInt8(ascii: "/"), j + 1 < n, bytes[j + 1] == UInt8(ascii: "/") {
                while j < n, bytes[j] != 0x0A, bytes[j] != 0x0D { j += 1 }
            } else if bytes[j] == UInt8(ascii: "/"), j + 1 < n, bytes[j + 1] == UInt8(ascii: "*") {
                j += 2
                while j + 1 < n, !(bytes[j] == UInt8(ascii: "*") && bytes[j + 1] == UInt8(ascii: "/")) { j += 1 }
                j = min(j + 2, n)
            } else {
                return j
            }
        }
        return j
    }

    /// The first byte after the quoted string at `start` and the whitespace
    /// after it, or nil when the input ends first.
    private static func afterString(_ bytes: UnsafeRawBufferPointer, from start: Int) -> UInt8? {
        let n = bytes.count
        var j = start + 1
        while j < n, bytes[j] != UInt8(ascii: "\"") {
            j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1
        }
        j += 1
        while j < n, isSpace(bytes[j]) { j += 1 }
        return j < n ? bytes[j] : nil
    }

    private static func isOpenStepPairMark(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "=") || b == UInt8(ascii: ";")
    }

    /// True when the word at `i` is exactly `true`, `false` or `null`.
    private static func isJSONLiteral(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Bool {
        var j = i
        while j < bytes.count, isLetter(bytes[j]) || (bytes[j] >= 0x30 && bytes[j] <= 0x39) { j += 1 }
        let word = UnsafeRawBufferPointer(rebasing: bytes[i..<j])
        return word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) || word.elementsEqual("null".utf8)
    }

    /// `<?`, `<!` or a tag name that is not pure hex (`<dict>`, `<plist`) is XML;
    /// `<0fbd 7777>` and `<abcd>` are OpenStep data.
    private static func looksLikeXMLTag(_ bytes: UnsafeRawBufferPointer, after start: Int) -> Bool {
        var j = start + 1
        guard j < bytes.count else { return true }
        let first = bytes[j]
        if first == UInt8(ascii: "?") || first == UInt8(ascii: "!") || first == UInt8(ascii: "/") { return true }
        while j < bytes.count {
            let b = bytes[j]
            if b == UInt8(ascii: ">") { return false }
            if isSpace(b) || isHexDigit(b) { j += 1; continue }
            return isLetter(b)
        }
        return false
    }

    package static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
    static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") }
}
