/// A `.strings` file as it was read: its text, its encoding and where each
/// `"key" = "value";` pair lies, so that writing it back as OpenStep keeps
/// what a tree does not hold. Comments and blank lines travel with the pair
/// they precede (a removed key takes its comment with it), an unchanged pair
/// is written as it was, a changed value is written in place, a new key goes
/// after the last pair, and UTF-16 text stays UTF-16 with its byte order mark.
package final class StringsFileTemplate: Sendable, Equatable {
    /// One pair: the comments and space before it start at `start`; the
    /// value's text lies in `value` (nil for `key;`); `end` is after its `;`.
    struct Pair: Sendable {
        var start: Int
        var key: Range<Int>
        var value: Range<Int>?
        var end: Int
    }

    /// The text as UTF-8, without a byte order mark.
    let text: [UInt8]
    /// The encoding and byte order mark the file had.
    let encoding: TextDecoding.Encoding
    let hadBOM: Bool
    let pairs: [Pair]
    /// The values as read, one per pair (the tree's entries are in file order).
    let values: [[UInt8]]
    /// The keys as read.
    let keys: [[UInt8]]

    private init(text: [UInt8], encoding: TextDecoding.Encoding, hadBOM: Bool, pairs: [Pair], keys: [[UInt8]], values: [[UInt8]]) {
        self.text = text
        self.encoding = encoding
        self.hadBOM = hadBOM
        self.pairs = pairs
        self.keys = keys
        self.values = values
    }

    package static func == (a: StringsFileTemplate, b: StringsFileTemplate) -> Bool { a === b }

    /// The template of a strings file read into `tree` from `text` (UTF-8,
    /// transcoded if the file was not), or nil when `text` is not a strings
    /// file of string values with one pair per key.
    static func make(text: UnsafeRawBufferPointer, raw: UnsafeRawBufferPointer, tree: PlistTree) -> StringsFileTemplate? {
        let bom = TextDecoding.detectBOM(raw)
        if let bom, bom.encoding == .utf32BE || bom.encoding == .utf32LE { return nil }
        let text = text.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeRawBufferPointer(rebasing: text[3...]) : text
        guard tree.kind(of: tree.root) == .dictionary, let pairs = scan(text), tree.count(of: tree.root) == pairs.count else { return nil }
        var keys: [[UInt8]] = [], values: [[UInt8]] = []
        for i in 0..<pairs.count {
            let (key, value) = tree.entry(i, of: tree.root)
            guard let k = tree.string(at: key), let v = tree.string(at: value) else { return nil }
            keys.append(Array(k.utf8))
            values.append(Array(v.utf8))
        }
        return StringsFileTemplate(text: Array(text), encoding: bom?.encoding ?? .utf8, hadBOM: bom != nil, pairs: pairs, keys: keys, values: values)
    }

    // MARK: - Scanning

    /// The pairs of a strings file, or nil when the text is not one (a
    /// top-level `{`, `(` or `<`, or anything this scanner does not follow).
    static func scan(_ t: UnsafeRawBufferPointer) -> [Pair]? {
        var i = 0, start = 0
        var pairs: [Pair] = []
        func skipTrivia() -> Bool {
            while i < t.count {
                let b = t[i]
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B {
                    i += 1
                } else if b == UInt8(ascii: "/"), i + 1 < t.count, t[i + 1] == UInt8(ascii: "/") {
                    while i < t.count, t[i] != 0x0A { i += 1 }
                } else if b == UInt8(ascii: "/"), i + 1 < t.count, t[i + 1] == UInt8(ascii: "*") {
                    i += 2
                    while i + 1 < t.count, !(t[i] == UInt8(ascii: "*") && t[i + 1] == UInt8(ascii: "/")) { i += 1 }
                    guard i + 1 < t.count else { return false }
                    i += 2
                } else {
                    return true
                }
            }
            return true
        }
        func scanString() -> Range<Int>? {
            let from = i
            guard i < t.count else { return nil }
            let q = t[i]
            if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                i += 1
                while i < t.count, t[i] != q { i += t[i] == UInt8(ascii: "\\") ? 2 : 1 }
                guard i < t.count else { return nil }
                i += 1
                return from..<i
            }
            while i < t.count, OpenStepParser.isUnquotedCharacter(t[i]) { i += 1 }
            return i > from ? from..<i : nil
        }
        while true {
            guard skipTrivia() else { return nil }
            if i == t.count { break }
            guard let key = scanString(), skipTrivia(), i < t.count else { return nil }
            var value: Range<Int>?
            if t[i] == UInt8(ascii: "=") {
                i += 1
                guard skipTrivia(), let v = scanString(), skipTrivia(), i < t.count else { return nil }
                value = v
            }
            guard t[i] == UInt8(ascii: ";") else { return nil }
            i += 1
            pairs.append(Pair(start: start, key: key, value: value, end: i))
            start = i
        }
        return pairs
    }

    // MARK: - Writing

    /// Appends `source` written over this template to `out`, or returns false
    /// (writing nothing) when `source` is not a dictionary of strings.
    func write<S: PlistNodes>(_ source: inout S, into out: ByteSink) throws -> Bool {
        guard case .dictionary(let count) = try source.item(source.rootNode) else { return false }
        var scratch: [UInt8] = []
        var entries: [(key: [UInt8], value: [UInt8])] = []
        var byKey: [[UInt8]: Int] = [:]
        for i in 0..<count {
            guard case .string(let key) = try source.item(try source.key(i, of: source.rootNode)),
                  case .string(let value) = try source.item(try source.value(i, of: source.rootNode)) else { return false }
            let k = key.withUTF8(scratch: &scratch) { Array($0) }
            let v = value.withUTF8(scratch: &scratch) { Array($0) }
            byKey[k] = entries.count
            entries.append((k, v))
        }
        let utf8 = ByteSink()
        if hadBOM, encoding == .utf8 { utf8.append([0xEF, 0xBB, 0xBF]) }
        var written = Set<Int>()
        let lastEnd = pairs.last?.end ?? 0
        for (n, var pair) in pairs.enumerated() {
            guard let e = byKey[keys[n]] else { continue }
            if written.isEmpty, n > 0 {
                // The first pair now: it starts as the file started, not after a blank line.
                pair.start = leadingSpaceEnd(of: pair)
                utf8.append(text[pairs[0].start..<leadingSpaceEnd(of: pairs[0])])
            }
            written.insert(e)
            if entries[e].value == values[n] {
                utf8.append(text[pair.start..<pair.end])
            } else if let value = pair.value {
                utf8.append(text[pair.start..<value.lowerBound])
                appendQuoted(entries[e].value, into: utf8)
                utf8.append(text[value.upperBound..<pair.end])
            } else {
                utf8.append(text[pair.start..<pair.key.upperBound])
                utf8.append(" = ")
                appendQuoted(entries[e].value, into: utf8)
                utf8.append(";")
            }
        }
        for (e, entry) in entries.enumerated() where !written.contains(e) {
            utf8.append(0x0A)
            appendQuoted(entry.key, into: utf8)
            utf8.append(" = ")
            appendQuoted(entry.value, into: utf8)
            utf8.append(";")
        }
        utf8.append(text[lastEnd...])
        let bytes = utf8.bytes()
        switch encoding {
        case .utf16LE, .utf16BE:
            let little = encoding == .utf16LE
            out.append(little ? [0xFF, 0xFE] : [0xFE, 0xFF])
            for unit in String(decoding: bytes, as: UTF8.self).utf16 {
                let pair = little ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
                out.append(pair)
            }
        case .utf8, .utf32BE, .utf32LE:
            out.append(bytes)
        }
        return true
    }

    /// Where the white space before a pair's comments (or key) ends.
    private func leadingSpaceEnd(of pair: Pair) -> Int {
        var i = pair.start
        while i < pair.key.lowerBound, text[i] == 0x20 || text[i] == 0x09 || text[i] == 0x0A || text[i] == 0x0D { i += 1 }
        return i
    }

    private func appendQuoted(_ bytes: [UInt8], into out: ByteSink) {
        bytes.withUnsafeBufferPointer { out.appendQuoted($0, escaping: OpenStepEscaping()) }
    }
}

extension ByteSink {
    fileprivate func append(_ slice: ArraySlice<UInt8>) {
        slice.withUnsafeBufferPointer { append($0) }
    }
}
