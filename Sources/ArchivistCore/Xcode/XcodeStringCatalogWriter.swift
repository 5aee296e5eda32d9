/// Writes a string catalog (`.xcstrings`: a dictionary of `sourceLanguage`,
/// `strings` and `version`) as Xcode writes it, so that a catalog Xcode
/// wrote reads and writes back byte for byte:
///
/// - two spaces of indentation, `"key" : value` with a space before the colon;
/// - keys sorted as Foundation's `JSONSerialization` sorts them (numbers by
///   value, letters without regard to case, lower case first on a tie);
/// - an empty dictionary or array on three lines (`{`, an empty line, `}`);
/// - `/` not escaped, no newline after the last `}`.
package enum XcodeStringCatalogWriter {
    /// True when `source` is a string catalog.
    package static func isCatalog<S: PlistNodes>(_ source: inout S) throws -> Bool {
        let root = source.rootNode
        guard case .dictionary(let count) = try source.item(root), count >= 3, count <= 8 else { return false }
        var scratch: [UInt8] = []
        guard let language = try XcodeProjectIndex.node(forKey: "sourceLanguage", in: root, &source, scratch: &scratch),
              case .string = try source.item(language),
              let strings = try XcodeProjectIndex.node(forKey: "strings", in: root, &source, scratch: &scratch),
              case .dictionary = try source.item(strings),
              let version = try XcodeProjectIndex.node(forKey: "version", in: root, &source, scratch: &scratch),
              case .string = try source.item(version) else { return false }
        return true
    }

    /// Appends the catalog `source` in Xcode's layout to `out`.
    package static func write<S: PlistNodes>(_ source: inout S, into out: ByteSink) throws {
        var scratch: [UInt8] = []
        try write(source.rootNode, indent: 0, &source, scratch: &scratch, into: out)
    }

    private static func write<S: PlistNodes>(_ node: Int, indent: Int, _ source: inout S, scratch: inout [UInt8], into out: ByteSink) throws {
        let item = try source.item(node)
        switch item {
        case .array(let count), .dictionary(let count):
            guard indent < 512 else { throw PlistError(.limitExceeded, "a string catalog nested more than 512 containers deep") }
            try source.enter(node, depth: indent)
            defer { source.leave(node) }
            let isArray: Bool
            if case .array = item { isArray = true } else { isArray = false }
            out.append(isArray ? UInt8(ascii: "[") : UInt8(ascii: "{"))
            out.append(0x0A)
            if count == 0 { out.append(0x0A) }
            if isArray {
                for i in 0..<count {
                    if i > 0 { out.append(",\n") }
                    out.append(repeating: 0x20, count: 2 * (indent + 1))
                    try write(try source.element(i, of: node), indent: indent + 1, &source, scratch: &scratch, into: out)
                }
            } else {
                for (n, entry) in try sortedEntries(node, count: count, &source, scratch: &scratch).enumerated() {
                    if n > 0 { out.append(",\n") }
                    out.append(repeating: 0x20, count: 2 * (indent + 1))
                    try JSONPlistWriter.writeScalar(try source.item(entry.keyNode), pretty: true, encoderStyle: false, scratch: &scratch,
                                                    keyPath: { "" }, into: out)
                    out.append(" : ")
                    try write(entry.value, indent: indent + 1, &source, scratch: &scratch, into: out)
                }
            }
            if count > 0 { out.append(0x0A) }
            out.append(repeating: 0x20, count: 2 * indent)
            out.append(isArray ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        default:
            try JSONPlistWriter.writeScalar(item, pretty: true, encoderStyle: false, scratch: &scratch, keyPath: { "" }, into: out)
        }
    }

    private static func sortedEntries<S: PlistNodes>(_ node: Int, count: Int, _ source: inout S,
                                                     scratch: inout [UInt8]) throws -> [(key: [Unicode.Scalar], keyNode: Int, value: Int)] {
        var entries: [(key: [Unicode.Scalar], keyNode: Int, value: Int)] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            let keyNode = try source.key(i, of: node)
            let key = try XcodeProjectIndex.text(keyNode, &source, scratch: &scratch) ?? ""
            entries.append((Array(key.unicodeScalars), keyNode, try source.value(i, of: node)))
        }
        entries.sort { precedes($0.key, $1.key) }
        return entries
    }

    /// Foundation's `compare(_:options: [.numeric, .caseInsensitive, .forcedOrdering])`:
    /// runs of digits compare by value, other characters without regard to
    /// case; texts equal so far are ordered by their first difference, lower case first.
    static func precedes(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let (x, nextI) = digitRun(a, from: i), (y, nextJ) = digitRun(b, from: j)
                if x.count != y.count { return x.count < y.count }
                if x != y { return x.lexicographicallyPrecedes(y) }
                i = nextI; j = nextJ
                continue
            }
            let x = folded(a[i]), y = folded(b[j])
            if x != y { return x < y }
            i += 1; j += 1
        }
        if i < a.count || j < b.count { return j < b.count }
        for (x, y) in zip(a, b) where x != y {
            if folded(x) == folded(y) { return x.properties.isLowercase }
            return x.value < y.value
        }
        return a.count < b.count
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    /// The digits of the run at `start` without leading zeros, and where it ends.
    private static func digitRun(_ s: [Unicode.Scalar], from start: Int) -> (ArraySlice<UInt32>, Int) {
        var end = start
        while end < s.count, isDigit(s[end]) { end += 1 }
        var first = start
        while first < end - 1, s[first].value == 0x30 { first += 1 }
        return (ArraySlice(s[first..<end].map(\.value)), end)
    }

    private static func folded(_ s: Unicode.Scalar) -> UInt32 {
        if s.value < 0x80 {
            return s.value >= 0x41 && s.value <= 0x5A ? s.value + 0x20 : s.value
        }
        let lower = s.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first?.value ?? s.value : s.value
    }
}
