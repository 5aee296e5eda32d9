import ArchivistCore

/// One Objective-C type encoding of a typedstream's typed-value group
/// (`@`, `i`, `+`, `[16c]`, `{_NSRange=QQ}`...).
indirect enum TypeEncoding: Equatable {
    /// A single-character type: `@ # * + % : ! B C c S s I i L l Q q f d`.
    case scalar(UInt8)
    /// `[N type]`: a fixed count of one type (bytes for `c` and `C`).
    case array(count: Int, element: TypeEncoding)
    /// `{name=fields}`.
    case structure(name: String, fields: [TypeEncoding])

    /// The characters read as single-character types.
    static let scalars: Set<UInt8> = Set("@#*+%:!BCcSsIiLlQqfd".utf8)
    /// How deeply structures and arrays may nest in one encoding.
    static let maxDepth = 32

    /// Splits an encoding string into its types (`iI` is two integers).
    static func parse(_ text: [UInt8], at cursor: TypedstreamCursor) throws -> [TypeEncoding] {
        var parser = Parser(text: text, cursor: cursor)
        var out: [TypeEncoding] = []
        while parser.index < text.count { out.append(try parser.one(depth: 0)) }
        guard !out.isEmpty else { throw cursor.error("empty type encoding") }
        return out
    }

    private struct Parser {
        let text: [UInt8]
        let cursor: TypedstreamCursor
        var index = 0

        func fail(_ why: String) -> PlistError {
            cursor.error("type encoding \"\(String(decoding: text, as: UTF8.self))\": \(why)")
        }

        mutating func one(depth: Int) throws -> TypeEncoding {
            guard depth < TypeEncoding.maxDepth else { throw fail("nested more than \(TypeEncoding.maxDepth) levels") }
            guard index < text.count else { throw fail("ends inside a type") }
            let c = text[index]
            index += 1
            switch c {
            case UInt8(ascii: "["):
                var count = 0
                while index < text.count, (0x30...0x39).contains(text[index]) {
                    let (times, o1) = count.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(Int(text[index] - 0x30))
                    guard !o1, !o2, sum <= Int(Int32.max) else { throw fail("array count too large") }
                    count = sum
                    index += 1
                }
                let element = try one(depth: depth + 1)
                guard index < text.count, text[index] == UInt8(ascii: "]") else { throw fail("unterminated array") }
                index += 1
                return .array(count: count, element: element)
            case UInt8(ascii: "{"):
                let start = index
                while index < text.count, text[index] != UInt8(ascii: "="), text[index] != UInt8(ascii: "}") { index += 1 }
                let name = String(decoding: text[start..<index], as: UTF8.self)
                var fields: [TypeEncoding] = []
                if index < text.count, text[index] == UInt8(ascii: "=") {
                    index += 1
                    while index < text.count, text[index] != UInt8(ascii: "}") { fields.append(try one(depth: depth + 1)) }
                }
                guard index < text.count, text[index] == UInt8(ascii: "}") else { throw fail("unterminated structure") }
                index += 1
                return .structure(name: name, fields: fields)
            default:
                guard TypeEncoding.scalars.contains(c) else { throw fail("unknown type '\(Character(Unicode.Scalar(c)))'") }
                return .scalar(c)
            }
        }
    }
}
