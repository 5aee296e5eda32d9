extension XMLCoreFoundationText {
    /// The copying pass of `rewrite(_:)`: markup is copied as it is, text as
    /// the element it belongs to needs (see `XMLCoreFoundationText`).
    struct Rewriter {
        private let bytes: UnsafeRawBufferPointer
        private let n: Int
        private var i = 0
        private(set) var out: [UInt8] = []
        private(set) var changed = false
        private(set) var marked = false

        /// The element whose text follows the last tag.
        private enum Text { case other, string, data }
        private var text = Text.other

        /// The bytes are UTF-8 (not another declared encoding).
        private let utf8: Bool

        init(_ bytes: UnsafeRawBufferPointer, utf8: Bool) {
            self.bytes = bytes
            self.utf8 = utf8
            n = bytes.count
            out.reserveCapacity(n + 64)
        }

        private func starts(_ s: StaticString, at k: Int) -> Bool {
            s.withUTF8Buffer { lit in
                guard k + lit.count <= n else { return false }
                for j in 0..<lit.count where bytes[k + j] != lit[j] { return false }
                return true
            }
        }

        mutating func run() {
            declarationFirst()
            while i < n {
                if bytes[i] == UInt8(ascii: "<") { markup() } else { textByte(cdata: false) }
            }
        }

        /// Whitespace between the start (or a UTF-8 BOM) and the XML
        /// declaration is moved after the declaration.
        private mutating func declarationFirst() {
            var k = 0
            if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { k = 3 }
            let spaceStart = k
            while k < n, XMLCoreFoundationText.isSpace(bytes[k]) { k += 1 }
            guard k > spaceStart, starts("<?xml", at: k), k + 5 < n, XMLCoreFoundationText.isSpace(bytes[k + 5]) else { return }
            var end = k
            while end + 1 < n, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
            guard end + 1 < n else { return }
            out.append(contentsOf: bytes[0..<spaceStart])
            out.append(contentsOf: bytes[k...(end + 1)])
            out.append(contentsOf: bytes[spaceStart..<k])
            i = end + 2
            changed = true
        }

        /// Writes the marker as a reference (right in any declared encoding)
        /// and its letter; in a CDATA section, between two sections.
        private mutating func mark(_ letter: UInt8, cdata: Bool) {
            if cdata { out.append(contentsOf: "]]>".utf8) }
            out.append(contentsOf: "&#xFDD0;".utf8)
            out.append(letter)
            if cdata { out.append(contentsOf: "<![CDATA[".utf8) }
            changed = true
            marked = true
        }

        /// Copies or rewrites the text byte at `i` (inside a CDATA section when `cdata`).
        private mutating func textByte(cdata: Bool) {
            let b = bytes[i]
            switch text {
            case .string:
                if b == 0x0D {
                    out.append(contentsOf: cdata ? Array("]]>&#13;<![CDATA[".utf8) : Array("&#13;".utf8))
                    changed = true
                    i += 1
                    return
                }
                if b < 0x20, let l = XMLCoreFoundationText.letter(for: UInt32(b)) { mark(l, cdata: cdata); i += 1; return }
                if b == 0xEF, utf8, let l = rawLetter() { mark(l, cdata: cdata); i += 3; return }
                if b == UInt8(ascii: "&"), !cdata, let (l, length) = reference() { mark(l, cdata: false); i += length; return }
            case .data:
                if b < 0x20, XMLCoreFoundationText.letter(for: UInt32(b)) != nil {
                    out.append(UInt8(ascii: "!"))
                    changed = true
                    i += 1
                    return
                }
            case .other:
                break
            }
            out.append(b)
            i += 1
        }

        /// The letter for U+FFFE, U+FFFF or U+FDD0 written raw in UTF-8 at `i`.
        private func rawLetter() -> UInt8? {
            guard i + 2 < n else { return nil }
            switch (bytes[i + 1], bytes[i + 2]) {
            case (0xBF, 0xBE): return UInt8(ascii: "a")
            case (0xBF, 0xBF): return UInt8(ascii: "b")
            case (0xB7, 0x90): return UInt8(ascii: "c")
            default: return nil
            }
        }

        /// A character reference at `i` to a character that gets a marker:
        /// its letter and length. `&#;` and `&#x;` are NUL to CoreFoundation.
        /// Other references are left to libxml2.
        private func reference() -> (UInt8, Int)? {
            guard i + 2 < n, bytes[i + 1] == UInt8(ascii: "#") else { return nil }
            var k = i + 2
            let hex = bytes[k] == UInt8(ascii: "x")
            if hex { k += 1 }
            var value: UInt32 = 0
            while k < n, bytes[k] != UInt8(ascii: ";") {
                let digit: UInt8?
                if hex { digit = TextInput.hexValue(bytes[k]) } else {
                    digit = bytes[k] >= 0x30 && bytes[k] <= 0x39 ? bytes[k] - 0x30 : nil
                }
                guard let digit, value <= 0x10FFFF else { return nil }
                value = value * (hex ? 16 : 10) + UInt32(digit)
                k += 1
            }
            guard k < n, let l = XMLCoreFoundationText.letter(for: value) else { return nil }
            return (l, k + 1 - i)
        }

        /// Copies a comment, CDATA section, processing instruction, declaration or tag at `i`.
        private mutating func markup() {
            if starts("<!--", at: i) {
                // CoreFoundation skips a comment: controls in it become `!`.
                while i < n, !starts("-->", at: i) {
                    let b = bytes[i]
                    if b < 0x20, XMLCoreFoundationText.letter(for: UInt32(b)) != nil { out.append(UInt8(ascii: "!")); changed = true } else { out.append(b) }
                    i += 1
                }
                copy(through: "-->")
            } else if starts("<![CDATA[", at: i) {
                out.append(contentsOf: "<![CDATA[".utf8)
                i += 9
                while i < n, !starts("]]>", at: i) { textByte(cdata: true) }
                copy(through: "]]>")
            } else if starts("<?", at: i) {
                copy(through: "?>")
            } else if starts("<!", at: i) {
                copyTag(brackets: true)
            } else {
                let start = i
                copyTag(brackets: false)
                let selfClosing = i - start >= 2 && bytes[i - 2] == UInt8(ascii: "/")
                if selfClosing {
                    text = .other
                } else if starts("<string>", at: start) || starts("<string ", at: start) || starts("<key>", at: start) || starts("<key ", at: start) {
                    text = .string
                } else if starts("<data>", at: start) || starts("<data ", at: start) {
                    text = .data
                } else {
                    text = .other
                }
            }
        }

        /// Copies up to and including `terminator`, or to the end.
        private mutating func copy(through terminator: StaticString) {
            while i < n, !starts(terminator, at: i) { out.append(bytes[i]); i += 1 }
            let end = min(n, i + terminator.utf8CodeUnitCount)
            out.append(contentsOf: bytes[i..<end])
            i = end
        }

        /// Copies a tag to its `>` outside quotes (and, for a declaration such
        /// as DOCTYPE, outside its `[internal subset]`).
        private mutating func copyTag(brackets: Bool) {
            var depth = 0
            var quote: UInt8 = 0
            while i < n {
                let c = bytes[i]
                out.append(c)
                i += 1
                if quote != 0 { if c == quote { quote = 0 }; continue }
                if c == 0x22 || c == 0x27 { quote = c }
                else if brackets, c == UInt8(ascii: "[") { depth += 1 }
                else if brackets, c == UInt8(ascii: "]") { depth -= 1 }
                else if c == UInt8(ascii: ">"), depth <= 0 { break }
            }
        }
    }
}
