#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the system has them: bytes, not always UTF-8.
///
/// A path is a `String` everywhere in Archivist; a name that is not UTF-8 (a
/// Latin-1 name from an old archive, say) keeps its bytes in it: each byte
/// 0x80-0xFF that is not part of valid UTF-8 stands as the code point
/// U+10FF80-U+10FFFF (the end of the last private-use plane), and so does
/// each byte of a real code point of that range, so the mapping goes both
/// ways for every name. `Sys` hands the bytes back to the system, and
/// terminal output shows those code points as `\xHH`. Names from folders
/// and from the command line (`CommandLineBytes`) are read this way.
package enum SystemPath {
    /// The first code point of the range that stands for single bytes.
    static let byteBase: UInt32 = 0x10FF00

    /// The text of a name (or path) the system gave as bytes.
    package static func string<C: Collection>(fromBytes bytes: C) -> String where C.Element == UInt8 {
        // ASCII, nearly every name: the text is its bytes (the stand-ins need bytes 0x80 and up).
        if case let text?? = bytes.withContiguousStorageIfAvailable({ b -> String? in
            for byte in b where byte >= 0x80 { return nil }
            return String(decoding: b, as: UTF8.self)
        }) {
            return text
        }
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self), !mayHoldRawBytes(text) { return text }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < array.count {
            let length = sequenceLength(array, at: i)
            if length > 0, let scalar = String(validating: array[i..<(i + length)], as: UTF8.self)?.unicodeScalars.first,
               scalar.value < byteBase + 0x80 {
                scalars.append(scalar)
                i += length
                continue
            }
            // A byte of no valid sequence, or of a code point in the range.
            let take = max(length, 1)
            for byte in array[i..<(i + take)] {
                if let escaped = Unicode.Scalar(byteBase + UInt32(byte)) { scalars.append(escaped) }
            }
            i += take
        }
        return String(scalars)
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or 0.
    private static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        return String(validating: bytes[i..<(i + length)], as: UTF8.self) == nil ? 0 : length
    }

    /// False when `text` holds none of the code points that stand for raw
    /// bytes (U+10FF80 and above start with the byte 0xF4; most paths have
    /// none). One `memchr` over the UTF-8 (each file of a batch asks this of
    /// several paths), where a `Sequence.contains` steps a byte at a time.
    @inline(__always)
    package static func mayHoldRawBytes(_ text: String) -> Bool {
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0xF4, bytes.count) != nil
        }
        return found ?? text.utf8.contains(0xF4)
    }

    /// Calls `body` with the path's bytes as the system names them (a
    /// C string).
    package static func with<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard mayHoldRawBytes(path) else { return try path.withCString(body) }
        var bytes: [CChar] = []
        bytes.reserveCapacity(path.utf8.count + 1)
        for scalar in path.unicodeScalars {
            if scalar.value >= byteBase + 0x80 {
                bytes.append(CChar(bitPattern: UInt8(truncatingIfNeeded: scalar.value - byteBase)))
            } else {
                for byte in String(scalar).utf8 { bytes.append(CChar(bitPattern: byte)) }
            }
        }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }
}
