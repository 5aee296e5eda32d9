/// Byte tests on 8 bytes at once, exact for each byte (no carry crosses one).
enum WordBytes {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `w` equal to `byte`.
    @inline(__always)
    static func equal(_ w: UInt64, _ byte: UInt8) -> UInt64 {
        let x = w ^ UInt64(byte) &* ones
        return ~(((x & lows) &+ lows) | x) & highs
    }

    /// The high bit of each byte of `w` below 0x20 (a C0 control character).
    @inline(__always)
    static func control(_ w: UInt64) -> UInt64 {
        ~(((w & lows) &+ 0x60 &* ones) | w) & highs
    }
}
