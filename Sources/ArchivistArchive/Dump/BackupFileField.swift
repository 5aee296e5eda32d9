import ArchivistCore

/// The fields of `MBFile` (the archives in an iOS backup's `Manifest.db`,
/// column `Files.file`) whose class says what their integers are: `Mode` is a
/// file's `st_mode`, `LastModified`, `LastStatusChange` and `Birth` are Unix
/// times in seconds (MobileBackup encodes each with `encodeInt32:forKey:`).
/// The views show them so; key paths and conversions still give the integers.
enum BackupFileField: Equatable {
    /// A file mode: type and permission bits (`0o100644`).
    case mode(Int64)
    /// Seconds since 1970-01-01 00:00:00 UTC.
    case unixTime(Int64)

    /// The class whose fields these are.
    static let className = "MBFile"

    /// The reading of an inline field of an object of class `className`, or
    /// nil for any other class, key or value (a mode beyond 16 bits stays an integer).
    static func reading(className: String, key: String, value: PlistValue) -> BackupFileField? {
        guard className == Self.className, case .integer(let i) = value, let n = i.int64Value else { return nil }
        switch key {
        case "Mode": return (0...0o177777).contains(n) ? .mode(n) : nil
        case "LastModified", "LastStatusChange", "Birth": return .unixTime(n)
        default: return nil
        }
    }

    /// `0o100644 (-rw-r--r--)`, or the date as dump shows dates.
    var text: String {
        switch self {
        case .mode(let m): return "0o\(String(m, radix: 8)) (\(Self.modeString(m)))"
        case .unixTime: return DumpText.scalar(jsonValue)
        }
    }

    /// What `(inline integer N, ...)` adds after the integer in the text view.
    var note: String {
        switch self {
        case .mode: return "file mode"
        case .unixTime: return "Unix time"
        }
    }

    /// The key `dump --json` gives the reading under, beside the field's `inline` integer.
    var jsonKey: String {
        switch self {
        case .mode: return "fileMode"
        case .unixTime: return "date"
        }
    }

    /// The reading as `dump --json` writes it: the mode's text, or a date.
    var jsonValue: PlistValue {
        switch self {
        case .mode: return .string(text)
        case .unixTime(let t):
            // Seconds from 1970 to 2001, the reference date of property-list dates.
            return .date(PlistDate(secondsSinceReferenceDate: Double(t) - 978_307_200))
        }
    }

    /// The mode as `ls -l` writes it: the type, then read, write and execute
    /// for owner, group and others, with set-user-ID, set-group-ID and sticky
    /// shown in the execute places (`s`/`S`, `t`/`T`).
    static func modeString(_ m: Int64) -> String {
        let type: Character
        switch m & 0o170000 {
        case 0o140000: type = "s"
        case 0o120000: type = "l"
        case 0o100000: type = "-"
        case 0o060000: type = "b"
        case 0o040000: type = "d"
        case 0o020000: type = "c"
        case 0o010000: type = "p"
        default: type = "?"
        }
        func triple(_ shift: Int64, special: Int64, set: Character, unset: Character) -> String {
            let bits = m >> shift & 7
            let execute: Character
            switch (bits & 1 != 0, m & special != 0) {
            case (true, true): execute = set
            case (false, true): execute = unset
            case (true, false): execute = "x"
            case (false, false): execute = "-"
            }
            return (bits & 4 != 0 ? "r" : "-") + (bits & 2 != 0 ? "w" : "-") + String(execute)
        }
        return String(type) + triple(6, special: 0o4000, set: "s", unset: "S") + triple(3, special: 0o2000, set: "s", unset: "S")
            + triple(0, special: 0o1000, set: "t", unset: "T")
    }
}
