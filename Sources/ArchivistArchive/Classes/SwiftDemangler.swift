/// Turns the Objective-C runtime names of Swift classes (`_TtC8MusicBox8Computer`,
/// `_TtCV8MusicBox3CPU8CPUCoder`, `_TtGC4Main3BoxSS_`) into their readable
/// form (`MusicBox.Computer`, `MusicBox.CPU.CPUCoder`, `Main.Box<Swift.String>`).
/// Anything it does not understand gives nil, never a crash.
package enum SwiftDemangler {
    /// The readable name, or nil when `name` is not a mangled Swift class name
    /// this demangler understands.
    package static func demangle(_ name: String) -> String? {
        WorkCounter.note(.demangle)
        let bytes = Array(name.utf8)
        guard bytes.count > 4, bytes.starts(with: "_Tt".utf8) else { return nil }
        var parser = Parser(bytes: bytes, i: 3)
        guard let result = parser.type(), parser.i == bytes.count else { return nil }
        return result
    }

    private struct Parser {
        let bytes: [UInt8]
        var i: Int
        var depth = 0

        /// A nominal type (`C`, `V`, `O` chains), a generic (`G`), or a standard type (`S?`).
        mutating func type() -> String? {
            guard i < bytes.count, depth < 32 else { return nil }
            depth += 1
            defer { depth -= 1 }
            switch bytes[i] {
            case UInt8(ascii: "G"):
                i += 1
                guard let base = type() else { return nil }
                var args: [String] = []
                while i < bytes.count, bytes[i] != UInt8(ascii: "_") {
                    guard let arg = type() else { return nil }
                    args.append(arg)
                }
                guard i < bytes.count, !args.isEmpty else { return nil }
                i += 1 // the closing `_`
                return base + "<" + args.joined(separator: ", ") + ">"
            case UInt8(ascii: "S"):
                i += 1
                guard i < bytes.count else { return nil }
                let code = bytes[i]
                i += 1
                switch code {
                case UInt8(ascii: "S"): return "Swift.String"
                case UInt8(ascii: "i"): return "Swift.Int"
                case UInt8(ascii: "u"): return "Swift.UInt"
                case UInt8(ascii: "d"): return "Swift.Double"
                case UInt8(ascii: "f"): return "Swift.Float"
                case UInt8(ascii: "b"): return "Swift.Bool"
                default: return nil
                }
            default:
                return nominal()
            }
        }

        /// `C`/`V`/`O` kinds (innermost first), then the module, then the names
        /// (outermost first).
        mutating func nominal() -> String? {
            var kinds = 0
            while i < bytes.count, [UInt8(ascii: "C"), UInt8(ascii: "V"), UInt8(ascii: "O")].contains(bytes[i]) {
                kinds += 1
                i += 1
            }
            guard kinds > 0, let module = moduleName() else { return nil }
            var parts = [module]
            for _ in 0..<kinds {
                guard let name = identifier() else { return nil }
                parts.append(name)
            }
            return parts.joined(separator: ".")
        }

        mutating func moduleName() -> String? {
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "s") {
                i += 1
                return "Swift"
            }
            if bytes[i] == UInt8(ascii: "S"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "o") {
                i += 2
                return "__C"
            }
            return identifier()
        }

        /// A decimal length followed by that many bytes of name.
        mutating func identifier() -> String? {
            var length = 0
            var digits = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                if digits == 0, bytes[i] == 0x30 { return nil }
                length = length * 10 + Int(bytes[i] - 0x30)
                digits += 1
                i += 1
                if digits > 6 { return nil }
            }
            guard digits > 0, length <= bytes.count - i else { return nil }
            let name = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
            i += length
            return name
        }
    }
}
