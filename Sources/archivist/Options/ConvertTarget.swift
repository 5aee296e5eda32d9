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

extension CodableOptions.DateStrategy: ExpressibleByArgument {}
extension CodableOptions.CyclePolicy: ExpressibleByArgument {}
