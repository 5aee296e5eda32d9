/// Reads a binary cookie store (`Cookies.binarycookies`, CFNetwork's cookie
/// jar) into a `PlistTree`: an array of one dictionary per cookie, in file
/// order, with `domain`, `name`, `path`, `value` (and `comment` when the
/// record has one), `secure` and `httpOnly` (from the flags, kept raw as
/// `flags`), `expires` and `created` as dates, and the `page` and `record`
/// it was read from. Read-only: no writer writes this format.
///
/// The layout: `cook`, a big-endian page count and page sizes; pages that
/// start `00 00 01 00`, with a little-endian record count and record
/// offsets; records with little-endian sizes, flags and string offsets and
/// Cocoa-epoch doubles; then a big-endian checksum (the sum of every fourth
/// byte of each page), the footer `07 17 20 05` and, on newer files, the
/// length of a binary plist of cookie policy that follows (not read).
/// Every offset and length is checked against the buffer; a fault throws a
/// `PlistError` located at its byte offset.
package enum BinaryCookiesReader {
    /// The size of a record's fixed part, up to its strings.
    static let recordHeaderSize = 56
    static let footer: UInt32 = 0x0717_2005
    /// The record's strings in the order a cookie shows them, with the
    /// record offset of the word that holds each one's offset.
    static let stringFields = [("domain", 16), ("name", 20), ("path", 24), ("value", 28)]

    /// Reads a buffer.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        var reader = Reader(bytes: buffer)
        return PlistDocument(tree: try reader.readStore(limits: options.limits), format: .binary)
    }

    /// Reads bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var builder = PlistTreeBuilder()

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        func fail(_ message: String, at offset: Int) -> PlistError {
            PlistError(.corrupt, "binary cookies: \(message)", at: .binary(offset: offset, object: nil))
        }

        /// True when `count` bytes from `offset` lie inside `[start, end)`.
        func fits(_ offset: Int, _ count: Int, in start: Int = 0, _ end: Int? = nil) -> Bool {
            let end = end ?? bytes.count
            return offset >= start && count >= 0 && offset <= end && end - offset >= count
        }

        func u32be(_ o: Int, what: String) throws -> Int {
            guard fits(o, 4) else { throw fail("truncated: \(what) at offset \(o) runs past the end", at: o) }
            return Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
        }

        func u32le(_ o: Int, what: String, end: Int) throws -> Int {
            guard fits(o, 4, in: 0, end) else { throw fail("\(what) at offset \(o) runs past its end (\(end))", at: o) }
            return Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24
        }

        func doubleLE(_ o: Int, what: String, end: Int) throws -> Double {
            guard fits(o, 8, in: 0, end) else { throw fail("\(what) at offset \(o) runs past its end", at: o) }
            var bits: UInt64 = 0
            for i in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[o + i]) }
            let value = Double(bitPattern: bits)
            guard value.isFinite else { throw fail("\(what) at offset \(o) is not a finite number", at: o) }
            return value
        }

        mutating func readStore(limits: Limits) throws -> PlistTree {
            guard bytes.count >= 8, bytes[0] == UInt8(ascii: "c"), bytes[1] == UInt8(ascii: "o"),
                  bytes[2] == UInt8(ascii: "o"), bytes[3] == UInt8(ascii: "k") else {
                throw fail("not a binary cookie store (no `cook` header)", at: 0)
            }
            let pageCount = try u32be(4, what: "the page count")
            // Each page needs a 4-byte size and at least 12 bytes of its own.
            guard pageCount <= (bytes.count - 8) / 16 else {
                throw fail("\(pageCount) pages cannot fit in \(bytes.count) bytes", at: 4)
            }
            var pageStart = 8 + 4 * pageCount
            var checksum: UInt32 = 0
            var cookieIndex = 0
            let rootMark = builder.openArray()
            for page in 0..<pageCount {
                let size = try u32be(8 + 4 * page, what: "the size of page \(page)")
                guard fits(pageStart, size) else {
                    throw fail("page \(page) of \(size) bytes at offset \(pageStart) runs past the end (\(bytes.count) bytes)", at: 8 + 4 * page)
                }
                let pageEnd = pageStart + size
                try readPage(page, from: pageStart, to: pageEnd, cookieIndex: &cookieIndex, into: rootMark, limits: limits)
                var i = pageStart
                while i < pageEnd { checksum = checksum &+ UInt32(bytes[i]); i += 4 }
                pageStart = pageEnd
            }
            try readTrailer(at: pageStart, checksum: checksum)
            let node = builder.close(rootMark)
            return try builder.finish(root: node)
        }

        mutating func readPage(_ page: Int, from start: Int, to end: Int, cookieIndex: inout Int,
                               into rootMark: PlistTreeBuilder.ArrayMark, limits: Limits) throws {
            guard end - start >= 12 else { throw fail("page \(page) of \(end - start) bytes is too short", at: start) }
            guard bytes[start] == 0, bytes[start + 1] == 0, bytes[start + 2] == 1, bytes[start + 3] == 0 else {
                throw fail("page \(page) does not start with 00 00 01 00", at: start)
            }
            let count = try u32le(start + 4, what: "the record count of page \(page)", end: end)
            guard count <= (end - start - 12) / 4 else {
                throw fail("page \(page) claims \(count) records, more than its \(end - start) bytes hold", at: start + 4)
            }
            guard cookieIndex <= limits.maxObjects - count else {
                throw PlistError(.limitExceeded, "binary cookies: more than \(limits.maxObjects) cookies", at: .binary(offset: start + 4, object: nil))
            }
            for record in 0..<count {
                let offsetField = start + 8 + 4 * record
                let relative = try u32le(offsetField, what: "the offset of record \(record) of page \(page)", end: end)
                guard relative <= end - start else {
                    throw fail("record \(record) of page \(page) lies at \(relative), past the page's \(end - start) bytes", at: offsetField)
                }
                let cookie = try readRecord(at: start + relative, pageEnd: end, page: page, record: record)
                builder.append(cookie, to: rootMark)
                cookieIndex += 1
            }
        }

        mutating func readRecord(at start: Int, pageEnd: Int, page: Int, record: Int) throws -> Int {
            let size = try u32le(start, what: "the size of record \(record) of page \(page)", end: pageEnd)
            guard size >= BinaryCookiesReader.recordHeaderSize, fits(start, size, in: start, pageEnd) else {
                throw fail("record \(record) of page \(page) has a size of \(size) bytes, outside 56 and its page's end", at: start)
            }
            let end = start + size
            let flags = try u32le(start + 8, what: "the flags", end: end)
            let comment = try u32le(start + 32, what: "the comment offset", end: end)
            let expires = try doubleLE(start + 40, what: "the expiry date", end: end)
            let created = try doubleLE(start + 48, what: "the creation date", end: end)
            var mark = builder.openDictionary()
            func add(_ key: String, _ value: Int, to mark: inout PlistTreeBuilder.DictionaryMark) {
                _ = builder.add(key: builder.key(key), value: value, to: &mark)
            }
            for (key, field) in BinaryCookiesReader.stringFields {
                let node = try string(key, offsetField: start + field, record: start, end: end)
                add(key, node, to: &mark)
            }
            if comment != 0 {
                add("comment", try string("comment", offsetField: start + 32, record: start, end: end), to: &mark)
            }
            add("secure", builder.bool(flags & 1 != 0), to: &mark)
            add("httpOnly", builder.bool(flags & 4 != 0), to: &mark)
            add("flags", builder.integer(PlistInteger(Int64(flags))), to: &mark)
            add("expires", builder.date(PlistDate(secondsSinceReferenceDate: expires)), to: &mark)
            add("created", builder.date(PlistDate(secondsSinceReferenceDate: created)), to: &mark)
            add("page", builder.integer(PlistInteger(Int64(page))), to: &mark)
            add("record", builder.integer(PlistInteger(Int64(record))), to: &mark)
            return builder.close(mark)
        }

        /// The NUL-terminated UTF-8 string whose record-relative offset is at `offsetField`.
        mutating func string(_ what: String, offsetField: Int, record: Int, end: Int) throws -> Int {
            let relative = try u32le(offsetField, what: "the offset of the \(what)", end: end)
            guard relative >= BinaryCookiesReader.recordHeaderSize, relative < end - record else {
                throw fail("the \(what) offset \(relative) lies outside its record of \(end - record) bytes", at: offsetField)
            }
            let from = record + relative
            var nul = from
            while nul < end, bytes[nul] != 0 { nul += 1 }
            guard nul < end else { throw fail("the \(what) at offset \(from) has no terminating NUL inside its record", at: from) }
            let text = UnsafeRawBufferPointer(rebasing: bytes[from..<nul])
            guard String(decoding: text, as: UTF8.self).utf8.elementsEqual(text) else {
                throw PlistError(.encoding, "binary cookies: the \(what) at offset \(from) is not UTF-8", at: .binary(offset: from, object: nil))
            }
            return builder.string(utf8: text)
        }

        /// The checksum, the footer and the optional policy plist's length.
        func readTrailer(at start: Int, checksum: UInt32) throws {
            let stored = try u32be(start, what: "the checksum")
            guard UInt32(stored) == checksum else {
                throw fail("the checksum is \(stored), but the pages sum to \(checksum)", at: start)
            }
            guard try UInt32(u32be(start + 4, what: "the footer")) == BinaryCookiesReader.footer else {
                throw fail("the footer is not 07 17 20 05", at: start + 4)
            }
            let rest = bytes.count - (start + 8)
            guard rest > 0 else { return }
            let length = try u32be(start + 8, what: "the length of the cookie-policy plist")
            guard length == rest - 4 else {
                throw fail("the cookie-policy plist is said to be \(length) bytes, but \(rest - 4) follow", at: start + 8)
            }
        }
    }
}
