/// Clinger's fast path from decimal text to a `Double`: when the significant
/// digits fit in 53 bits and the decimal exponent is within ±22, one IEEE
/// multiplication or division of exact operands gives the correctly rounded
/// result, the same as `strtod`'s. Readers fall back to `strtod` otherwise.
enum DecimalFastPath {
    /// `mantissa` × 10^`exponent`, negated when `negative`; `significant` is
    /// how many digits the mantissa had without leading zeros (more than 19
    /// means it was cut short). Nil when the fast path does not apply.
    static func double(mantissa: UInt64, significant: Int, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0, significant == 0 { return negative ? -0.0 : 0.0 }
        guard significant <= 19, mantissa <= 1 << 53 else { return nil }
        guard exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        if exponent >= 0 {
            value *= powersOfTen[exponent]
        } else {
            value /= powersOfTen[-exponent]
        }
        return negative ? -value : value
    }

    /// The value of `[+-]digits[.digits][(e|E)[+-]digits]` (at least one
    /// digit before the exponent), or nil when the text has another shape or
    /// the fast path does not apply.
    static func double<C: Collection>(_ text: C) -> Double? where C.Element == UInt8 {
        var it = text.makeIterator()
        var b = it.next()
        var negative = false
        if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
            negative = b == UInt8(ascii: "-")
            b = it.next()
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while let c = b {
            if c == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else if c &- UInt8(ascii: "0") < 10 {
                digits += 1
                if inFraction { fractionDigits += 1 }
                if mantissa != 0 || c != UInt8(ascii: "0") {
                    significant += 1
                    if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0")) }
                }
            } else {
                break
            }
            b = it.next()
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            b = it.next()
            var exponentNegative = false
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                exponentNegative = b == UInt8(ascii: "-")
                b = it.next()
            }
            var exponentDigits = 0
            while let c = b, c &- UInt8(ascii: "0") < 10 {
                // Far beyond any finite double either way; the slow path decides.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(c &- UInt8(ascii: "0")) }
                exponentDigits += 1
                b = it.next()
            }
            guard exponentDigits > 0 else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard b == nil else { return nil }
        return double(mantissa: mantissa, significant: significant, exponent: exponent - fractionDigits, negative: negative)
    }

    /// 1e0 through 1e22, all exact in binary64.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
