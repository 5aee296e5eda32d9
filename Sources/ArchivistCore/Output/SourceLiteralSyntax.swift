/// The languages `SourceLiteralWriter` writes, as `plutil -convert` names them.
package enum SourceLanguage: String, Sendable, CaseIterable {
    /// Swift: `let NAME: [String: Any] = [ "key" : 1, ]`.
    case swift
    /// Objective-C: `NSDictionary * const NAME = @{ @"key" : @1, };`.
    case objc

    /// The extension of a source file in the language (`swift`, `m`).
    package var fileExtension: String { self == .swift ? "swift" : "m" }

    /// The constant's name for a file name: its base name without the
    /// extension, every character but ASCII letters, digits and `_` replaced
    /// by `_`, `_` in front of a leading digit or a keyword; `plist` when no
    /// letter or digit is left (standard input, `-`).
    package static func identifier(from fileName: String) -> String {
        var base = Substring(fileName.split(separator: "/").last ?? "")
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        var name = String(base.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") ? Character($0) : "_" })
        if !name.contains(where: { $0 != "_" }) { return "plist" }
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) || keywords.contains(name) { name = "_" + name }
        return name
    }

    /// Words of either language that cannot name a constant.
    private static let keywords: Set<String> = [
        "let", "var", "func", "class", "struct", "enum", "protocol", "extension", "import", "return", "if", "else",
        "for", "while", "do", "switch", "case", "default", "break", "continue", "in", "is", "as", "self", "Self",
        "true", "false", "nil", "try", "throw", "throws", "static", "public", "private", "internal", "init", "deinit",
        "subscript", "typealias", "operator", "where", "guard", "defer", "repeat", "Any", "Type", "inout", "super",
        "int", "char", "long", "short", "float", "double", "void", "const", "static", "extern", "signed", "unsigned",
        "id", "YES", "NO", "NULL", "sizeof", "typedef", "union", "volatile", "register", "auto", "goto", "inline",
    ]

    /// A file name as it may stand in a `///` comment: control characters
    /// (a line break would end the comment) become U+FFFD.
    static func commentSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }))
    }
}

/// How one language spells the parts of a literal: strings, numbers,
/// brackets, the declaration and the type a mixed container needs.
struct SourceLiteralSyntax {
    /// What the elements of a container are, for Swift's type inference.
    enum ElementKind: Equatable {
        /// No element yet.
        case empty
        case string, integer, real, bool
        /// An integer beyond `Int64.max` (`as UInt64`), a container: never shared.
        case other, container
    }

    let language: SourceLanguage

    var isSwift: Bool { language == .swift }
    var openArray: StaticString { isSwift ? "[" : "@[" }
    var openDictionary: StaticString { isSwift ? "[" : "@{" }
    /// An empty container: its opening bracket was already written.
    var emptyArray: StaticString { "]" }
    var emptyDictionary: StaticString { isSwift ? ":]" : "}" }
    var closeArray: UInt8 { UInt8(ascii: "]") }
    var closeDictionary: UInt8 { UInt8(ascii: isSwift ? "]" : "}") }
    var arrayType: StaticString { " as [Any]" }
    var dictionaryType: StaticString { " as [String: Any]" }
    var statementEnd: StaticString { isSwift ? "" : ";" }

    /// Whether a nested container is written with its type: in Swift, unless
    /// its elements are all strings, all integers, all reals or all booleans.
    func needsType(elements: ElementKind?, count: Int) -> Bool {
        guard isSwift else { return false }
        switch elements {
        case .string?, .integer?, .real?, .bool?: return count == 0
        case .empty?, .other?, .container?, nil: return true
        }
    }

    /// `let NAME: [String: Any] = ` or `__attribute__((visibility("hidden")))\nNSDictionary * const NAME = `.
    func declaration(_ identifier: String, of root: PlistItem) -> String {
        if isSwift {
            switch root {
            case .array: return "let \(identifier): [Any] = "
            case .dictionary: return "let \(identifier): [String: Any] = "
            default: return "let \(identifier) = "
            }
        }
        let type: String
        switch root {
        case .array: type = "NSArray"
        case .dictionary: type = "NSDictionary"
        case .string: type = "NSString"
        default: type = "NSNumber"
        }
        return "__attribute__((visibility(\"hidden\")))\n\(type) * const \(identifier) = "
    }

    /// Appends a scalar and returns its kind, or nil (appending nothing) for
    /// a kind the language's literals lack.
    func appendScalar(_ item: PlistItem, scratch: inout [UInt8], into out: ByteSink) throws -> ElementKind? {
        switch item {
        case .string(let text):
            appendString(text, scratch: &scratch, into: out)
            return .string
        case .integer(let i):
            return appendInteger(i, into: out)
        case .real(let r):
            appendReal(r.value, into: out)
            return .real
        case .bool(let b):
            if isSwift { out.append(b ? "true" : "false" as StaticString) } else { out.append(b ? "@YES" : "@NO" as StaticString) }
            return .bool
        case .date, .data, .uid, .null, .array, .dictionary:
            return nil
        }
    }

    /// `42`, `-7`, `18446744073709551615 as UInt64`; in Objective-C `@42`,
    /// `@18446744073709551615ULL`, `@(-9223372036854775807LL - 1)`.
    private func appendInteger(_ i: PlistInteger, into out: ByteSink) -> ElementKind {
        if i.isUnsignedBeyondInt64 {
            if !isSwift { out.append(UInt8(ascii: "@")) }
            out.appendDecimal(i)
            out.append(isSwift ? " as UInt64" : "ULL" as StaticString)
            return .other
        }
        if !isSwift, i.int64Value == Int64.min {
            out.append("@(-9223372036854775807LL - 1)")
            return .integer
        }
        if !isSwift { out.append(UInt8(ascii: "@")) }
        out.appendDecimal(i)
        return .integer
    }

    /// The shortest text that reads back to the same `Double` (`1.5`, `1e+20`,
    /// `-0.0`, valid in both languages); infinities and NaN by name.
    private func appendReal(_ value: Double, into out: ByteSink) {
        if value.isFinite {
            if !isSwift { out.append(UInt8(ascii: "@")) }
            out.append(utf8: value.description)
        } else if value.isNaN {
            out.append(isSwift ? "Double.nan" : "@(NAN)" as StaticString)
        } else if value < 0 {
            out.append(isSwift ? "-Double.infinity" : "@(-INFINITY)" as StaticString)
        } else {
            out.append(isSwift ? "Double.infinity" : "@(INFINITY)" as StaticString)
        }
    }

    /// A quoted string literal: `"…"` in Swift, `@"…"` in Objective-C.
    func appendString(_ text: TextBytes, scratch: inout [UInt8], into out: ByteSink) {
        text.withUTF8(scratch: &scratch) { bytes in
            out.append(utf8: isSwift ? SourceStringEscaping.swift(String(decoding: bytes, as: UTF8.self))
                                     : SourceStringEscaping.objc(String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// The error for a node of a kind the language's literals lack, at `path`.
    func notRepresentable(_ kind: PlistKind, at path: String) -> PlistError {
        let place = path.isEmpty ? "at the top level" : "at \"\(path)\""
        let languageName = isSwift ? "Swift" : "Objective-C"
        return PlistError(.notRepresentable,
                          "\(languageName) literal syntax has no \(kind.name): the \(kind.name) \(place) cannot be written (literals hold strings, numbers, booleans, arrays and dictionaries, as plutil's -convert \(language.rawValue) does; write xml1, binary1 or json instead)")
    }
}
