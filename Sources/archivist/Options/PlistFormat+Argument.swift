import ArchivistCore
import ArgumentParser

/// `--to FORMAT` accepts every name `PlistFormat(name:)` knows (`xml1`,
/// `binary1` as plutil spells them); help lists the main four.
extension PlistFormat: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
