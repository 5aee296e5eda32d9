#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A direct reader for XML property lists in the shape writers produce: UTF-8,
/// an optional XML declaration (whitespace before it allowed, as CoreFoundation
/// allows it), DOCTYPE and comments, `<plist>` and the property-list elements,
/// the five predefined entities. String and key text may hold any character
/// CoreFoundation reads raw there: every C0 control but CR (NUL included),
/// U+FFFE and U+FFFF, which XML 1.0 forbids and CoreFoundation writes.
///
/// It reads straight from the buffer into a `PlistTree`, with no libxml2 nodes
/// and no allocation per value: text goes from the buffer into the tree's arena. It is strict: on anything outside that
/// shape — any error, a CDATA section, a character reference, a processing
/// instruction, an attribute other than `<plist version>`, a carriage return,
/// a byte-order mark, another encoding, invalid UTF-8 or a character XML does
/// not allow, a duplicate key, a limit reached, nesting past 200 levels — it
/// returns nil and `XMLPlistReader` reads the input with libxml2 instead, which
/// gives the same tree for valid input and libxml2's located errors otherwise.
struct XMLFastReader {
    private let p: UnsafePointer<UInt8>
    private let n: Int
    private var i = 0
    private let limits: Limits
    private var nodes = 0
    private var builder: PlistTreeBuilder
    /// Keys with entities, unescaped.
    private var scratch: [UInt8] = []
    /// Deeper documents take libxml2's path (256 levels at most without
    /// XML_PARSE_HUGE, 2048 with it; `Limits.maxDepth` applies on both paths).
    private static let maxDepth = 200

    private init(_ p: UnsafePointer<UInt8>, _ n: Int, limits: Limits) {
        self.p = p
        self.n = n
        self.limits = limits
        // About a node per 24 bytes of XML; text and data about a third of it.
        builder = PlistTreeBuilder(textOfSize: n, bytesPerNode: 24, textShare: 1.0 / 3)
    }

