import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// What `convert --to` accepts: a property-list format, `codable-json` (the
/// JSON `JSONEncoder` writes for the structs an archive's classes stand for),
/// or `swift`/`objc` (the source of a literal, as plutil writes it).
enum ConvertTarget: Equatable, ExpressibleByArgument {
    case format(PlistFormat)
    case codableJSON
    case source(SourceLanguage)

    init?(argument: String) {
        if argument == "codable-json" {
            self = .codableJSON
        } else if let language = SourceLanguage(rawValue: argument) {
            self = .source(language)
        } else if let format = PlistFormat(name: argument) {
            self = .format(format)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { PlistFormat.allCases.map(\.rawValue) + ["codable-json"] + SourceLanguage.allCases.map(\.rawValue) }

    /// Each target once, in help and the manual page.
    public static var allValueDescriptions: [String: String] {
        PlistFormat.descriptions.merging([
            "codable-json": "an archive as JSONEncoder writes its structs",
            "swift": "a Swift literal, as plutil writes it",
            "objc": "an Objective-C literal, as plutil writes it",
        ]) { first, _ in first }
    }

    /// Shell completion offers every target.
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// The property-list format results are written in (literal source is
    /// written by `Convert.convertToSource`, not in a format: XML stands in).
    var plistFormat: PlistFormat {
        switch self {
        case .format(let format): return format
        case .codableJSON: return .json
        case .source: return .xml
        }
    }
}

extension CodableOptions.DateStrategy: ExpressibleByArgument {
    public static var allValueDescriptions: [String: String] {
        [
            "deferred": "seconds since 2001 (JSONEncoder's default)",
            "iso8601": "ISO 8601 text",
            "seconds1970": "seconds since 1970",
            "milliseconds1970": "milliseconds since 1970",
        ]
    }
}

extension CodableOptions.CyclePolicy: ExpressibleByArgument {
    public static var allValueDescriptions: [String: String] {
        ["error": "fail, naming the key path", "omit": "leave the reference out"]
    }
}
