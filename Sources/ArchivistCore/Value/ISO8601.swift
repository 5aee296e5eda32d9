/// Conversion between `PlistDate` and the `YYYY-MM-DDTHH:MM:SSZ` form that
/// XML plists (and Archivist's JSON) use. Pure arithmetic: no calendars, no
/// Foundation, proleptic Gregorian in UTC.
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
        var out = ""
        out.reserveCapacity(20)
        if f.year < 0 {
            out += "-"
            out += pad(-f.year, 4)
        } else {
            out += pad(f.year, 4)
        }
        out += "-" + pad(Int64(f.month), 2) + "-" + pad(Int64(f.day), 2)
        out += "T" + pad(Int64(f.hour), 2) + ":" + pad(Int64(f.minute), 2) + ":" + pad(Int64(f.second), 2) + "Z"
        return out
    }

    /// Appends `YYYY-MM-DDTHH:MM:SSZ` as bytes (what `formatIfRepresentable`
    /// returns, without building a `String`); false, appending nothing, for a
    /// date that is not finite or too far away.
    package static func appendFormatted(_ date: PlistDate, into out: inout [UInt8]) -> Bool {
        guard let f = fields(of: date) else { return false }
        @inline(__always) func two(_ v: Int, _ out: inout [UInt8]) {
            out.append(UInt8(truncatingIfNeeded: 0x30 + v / 10))
            out.append(UInt8(truncatingIfNeeded: 0x30 + v % 10))
        }
        var year = f.year
        if year < 0 { out.append(UInt8(ascii: "-")); year = -year }
        if year < 10_000 {
            let y = Int(year)
            two(y / 100, &out); two(y % 100, &out)
        } else {
            out.append(contentsOf: String(year).utf8)
        }
        out.append(UInt8(ascii: "-")); two(f.month, &out)
        out.append(UInt8(ascii: "-")); two(f.day, &out)
        out.append(UInt8(ascii: "T")); two(f.hour, &out)
        out.append(UInt8(ascii: ":")); two(f.minute, &out)
        out.append(UInt8(ascii: ":")); two(f.second, &out)
        out.append(UInt8(ascii: "Z"))
        return true
    }

    /// `appendFormatted` into a writer's buffer.
    static func appendFormatted(_ date: PlistDate, into out: ByteSink) -> Bool {
        guard let f = fields(of: date) else { return false }
        if f.year < 0 || f.year >= 10_000 {
            var bytes: [UInt8] = []
            _ = appendFormatted(date, into: &bytes)
            out.append(bytes)
            return true
        }
        out.appendUninitialized(max: 20) { p in
            @inline(__always) func two(_ at: Int, _ v: Int) {
                p[at] = UInt8(truncatingIfNeeded: 0x30 + v / 10)
                p[at + 1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            }
            let y = Int(f.year)
            two(0, y / 100); two(2, y % 100)
            p[4] = UInt8(ascii: "-"); two(5, f.month)
            p[7] = UInt8(ascii: "-"); two(8, f.day)
            p[10] = UInt8(ascii: "T"); two(11, f.hour)
            p[13] = UInt8(ascii: ":"); two(14, f.minute)
            p[16] = UInt8(ascii: ":"); two(17, f.second)
            p[19] = UInt8(ascii: "Z")
            return 20
        }
        return true
    }

    /// Like `formatIfRepresentable`, falling back to the raw seconds for dates
    /// that cannot be written as a calendar date.
    package static func format(_ date: PlistDate) -> String {
        formatIfRepresentable(date) ?? "\(date.secondsSinceReferenceDate)s-since-2001"
    }

    /// Parses `[-]YYYY-MM-DDTHH:MM:SS[.fraction]Z`. Returns nil for anything else,
    /// including out-of-range fields.
    package static func parse<C: Collection>(_ text: C) -> PlistDate? where C.Element == UInt8 {
        if let date = text.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return date }
        return Array(text).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    private static func parse(bytes all: UnsafeBufferPointer<UInt8>) -> PlistDate? {
        // Surrounding whitespace is tolerated, as CoreFoundation does.
        var end = all.count
        while end > 0, isSpace(all[end - 1]) { end -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: all[0..<end])
        var i = 0
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
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
        func expect(_ c: Character) -> Bool {
            guard i < bytes.count, bytes[i] == c.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = digits(1, 9), expect("-"),
              let month = digits(2, 2), expect("-"),
              let day = digits(2, 2), expect("T"),
              let hour = digits(2, 2), expect(":"),
              let minute = digits(2, 2), expect(":"),
              let second = digits(2, 2) else { return nil }
        var fraction = 0.0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 0.1
            var n = 0
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                fraction += Double(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1; n += 1
            }
            guard n > 0 else { return nil }
        }
        guard expect("Z"), i == bytes.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= Int64(daysInMonth(year: negative ? -year : year, month: Int(month))),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        let y = negative ? -year : year
        let days = self.days(fromCivil: y, Int(month), Int(day))
        let unix = days * 86_400 + hour * 3600 + minute * 60 + second
        return PlistDate(secondsSinceReferenceDate: Double(unix - 978_307_200) + fraction)
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

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }
}
