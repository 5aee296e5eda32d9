extension JSONParser {
    /// Parses a number at `i` into a node. Integers (no fraction, no exponent) in
    /// `Int64.min...UInt64.max` stay exact; everything else becomes a correctly
    /// rounded 64-bit real, as Apple reads it, with a diagnostic for an integer
    /// that became one. Reals beyond the range of `Double` are errors.
    mutating func parseNumber() throws -> Int {
        let n = text.count
        let start = i
        let negative = text[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < n, isDigit(text[i]) else { throw error(.syntax, "expected a digit after '-'") }
        let integerStart = i
        if text[i] == UInt8(ascii: "0") {
            i += 1
            if i < n, isDigit(text[i]) { throw error(.syntax, "leading zeros are not allowed in numbers", at: integerStart) }
        } else {
            while i < n, isDigit(text[i]) { i += 1 }
        }
        let integerEnd = i
        var fractionEnd = integerEnd
        if i < n, text[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, isDigit(text[i]) else { throw error(.syntax, "expected a digit after the decimal point") }
            while i < n, isDigit(text[i]) { i += 1 }
            fractionEnd = i
        }
        var exponent = 0
        var hasExponent = false
        if i < n, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            hasExponent = true
            i += 1
            var exponentNegative = false
            if i < n, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
                exponentNegative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < n, isDigit(text[i]) else { throw error(.syntax, "expected a digit in the exponent") }
            while i < n, isDigit(text[i]) {
                // Far beyond any finite double either way; the slow path decides.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(text[i] - UInt8(ascii: "0")) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if fractionEnd == integerEnd, !hasExponent, let integer = exactInteger(integerStart..<integerEnd, negative: negative) {
            return scanner.builder.integer(integer)
        }
        let value = fastDouble(integer: integerStart..<integerEnd, fractionEnd: fractionEnd, exponent: exponent, negative: negative)
            ?? Double(String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<i]), as: UTF8.self))
        var shown: String {
            var s = String(decoding: UnsafeRawBufferPointer(rebasing: text[start..<min(i, start + 40)]), as: UTF8.self)
            if i > start + 40 { s += "..." }
            return s
        }
        guard let value, value.isFinite else {
            throw error(.invalidValue, "number \(shown) is beyond the range of a 64-bit real", at: start)
        }
        if fractionEnd == integerEnd, !hasExponent {
            scanner.report(.integerBeyond64Bits, "integer \(shown) does not fit in 64 bits; Apple's parsers read it as the real \(value)", at: start)
        }
        return scanner.builder.real(PlistReal(value))
    }

    @inline(__always)
    private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// The integer of the digits in `digits`, or nil when it is outside
    /// `Int64.min...UInt64.max`.
    private func exactInteger(_ digits: Range<Int>, negative: Bool) -> PlistInteger? {
        var magnitude: UInt64 = 0
        for k in digits {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(text[k] - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        guard negative else { return PlistInteger(magnitude) }
        if magnitude <= UInt64(Int64.max) { return PlistInteger(-Int64(magnitude)) }
        return magnitude == UInt64(Int64.max) + 1 ? PlistInteger(Int64.min) : nil
    }

    /// The correctly rounded value by `DecimalFastPath`, or nil when it does not apply.
    private func fastDouble(integer: Range<Int>, fractionEnd: Int, exponent: Int, negative: Bool) -> Double? {
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        func take(_ b: UInt8) {
            if mantissa == 0, b == UInt8(ascii: "0") { return }
            significant += 1
            if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(b - UInt8(ascii: "0")) }
        }
        for k in integer { take(text[k]) }
        if fractionEnd > integer.upperBound {
            for k in integer.upperBound + 1..<fractionEnd {
                take(text[k])
                fractionDigits += 1
            }
        }
        return DecimalFastPath.double(mantissa: mantissa, significant: significant, exponent: exponent - fractionDigits, negative: negative)
    }
}
