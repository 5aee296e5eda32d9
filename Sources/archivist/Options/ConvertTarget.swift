import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// What `convert --to` accepts: a property-list format, or `codable-json` (the
/// JSON `JSONEncoder` writes for the structs an archive's classes stand for).
enum ConvertTarget: Equatable, ExpressibleByArgument {
    case format(PlistFormat)
    case codableJSON

    init?(argument: String) {
        if argument == "codable-json" {
            self = .codableJSON
        } else if let format = PlistFormat(name: argument) {
            self = .format(format)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { PlistFormat.allCases.map(\.rawValue) + ["codable-json"] }

    /// Shell completion offers every target.
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// The property-list format results are written in.
    var plistFormat: PlistFormat {
        switch self {
        case .format(let format): return format
        case .codableJSON: return .json
        }
    }
}

extension CodableOptions.DateStrategy: ExpressibleByArgument {}
extension CodableOptions.CyclePolicy: ExpressibleByArgument {}
