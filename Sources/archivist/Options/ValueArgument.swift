import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// The value of `set`, typed by `--type`.
enum ValueType: String, CaseIterable, ExpressibleByArgument {
    case string, integer, real, float, bool, date, data, json, xml, dictionary, array

    /// True for `dictionary` and `array`, which insert an empty container (as
    /// plutil's `-dictionary` and `-array` do) and take no value.
    var isEmptyContainer: Bool { self == .dictionary || self == .array }

    /// Parses the command-line text as this type; data comes from `file` when given.
    func value(_ text: String, file: String?) throws -> PlistValue {
        func bad(_ why: String) -> PlistError { PlistError(.invalidValue, "\"\(text)\" is not \(why)") }
        switch self {
        case .string:
            return .string(text)
        case .integer:
            if let i = Int64(text) { return .int(i) }
            if let u = UInt64(text) { return .integer(PlistInteger(u)) }
            throw bad("an integer")
        case .real, .float:
            guard let d = Double(text) else { throw bad("a real number") }
            return .double(d)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw bad("true or false")
            }
        case .date:
            guard let d = ISO8601.parse(Array(text.utf8)) else { throw bad("an ISO 8601 date (2024-05-01T12:00:00Z)") }
            return .date(d)
        case .data:
            if let file { return .data(try FileIO.read(file)) }
            guard let bytes = Base64.decode(Array(text.utf8)) else { throw bad("base64 (or give --from-file PATH)") }
            return .data(bytes)
        case .json:
            return try Array(text.utf8).withUnsafeBytes { try PropertyList.read($0, as: .json).value }
        case .dictionary:
            return .dictionary(PlistDictionary())
        case .array:
            return .array([])
        case .xml:
            let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            let document = trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") ? text : "<plist version=\"1.0\">\(text)</plist>"
            return try Array(document.utf8).withUnsafeBytes { try PropertyList.read($0, as: .xml).value }
        }
    }
}
