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
    /// Appends `bytes`, the ones `style` escapes written as a backslash and a
    /// character or a backslash and lower-case hexadecimal.
    @inline(__always)
    func appendEscaped<Style: BackslashEscaping>(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Style) {
        @inline(__always) func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") - 10 + v }
        var runStart = 0
        for (k, b) in bytes.enumerated() where style.needsEscape(b) {
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<k]))
            runStart = k + 1
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
