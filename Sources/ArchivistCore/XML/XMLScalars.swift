#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parsing of `<integer>` and `<real>` text as CoreFoundation accepts it.
enum XMLScalars {
    private static func trimmed<C: RandomAccessCollection>(_ text: C) -> C.SubSequence where C.Element == UInt8 {
        var s = text[...]
        while let f = s.first, f == 0x20 || f == 0x09 || f == 0x0A || f == 0x0D { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 || l == 0x0A || l == 0x0D { s = s.dropLast() }
        return s
    }

    /// Decimal or `0x` hexadecimal, optionally signed, from `Int64.min` to `UInt64.max`.
    static func integer<C: RandomAccessCollection>(_ text: C) -> PlistInteger? where C.Element == UInt8 {
        var s = trimmed(text)
        var negative = false
        if let f = s.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
            negative = f == UInt8(ascii: "-")
            s = s.dropFirst()
        }
        var radix: UInt64 = 10
        if s.count > 2, s.first == UInt8(ascii: "0"), let x = s.dropFirst().first, x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
            radix = 16
            s = s.dropFirst(2)
        }
        guard !s.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for b in s {
            let digit: UInt64
            switch b {
            case 0x30...0x39: digit = UInt64(b - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt64(b - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt64(b - 0x41 + 10)
            default: return nil
            }
            let m = magnitude.multipliedReportingOverflow(by: radix)
            let a = m.partialValue.addingReportingOverflow(digit)
            guard !m.overflow, !a.overflow else { return nil }
            magnitude = a.partialValue
        }
        if negative {
            if magnitude == 0 { return PlistInteger(Int64(0)) }
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return PlistInteger(Int64(bitPattern: 0 &- magnitude))
        }
        return PlistInteger(magnitude)
    }

    /// A decimal real, or `nan`, `inf`, `infinity` with an optional sign (any case).
    static func real<C: RandomAccessCollection>(_ text: C) -> Double? where C.Element == UInt8 {
        let s = trimmed(text)
        guard !s.isEmpty, s.count < 512 else { return nil }
        // Only the characters of a decimal number go to strtod (it would take hex and more).
        var decimal = true
        for b in s {
            switch b {
            case 0x30...0x39, UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"): continue
            default: decimal = false
            }
            if !decimal { break }
        }
        guard decimal else {
            switch String(decoding: s, as: UTF8.self).lowercased() {
            case "nan", "+nan", "-nan": return .nan
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return nil
            }
        }
        if let value = DecimalFastPath.double(s) { return value }
        let count = s.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { p -> Double? in
            guard let base = p.baseAddress else { return nil }
            var k = 0
            for b in s { base[k] = CChar(bitPattern: b); k += 1 }
            base[count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &end)
            guard let end, end - base == count else { return nil }
            return value
        }
    }
}