    /// The tree, or nil when the input should be read by libxml2.
    static func read(_ buffer: UnsafeRawBufferPointer, limits: Limits) -> PlistTree? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        // Carriage returns take the libxml2 path (line-end rules, see XMLCarriageReturns).
        guard memchr(base, 0x0D, buffer.count) == nil else { return nil }
        var reader = XMLFastReader(bytes, buffer.count, limits: limits)
        return reader.document()
    }

    // MARK: - Bytes

    @inline(__always) private func at(_ k: Int) -> UInt8 { k < n ? p[k] : 0 }

    @inline(__always) private func starts(_ s: StaticString) -> Bool {
        let len = s.utf8CodeUnitCount
        guard i + len <= n else { return false }
        return s.withUTF8Buffer { lit in
            guard let l = lit.baseAddress else { return true }
            return memcmp(p + i, l, len) == 0
        }
    }

    @inline(__always) private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x09
    }

    private mutating func skipSpace() {
        while i < n, XMLFastReader.isSpace(p[i]) { i += 1 }
    }

    /// Skips a comment at `i` (`<!--` ... `-->`); false when it is malformed.
    private mutating func skipComment() -> Bool {
        i += 4
        while i + 2 < n {
            if p[i] == UInt8(ascii: "-"), p[i + 1] == UInt8(ascii: "-") {
                // "--" may only end the comment.
                guard p[i + 2] == UInt8(ascii: ">") else { return false }
                i += 3
                return true
            }
            guard XMLFastReader.validTextByte(p[i]) else { return false }
            i += 1
        }
        return false
    }

    /// Whitespace and comments; false on anything malformed.
    private mutating func skipMisc() -> Bool {
        while true {
            skipSpace()
            if starts("<!--") {
                guard skipComment() else { return false }
            } else {
                return true
            }
        }
    }

    @inline(__always) private static func validTextByte(_ b: UInt8) -> Bool {
        b >= 0x20 || b == 0x09 || b == 0x0A
    }

    // MARK: - Document

    private mutating func document() -> PlistTree? {
        // CoreFoundation skips whitespace before the declaration (a CR there
        // never gets here).
        skipSpace()
        if starts("<?xml") {
            guard declaration() else { return nil }
        }
        guard skipMisc() else { return nil }
        if starts("<!DOCTYPE") {
            guard doctype(), skipMisc() else { return nil }
        }
        guard at(i) == UInt8(ascii: "<") else { return nil }
        let value: Int
        if starts("<plist"), at(i + 6) == UInt8(ascii: ">") || XMLFastReader.isSpace(at(i + 6)) {
            i += 6
            guard plistAttributes(), skipMisc(), let v = element(depth: 1), skipMisc(), starts("</plist") else { return nil }
            i += 7
            skipSpace()
            guard at(i) == UInt8(ascii: ">") else { return nil }
            i += 1
            value = v
        } else {
            guard let v = element(depth: 1) else { return nil }
            value = v
        }
        guard skipMisc(), i == n else { return nil }
        return try? builder.finish(root: value)
    }

    /// `<?xml version="1.0" [encoding="UTF-8"] [standalone="..."]?>`.
    private mutating func declaration() -> Bool {
        i += 5
        guard XMLFastReader.isSpace(at(i)) else { return false }
        var sawVersion = false
        while true {
            skipSpace()
            if starts("?>") { i += 2; return sawVersion }
            guard let (name, value) = attribute() else { return false }
            if bytes(name, are: "version") {
                guard !sawVersion, bytes(value, are: "1.0") else { return false }
                sawVersion = true
            } else if bytes(name, are: "encoding") {
                guard sawVersion, bytes(value, are: "utf-8", ignoringCase: true) else { return false }
            } else if bytes(name, are: "standalone") {
                guard sawVersion, bytes(value, are: "yes") || bytes(value, are: "no") else { return false }
            } else {
                return false
            }
        }
    }

    /// The DOCTYPEs Apple's writers put in every XML plist (the second in
    /// files from before 2005): compared whole, they need no walk.
    private static let appleDoctypes: [StaticString] = [
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
        "<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
    ]

    /// `<!DOCTYPE name ["public" "system"]>` without an internal subset.
    private mutating func doctype() -> Bool {
        for known in XMLFastReader.appleDoctypes where starts(known) {
            i += known.utf8CodeUnitCount
            return true
        }
        i += 9
        guard XMLFastReader.isSpace(at(i)) else { return false }
        while i < n {
            let b = p[i]
            switch b {
            case UInt8(ascii: ">"):
                i += 1
                return true
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                i += 1
                while i < n, p[i] != b {
                    guard p[i] < 0x80, XMLFastReader.validTextByte(p[i]) else { return false }
                    i += 1
                }
                guard i < n else { return false }
                i += 1
            case UInt8(ascii: "["), UInt8(ascii: "<"):
                return false
            default:
                guard b < 0x80, XMLFastReader.validTextByte(b) else { return false }
                i += 1
            }
        }
        return false
    }

    /// `name="value"` (or single quotes) of ASCII characters without `<` or
    /// `&`: where the name and the value are.
    private mutating func attribute() -> (name: Range<Int>, value: Range<Int>)? {
        let nameStart = i
        while i < n, let b = Optional(p[i]), (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) {
            i += 1
        }
        guard i > nameStart else { return nil }
        let name = nameStart..<i
        skipSpace()
        guard at(i) == UInt8(ascii: "=") else { return nil }
        i += 1
        skipSpace()
        let quote = at(i)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        i += 1
        let valueStart = i
        while i < n, p[i] != quote {
            let b = p[i]
            guard b < 0x80, b >= 0x20, b != UInt8(ascii: "<"), b != UInt8(ascii: "&") else { return nil }
            i += 1
        }
        guard i < n else { return nil }
        let value = valueStart..<i
        i += 1
        return (name, value)
    }

    /// True when the bytes at `range` are `text` (an ASCII literal; with
    /// `ignoringCase`, a lower-case one matched by either case).
    private func bytes(_ range: Range<Int>, are text: StaticString, ignoringCase: Bool = false) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        let literal = text.utf8Start
        for k in 0..<range.count {
            let b = p[range.lowerBound + k]
            guard b == literal[k] || (ignoringCase && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") && b | 0x20 == literal[k]) else { return false }
        }
        return true
    }

    /// After `<plist`: an optional `version` attribute, then `>`.
    private mutating func plistAttributes() -> Bool {
        skipSpace()
        if at(i) == UInt8(ascii: ">") { i += 1; return true }
        guard let (name, _) = attribute(), bytes(name, are: "version") else { return false }
        skipSpace()
        guard at(i) == UInt8(ascii: ">") else { return false }
        i += 1
        return true
    }

    // MARK: - Elements

    private enum Tag { case dict, array, key, string, integer, real, `true`, `false`, date, data }

    /// Reads `<name` and the end of the start tag: the tag and whether it was empty (`/>`).
    private mutating func startTag() -> (Tag, Bool)? {
        guard at(i) == UInt8(ascii: "<") else { return nil }
        let nameStart = i + 1
        var k = nameStart
        while k < n, p[k] >= UInt8(ascii: "a"), p[k] <= UInt8(ascii: "z") { k += 1 }
        let len = k - nameStart
        let tag: Tag
        @inline(__always) func named(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == len && s.withUTF8Buffer { lit in
                guard let l = lit.baseAddress else { return false }
                return memcmp(p + nameStart, l, len) == 0
            }
        }
        switch at(nameStart) {
        case UInt8(ascii: "s") where named("string"): tag = .string
        case UInt8(ascii: "k") where named("key"): tag = .key
        case UInt8(ascii: "i") where named("integer"): tag = .integer
        case UInt8(ascii: "r") where named("real"): tag = .real
        case UInt8(ascii: "d") where named("dict"): tag = .dict
        case UInt8(ascii: "d") where named("date"): tag = .date
        case UInt8(ascii: "d") where named("data"): tag = .data
        case UInt8(ascii: "a") where named("array"): tag = .array
        case UInt8(ascii: "t") where named("true"): tag = .true
        case UInt8(ascii: "f") where named("false"): tag = .false
        default: return nil
        }
        i = k
        skipSpace()
        if at(i) == UInt8(ascii: ">") { i += 1; return (tag, false) }
        if at(i) == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: ">") { i += 2; return (tag, true) }
        return nil
    }

    /// `</name>` (whitespace allowed before `>`).
    private mutating func endTag(_ name: StaticString) -> Bool {
        guard at(i) == UInt8(ascii: "<"), at(i + 1) == UInt8(ascii: "/") else { return false }
        i += 2
        guard starts(name) else { return false }
        i += name.utf8CodeUnitCount
        skipSpace()
        guard at(i) == UInt8(ascii: ">") else { return false }
        i += 1
        return true
    }

    private static func endName(_ tag: Tag) -> StaticString {
        switch tag {
        case .dict: return "dict"
        case .array: return "array"
        case .key: return "key"
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .true: return "true"
        case .false: return "false"
        case .date: return "date"
        case .data: return "data"
        }
    }

    private mutating func element(depth: Int) -> Int? {
        guard depth <= XMLFastReader.maxDepth, depth <= limits.maxDepth else { return nil }
        nodes += 1
        guard nodes <= limits.maxObjects, let (tag, empty) = startTag() else { return nil }
        switch tag {
        case .dict:
            if empty { return builder.close(builder.openDictionary()) }
            return dictionary(depth: depth)
        case .array:
            let mark = builder.openArray()
            if empty { return builder.close(mark) }
            while true {
                guard skipMisc() else { return nil }
                if at(i + 1) == UInt8(ascii: "/") {
                    guard endTag("array") else { return nil }
                    return builder.close(mark)
                }
                guard let v = element(depth: depth + 1) else { return nil }
                builder.append(v, to: mark)
            }
        case .key:
            return nil  // a key outside a dictionary
        case .true, .false:
            if !empty {
                guard let text = content(), text.allSatisfy(XMLFastReader.isSpace), endTag(XMLFastReader.endName(tag)) else { return nil }
            }
            return builder.bool(tag == .true)
        case .string:
            if empty { return builder.string(utf8: UnsafeRawBufferPointer(start: nil, count: 0)) }
            guard let s = stringContent(isKey: false), endTag("string") else { return nil }
            return s
        case .integer, .real, .date, .data:
            let text: UnsafeBufferPointer<UInt8>
            if empty {
                text = UnsafeBufferPointer(start: p, count: 0)
            } else {
                guard let t = content(), endTag(XMLFastReader.endName(tag)) else { return nil }
                text = t
            }
            return scalar(tag, text)
        }
    }

    private mutating func scalar(_ tag: Tag, _ text: UnsafeBufferPointer<UInt8>) -> Int? {
        switch tag {
        case .integer:
            return XMLScalars.integer(text).map { builder.integer($0) }
        case .real:
            return XMLScalars.real(text).map { builder.real(PlistReal($0)) }
        case .date:
            return ISO8601.parseXML(text).map { builder.date($0) }
        default:
            // `content()` let only ASCII through: the decoding cannot fail.
            return builder.data(maxCount: Base64.maxDecodedCount(text.count)) { out in
                Base64.decodeLikeCoreFoundation(UnsafeRawBufferPointer(text), into: out) ?? 0
            }
        }
    }

    private mutating func dictionary(depth: Int) -> Int? {
        var mark = builder.openDictionary()
        while true {
            guard skipMisc() else { return nil }
            if at(i + 1) == UInt8(ascii: "/") {
                guard endTag("dict") else { return nil }
                return builder.closeDictionaryOrUID(mark)
            }
            guard let (tag, empty) = startTag(), tag == .key else { return nil }
            let key: Int
            if empty {
                key = builder.key(utf8: UnsafeRawBufferPointer(start: nil, count: 0))
            } else {
                guard let k = stringContent(isKey: true), endTag("key") else { return nil }
                key = k
            }
            guard skipMisc(), at(i) == UInt8(ascii: "<"), at(i + 1) != UInt8(ascii: "/"),
                  let value = element(depth: depth + 1) else { return nil }
            // A duplicate key is reported with positions: libxml2's path does that.
            guard builder.add(key: key, value: value, to: &mark) == nil else { return nil }
        }
    }

    // MARK: - Text

    /// The raw text up to the next `<` (no entities, valid characters), in the buffer.
    private mutating func content() -> UnsafeBufferPointer<UInt8>? {
        let start = i
        while i < n, p[i] != UInt8(ascii: "<") {
            let b = p[i]
            guard b < 0x80, XMLFastReader.validTextByte(b), b != UInt8(ascii: "&") else { return nil }
            if b == UInt8(ascii: ">"), i >= start + 2, p[i - 1] == UInt8(ascii: "]"), p[i - 2] == UInt8(ascii: "]") { return nil }
            i += 1
        }
        guard i - start <= limits.maxValueLength else { return nil }
        return UnsafeBufferPointer(start: p + start, count: i - start)
    }

    /// The text of a `<string>` or `<key>` up to the next `<`, with the predefined
    /// entities replaced and the UTF-8 checked: a string node, or a key when `isKey`.
    /// Control characters are text here, as CoreFoundation reads them (a CR
    /// never gets here: inputs holding one take libxml2's path).
    private mutating func stringContent(isKey: Bool) -> Int? {
        let start = i
        var ascii = true
        var entities = false
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: "<") { break }
            if b >= 0x80 {
                ascii = false
            } else if b == UInt8(ascii: "&") {
                entities = true
            } else if b == UInt8(ascii: ">"), i >= start + 2, p[i - 1] == UInt8(ascii: "]"), p[i - 2] == UInt8(ascii: "]") {
                return nil
            }
            i += 1
        }
        let count = i - start
        guard count <= limits.maxValueLength else { return nil }
        let bytes = UnsafeBufferPointer(start: p + start, count: count)
        if !ascii, !XMLFastReader.validUTF8(bytes) { return nil }
        if !entities {
            return isKey ? builder.key(utf8: UnsafeRawBufferPointer(bytes)) : builder.string(utf8: UnsafeRawBufferPointer(bytes))
        }
        if isKey {
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: repeatElement(0, count: count))
            let written = scratch.withUnsafeMutableBytes { XMLFastReader.replaceEntities(bytes, into: $0) }
            guard let written else { return nil }
            let key = scratch
            return key.withUnsafeBytes { builder.key(utf8: UnsafeRawBufferPointer(rebasing: $0[..<written])) }
        }
        // Entities only shorten the text: it is replaced straight into the tree.
        var valid = true
        let node = builder.string(maxCount: count) { out in
            guard let written = XMLFastReader.replaceEntities(bytes, into: out) else { valid = false; return 0 }
            return written
        }
        return valid ? node : nil
    }

    /// Copies `text` into `out` (as large) with the five predefined entities
    /// replaced: how many bytes were written, nil for another reference.
    private static func replaceEntities(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableRawBufferPointer) -> Int? {
        let count = text.count
        var k = 0
        var w = 0
        while k < count {
            let b = text[k]
            guard b == UInt8(ascii: "&") else { out[w] = b; w += 1; k += 1; continue }
            var semicolon = k + 1
            while semicolon < count, semicolon - k <= 5, text[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
            guard semicolon < count, text[semicolon] == UInt8(ascii: ";") else { return nil }
            let name = UnsafeBufferPointer(rebasing: text[(k + 1)..<semicolon])
            switch String(decoding: name, as: UTF8.self) {
            case "amp": out[w] = UInt8(ascii: "&")
            case "lt": out[w] = UInt8(ascii: "<")
            case "gt": out[w] = UInt8(ascii: ">")
            case "quot": out[w] = UInt8(ascii: "\"")
            case "apos": out[w] = UInt8(ascii: "'")
            default: return nil  // character references and other entities: libxml2's path
            }
            w += 1
            k = semicolon + 1
        }
        return w
    }

    /// Well-formed UTF-8 (surrogates and overlong forms are not). U+FFFE and
    /// U+FFFF, which XML 1.0 leaves out, are accepted as CoreFoundation accepts them.
    static func validUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = 0
        let count = b.count
        while k < count {
            let c = b[k]
            if c < 0x80 { k += 1; continue }
            @inline(__always) func cont(_ j: Int) -> Bool { j < count && b[j] & 0xC0 == 0x80 }
            switch c {
            case 0xC2...0xDF:
                guard cont(k + 1) else { return false }
                k += 2
            case 0xE0...0xEF:
                guard cont(k + 1), cont(k + 2) else { return false }
                let c1 = b[k + 1]
                if c == 0xE0, c1 < 0xA0 { return false }  // overlong
                if c == 0xED, c1 >= 0xA0 { return false }  // surrogates
                k += 3
            case 0xF0...0xF4:
                guard cont(k + 1), cont(k + 2), cont(k + 3) else { return false }
                let c1 = b[k + 1]
                if c == 0xF0, c1 < 0x90 { return false }
                if c == 0xF4, c1 >= 0x90 { return false }
                k += 4
            default:
                return false
            }
        }
        return true
    }
}
