/// The backslash escapes of a text writer's quoted strings (JSON, OpenStep):
/// which bytes are escaped, and how.
protocol BackslashEscaping {
    /// Whether `byte` is written as an escape.
    func needsEscape(_ byte: UInt8) -> Bool
    /// The character written after the backslash for an escaped `byte`, or nil
    /// to write it in hexadecimal after `hexEscapePrefix`.
    func letter(for byte: UInt8) -> UInt8?
    /// What comes between the backslash and the two hexadecimal digits of a
    /// byte escaped in hexadecimal (`u00` in JSON's `\u001F`).
    static var hexEscapePrefix: StaticString { get }
}

extension ByteSink {
    /// Appends `bytes` between two double quotes, the ones `style` escapes
    /// written as a backslash and a character or a backslash and lower-case
    /// hexadecimal. Text with nothing to escape (most of it) is found so by
    /// one pass and copied whole behind one check of the room left.
    @inline(__always)
    func appendQuoted<Style: BackslashEscaping>(_ bytes: UnsafeBufferPointer<UInt8>, escaping style: Style) {
        let n = bytes.count
        var first = 0
        while first < n, !style.needsEscape(bytes[first]) { first &+= 1 }
        guard first < n else {
            reserve(n + 2)
            append(UInt8(ascii: "\""))
            append(bytes)
            append(UInt8(ascii: "\""))
            return
        }
        append(UInt8(ascii: "\""))
        appendEscaped(bytes, from: first, style)
        append(UInt8(ascii: "\""))
    }

    /// Appends `bytes`, escaping as ``appendQuoted(_:escaping:)`` does;
    /// `first` is where the first byte to escape may be (none before it).
    private func appendEscaped<Style: BackslashEscaping>(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int, _ style: Style) {
        @inline(__always) func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") - 10 + v }
        var runStart = 0
        var k = first
        while k < bytes.count {
            let b = bytes[k]
            guard style.needsEscape(b) else {
                k &+= 1
                continue
            }
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<k]))
            k &+= 1
            runStart = k
            append(UInt8(ascii: "\\"))
            if let letter = style.letter(for: b) {
                append(letter)
            } else {
                append(Style.hexEscapePrefix)
                append(hexDigit(b >> 4))
                append(hexDigit(b & 0x0F))
            }
        }
        append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
