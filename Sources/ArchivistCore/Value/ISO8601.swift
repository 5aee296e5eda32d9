#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversion between `PlistDate` and the `YYYY-MM-DDTHH:MM:SSZ` form that
/// XML plists (and Archivist's JSON, with a fraction of a second) use. Pure
/// arithmetic: no calendars, no Foundation, proleptic Gregorian in UTC.
package enum ISO8601 {
    /// Dates further than this many seconds from 2001 are refused by `format`
    /// (about ±31.7 million years; far beyond anything a plist holds in practice
    /// and well inside what the arithmetic below handles exactly).
    package static let maximumMagnitude: Double = 1e15

    /// The civil fields of a date, whole seconds floored toward the past.
    struct Fields: Equatable {
        var year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int
    }

    static func fields(of date: PlistDate) -> Fields? {
        let t = date.secondsSinceReferenceDate
        guard t.isFinite, abs(t) <= maximumMagnitude else { return nil }
        // Whole seconds since 1970, floored toward the past as CoreFoundation does.
        let unix = Int64(t.rounded(.down)) + 978_307_200
        let days = floorDiv(unix, 86_400)
        let secs = Int(unix - days * 86_400)
        let (y, m, d) = civil(fromDays: days)
        return Fields(year: y, month: m, day: d, hour: secs / 3600, minute: (secs % 3600) / 60, second: secs % 60)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, or nil for a date that is not finite or too far away.
    package static func formatIfRepresentable(_ date: PlistDate) -> String? {
        guard let f = fields(of: date) else { return nil }
        return String(unsafeUninitializedCapacity: maxFieldsLength + 1) { p in
            guard let base = p.baseAddress else { return 0 }
            let k = write(f, into: base)
            base[k] = UInt8(ascii: "Z")
            return k + 1
        }
    }

    /// The most bytes `write(_:into:)` writes: a sign, eight digits of year
    /// (`maximumMagnitude` is about 31.7 million years), `-MM-DDTHH:MM:SS`.
    static let maxFieldsLength = 24

    /// Writes `[-]YYYY-MM-DDTHH:MM:SS` (the year four digits at least) at
    /// `p`, which has room for `maxFieldsLength` bytes; returns how many.
    @inline(__always)
    static func write(_ f: Fields, into p: UnsafeMutablePointer<UInt8>) -> Int {
        var k = 0
        @inline(__always) func two(_ v: Int) {
            p[k] = UInt8(truncatingIfNeeded: 0x30 + v / 10)
            p[k + 1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            k += 2
        }
        @inline(__always) func one(_ b: UInt8) {
            p[k] = b
            k += 1
        }
        var year = f.year
        if year < 0 {
            one(UInt8(ascii: "-"))
            year = -year
        }
        if year < 10_000 {
            two(Int(year / 100)); two(Int(year % 100))
        } else {
            // Digits from the last; `fields` keeps years below 10^8.
            var digits = 0, rest = year
            while rest > 0 { digits += 1; rest /= 10 }
            rest = year
            for i in stride(from: digits - 1, through: 0, by: -1) {
                p[k + i] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
            k += digits
        }
        one(UInt8(ascii: "-")); two(f.month)
        one(UInt8(ascii: "-")); two(f.day)
        one(UInt8(ascii: "T")); two(f.hour)
        one(UInt8(ascii: ":")); two(f.minute)
        one(UInt8(ascii: ":")); two(f.second)
        return k
    }

    /// Appends `YYYY-MM-DDTHH:MM:SSZ` (what `formatIfRepresentable` returns,
    /// without building a `String`) to a writer's buffer; false, appending
    /// nothing, for a date that is not finite or too far away. With `fraction`,
    /// a date between whole seconds gets `.DIGITS` before the `Z`: as few
    /// digits as `parse` needs to give back exactly the same `Double`.
    static func appendFormatted(_ date: PlistDate, into out: ByteSink, fraction: Bool = false) -> Bool {
        guard let f = fields(of: date) else { return false }
        let t = date.secondsSinceReferenceDate
        let withFraction = fraction && t != t.rounded(.down)
        out.appendUninitialized(max: maxFieldsLength + 1) { p in
            let k = write(f, into: p)
            guard !withFraction else { return k }
            p[k] = UInt8(ascii: "Z")
            return k + 1
        }
        if withFraction {
            appendFraction(of: t, into: out)
            out.append(UInt8(ascii: "Z"))
        }
        return true
    }

    /// `.DIGITS`, the part of `t` after its whole second (floored toward the
    /// past) in the shortest digits that read back as `t`, as JSON dates
    /// write it; empty for a whole second.
    package static func fraction(of t: Double) -> String {
        let out = ByteSink()
        appendFraction(of: t, into: out)
        return out.text()
    }

    /// Appends `.DIGITS`, the part of `t` after its whole second (floored toward
    /// the past), when there is one. The digits are those of the shortest
    /// decimal that rounds to `t`, so `parse` gives `t` back: for a negative
    /// `t` (`-A.B`) they are the complement of `B` (`W + 0.F` with `W = -A-1`).
    private static func appendFraction(of t: Double, into out: ByteSink) {
        guard t.isFinite, t != t.rounded(.down) else { return }
        var shortest = t.magnitude.description
        shortest.withUTF8 { text in
            let zero = UInt8(ascii: "0")
            // The significand (`D.DDD`) and the exponent after its `e`, if any.
            var end = text.count
            var exponent = 0
            if let e = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                end = e
                var k = e + 1
                var negative = false
                if k < text.count, text[k] == UInt8(ascii: "-") || text[k] == UInt8(ascii: "+") {
                    negative = text[k] == UInt8(ascii: "-")
                    k += 1
                }
                while k < text.count { exponent = exponent * 10 + Int(text[k] &- zero); k += 1 }
                if negative { exponent = -exponent }
            }
            let significand = UnsafeBufferPointer(rebasing: text[..<end])
            let dot = significand.firstIndex(of: UInt8(ascii: ".")) ?? significand.count
            let count = significand.count - (dot < significand.count ? 1 : 0)
            /// The k-th digit of the significand, its point skipped.
            func digit(_ k: Int) -> UInt8 { significand[k < dot ? k : k + 1] }
            // Digits of the value before its decimal point; those after it, less
            // trailing zeros, are the fraction.
            let point = dot + exponent
            let first = max(point, 0)
            var last = count - 1
            while last >= first, digit(last) == zero { last -= 1 }
            guard last >= first else { return }
            let leadingZeros = max(-point, 0)
            let length = 1 + leadingZeros + (last - first + 1)
            out.appendUninitialized(max: length) { p in
                p[0] = UInt8(ascii: ".")
                var k = 1
                while k <= leadingZeros { p[k] = zero; k += 1 }
                for d in first...last { p[k] = digit(d); k += 1 }
                // Below zero the fraction after the floored second is one minus it:
                // the last digit d becomes 10 - d, the others 9 - d.
                if t < 0 {
                    for j in 1..<length {
                        p[j] = zero + (j == length - 1 ? 10 - (p[j] - zero) : 9 - (p[j] - zero))
                    }
                }
                return length
            }
        }
    }

    /// Like `formatIfRepresentable`, falling back to the raw seconds for dates
    /// that cannot be written as a calendar date.
    package static func format(_ date: PlistDate) -> String {
        formatIfRepresentable(date) ?? "\(date.secondsSinceReferenceDate)s-since-2001"
    }

    /// Parses `[-]YYYY-MM-DDTHH:MM:SS[.fraction]Z`, with surrounding whitespace.
    /// Returns nil for anything else, including out-of-range fields. The
    /// fraction may have any number of digits; the result is the `Double`
    /// nearest to the exact time written.
    package static func parse<C: Collection>(_ text: C) -> PlistDate? where C.Element == UInt8 {
        if let date = text.withContiguousStorageIfAvailable({ parse(bytes: $0, xml: false) }) { return date }
        return Array(text).withUnsafeBufferPointer { parse(bytes: $0, xml: false) }
    }

    /// Parses the text of an XML `<date>` as CoreFoundation does: exactly
    /// `[-]YYYY-MM-DDTHH:MM:SSZ`, with no whitespace and no fraction.
    static func parseXML<C: Collection>(_ text: C) -> PlistDate? where C.Element == UInt8 {
        if let date = text.withContiguousStorageIfAvailable({ parse(bytes: $0, xml: true) }) { return date }
        return Array(text).withUnsafeBufferPointer { parse(bytes: $0, xml: true) }
    }

    private static func parse(bytes all: UnsafeBufferPointer<UInt8>, xml: Bool) -> PlistDate? {
        var end = all.count
        if !xml { while end > 0, isSpace(all[end - 1]) { end -= 1 } }
        let bytes = UnsafeBufferPointer(rebasing: all[0..<end])
        var i = 0
        if !xml { while i < bytes.count, isSpace(bytes[i]) { i += 1 } }
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        func digits(_ minCount: Int, _ maxCount: Int) -> Int64? {
            var value: Int64 = 0
            var n = 0
            while i < bytes.count, n < maxCount, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                value = value * 10 + Int64(bytes[i] - 0x30)
                i += 1; n += 1
            }
            return n >= minCount ? value : nil
        }
        func expect(_ c: Unicode.Scalar) -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(truncatingIfNeeded: c.value) else { return false }
            i += 1
            return true
        }
        guard let year = digits(1, 9), expect("-"),
              let month = digits(2, 2), expect("-"),
              let day = digits(2, 2), expect("T"),
              let hour = digits(2, 2), expect(":"),
              let minute = digits(2, 2), expect(":"),
              let second = digits(2, 2) else { return nil }
        var fraction = i..<i
        if !xml, i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > start else { return nil }
            fraction = start..<i
        }
        guard expect("Z"), i == bytes.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Int64(daysInMonth(year: negative ? -year : year, month: Int(month))),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let y = negative ? -year : year
        let days = self.days(fromCivil: y, Int(month), Int(day))
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - 978_307_200
        var digits = UnsafeBufferPointer(rebasing: bytes[fraction])
        while let last = digits.last, last == UInt8(ascii: "0") { digits = UnsafeBufferPointer(rebasing: digits.dropLast()) }
        guard !digits.isEmpty else { return PlistDate(secondsSinceReferenceDate: Double(whole)) }
        return seconds(whole: whole, fraction: digits).map { PlistDate(secondsSinceReferenceDate: $0) }
    }

    /// The `Double` nearest to `whole + 0.fraction` (the fraction's digits
    /// without trailing zeros), correctly rounded by `strtod` from its decimal
    /// text: `W.F`, or `-(|W|-1).G` with `G` the complement of `F` when `W < 0`.
    private static func seconds(whole: Int64, fraction: UnsafeBufferPointer<UInt8>) -> Double? {
        var integer = whole
        var negative = false
        if whole < 0 {
            negative = true
            integer = -whole - 1
        }
        let integerText = String(integer).utf8
        let count = (negative ? 1 : 0) + integerText.count + 1 + fraction.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { p -> Double? in
            guard let base = p.baseAddress else { return nil }
            var k = 0
            if negative { base[k] = CChar(bitPattern: UInt8(ascii: "-")); k += 1 }
            for b in integerText { base[k] = CChar(bitPattern: b); k += 1 }
            base[k] = CChar(bitPattern: UInt8(ascii: ".")); k += 1
            let zero = UInt8(ascii: "0")
            for (j, b) in fraction.enumerated() {
                let digit = negative ? zero + (j == fraction.count - 1 ? 10 - (b - zero) : 9 - (b - zero)) : b
                base[k] = CChar(bitPattern: digit); k += 1
            }
            base[k] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &end)
            guard let end, end - base == count else { return nil }
            return value
        }
    }

    // MARK: - Calendar arithmetic (Howard Hinnant's days_from_civil / civil_from_days)

    static func days(fromCivil year: Int64, _ month: Int, _ day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int, Int) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }

    static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2:
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }
}
