import ArchivistCore

/// Names from archives (hostile input) as they may appear in generated Swift:
/// only identifiers reach declarations, and text in comments cannot end the
/// comment.
enum SwiftNames {
    /// The words Swift reserves, which a name from an archive cannot be.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "protocol", "public", "static", "struct", "subscript", "typealias", "var", "break",
        "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows", "super", "self", "Self", "throw", "throws",
        "true", "try", "Any", "Type",
    ]

    /// A Swift property name for a key: the key when it is a plain identifier,
    /// else its camelCase form.
    static func identifier(_ key: String) -> String {
        let isIdentifier = key.first.map { $0 == "_" || $0.isLetter } == true
            && key.allSatisfy { $0 == "_" || (($0.isLetter || $0.isNumber) && $0.isASCII) }
        if isIdentifier, !keywords.contains(key) { return key }
        let camel = camelCase(key)
        if camel.isEmpty { return "field" }
        return keywords.contains(camel) ? "`\(camel)`" : camel
    }

    /// `cpu_name` -> `cpuName`, `Title` -> `title`; Swift-style names stay.
    static func camelCase(_ key: String) -> String {
        let words = key.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        guard let first = words.first else { return key }
        var out = first.prefix(1).lowercased() + first.dropFirst()
        for word in words.dropFirst() { out += word.prefix(1).uppercased() + word.dropFirst() }
        if let c = out.first, c.isNumber { out = "_" + out }
        return out
    }

    /// True for a plain ASCII Swift identifier that is not a keyword.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
            && !keywords.contains(name)
    }

    /// True for a type as Swift code names it: identifiers joined by dots
    /// (`CPU.CPUCoder`).
    static func isTypePath(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { isIdentifier(String($0)) }
    }

    /// True for a type expression from a class name: dotted identifiers,
    /// possibly generic (`Box<Swift.String>`, as the demangler spells it).
    static func isTypeExpression(_ name: String) -> Bool {
        let punctuation: Set<Character> = [".", "<", ">", ",", " "]
        let parts = name.split { punctuation.contains($0) }
        return !parts.isEmpty && parts.allSatisfy { isIdentifier(String($0)) } && isTypePath(String(name.prefix { $0 != "<" }))
    }

    /// A type name made from any text: itself when it is an identifier, else
    /// its words in UpperCamelCase (letters and digits only), `Type` when none.
    static func typeIdentifier(_ name: String) -> String {
        if isIdentifier(name) { return name }
        let words = name.split { !(($0.isLetter || $0.isNumber) && $0.isASCII) }
        let camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = camel.first else { return "Type" }
        let out = first.isNumber ? "T" + camel : camel
        return isIdentifier(out) ? out : out + "_"
    }

    /// Text for a `//` comment: control characters (a line break would end
    /// the comment) and line or paragraph separators written as `\u{...}`.
    static func comment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x85 {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Swift property names for keys, all different: a key that is a Swift
    /// name keeps it; another gets its camelCase form (`identifier(_:)`),
    /// with the suffix `Field` when `avoiding` has it, and a number when an
    /// earlier key took it, whatever the order of the keys.
    /// With `lowerCamel`, names start in lower case as Swift properties do
    /// (`Title` is `title`, `URLString` is `urlString`).
    static func propertyNames(for keys: [String], avoiding reserved: Set<String>, lowerCamel: Bool = false) -> [String] {
        let wanted = keys.map { key -> String in
            let name = lowerCamel ? lowerCamelName(identifier(key)) : identifier(key)
            return reserved.contains(name) ? name + "Field" : name
        }
        // A key keeps its own name unless an earlier key kept one that reads
        // the same: `é` and `e` + U+0301 are two keys, so two names. `used`
        // compares canonically on purpose: names must differ to the reader.
        var used = Set<String>()
        let keeps = zip(keys, wanted).map { PlistKeys.same($0.0, $0.1) && used.insert($0.1).inserted }
        return wanted.indices.map { position in
            let wanted = wanted[position]
            if keeps[position] { return wanted }
            var name = wanted
            let base = name.filter { $0 != "`" }
            var n = 2
            while !used.insert(name).inserted {
                name = base + String(n)
                n += 1
            }
            return name
        }
    }

    /// An identifier with its leading capitals in lower case (`ID` is `id`,
    /// `URLString` is `urlString`); itself when that would be a keyword or it
    /// is already quoted with backticks.
    static func lowerCamelName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        let capitals = scalars.prefix { $0.value >= 0x41 && $0.value <= 0x5A }.count
        guard capitals > 0 else { return name }
        // In `URLString` the `S` starts the next word.
        let lowered = capitals == scalars.count || capitals == 1 ? capitals : capitals - 1
        var out = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            out.append(i < lowered ? (Unicode.Scalar(scalar.value + 0x20) ?? scalar) : scalar)
        }
        let result = String(out)
        return keywords.contains(result) ? name : result
    }

    /// Members of `NSObject` a stored property of a subclass cannot be named.
    static let objectMembers: Set<String> = [
        "description", "debugDescription", "hash", "hashValue", "superclass", "classForCoder", "classForKeyedArchiver",
        "isProxy", "copy", "mutableCopy", "zone", "supportsSecureCoding",
    ]

    private static func isLetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }
}
