import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// The value of `set`, typed by `--type`.
enum ValueType: String, CaseIterable, ExpressibleByArgument {
    case string, integer, real, float, bool, date, data, json, xml, dictionary, array

    static var allValueDescriptions: [String: String] {
        [
            "string": "the text", "integer": "a whole number, up to 64 bits", "real": "a number",
            "float": "real, as plutil says", "bool": "true/false, yes/no or 1/0", "date": "ISO 8601",
            "data": "base64, or the bytes of --from-file", "json": "a container in JSON",
            "xml": "a container in XML", "dictionary": "an empty one (no VALUE)", "array": "an empty one (no VALUE)",
        ]
    }

    /// True for `dictionary` and `array`, which insert an empty container (as
    /// plutil's `-dictionary` and `-array` do) and take no value.
    var isEmptyContainer: Bool { self == .dictionary || self == .array }

    /// Parses the command-line text as this type; data comes from `file` when given.
    /// A number that does not fit its type (an integer beyond 64 bits, a real
    /// beyond the range of a 64-bit real or too small to be told from 0, a JSON
    /// integer beyond 64 bits) is refused rather than stored changed.
    func value(_ text: String, file: String?) throws -> PlistValue {
        func bad(_ why: String) -> PlistError { PlistError(.invalidValue, "\"\(text)\" is not \(why)") }
        switch self {
        case .string:
            return .string(text)
        case .integer:
            if let i = Int64(text) { return .int(i) }
            if let u = UInt64(text) { return .integer(PlistInteger(u)) }
            let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                throw PlistError(.invalidValue, "\(text) does not fit in a 64-bit integer (\(Int64.min) to \(UInt64.max))")
            }
            throw bad("an integer")
        case .real, .float:
            guard let d = Double(text) else { throw bad("a real number") }
            let spelled = text.lowercased().trimmingPrefix { $0 == "-" || $0 == "+" }
            if !d.isFinite, !["inf", "infinity", "nan"].contains(spelled) {
                throw PlistError(.invalidValue, "\(text) is beyond the range of a 64-bit real (largest \(Double.greatestFiniteMagnitude))")
            }
            let hex = spelled.hasPrefix("0x")
            let significand = spelled.prefix { hex ? $0 != "p" : $0 != "e" }
            if d == 0, significand.contains(where: { ("1"..."9").contains($0) || (hex && ("a"..."f").contains($0)) }) {
                throw PlistError(.invalidValue, "\(text) is too small for a 64-bit real (it would be 0; smallest \(Double.leastNonzeroMagnitude))")
            }
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
            let document = try Array(text.utf8).withUnsafeBytes { try PropertyList.read($0, as: .json) }
            if let lossy = document.diagnostics.first(where: { $0.kind == .integerBeyond64Bits }) {
                throw PlistError(.invalidValue, lossy.message)
            }
            return document.tree.value
        case .dictionary:
            return .dictionary(PlistDictionary())
        case .array:
            return .array([])
        case .xml:
            let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            let document = trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist") ? text : "<plist version=\"1.0\">\(text)</plist>"
            return try Array(document.utf8).withUnsafeBytes { try PropertyList.read($0, as: .xml).tree.value }
        }
    }
}
