/// The one place that decides how a document is laid out when written: in
/// Xcode's own layout when it is a document Xcode writes (a project written
/// as OpenStep, a string catalog written as JSON), generically otherwise or
/// when `WriteOptions.layout` asks for `.generic`. Every writing command
/// goes through the format writers, which ask here.
package enum DocumentLayout: Equatable {
    /// The format's generic layout.
    case generic
    /// Xcode's `project.pbxproj` layout (``XcodeProjectWriter``).
    case xcodeProject
    /// Xcode's `.xcstrings` layout (``XcodeStringCatalogWriter``).
    case xcodeStringCatalog

    /// What `WriteOptions.layout` asks for.
    package enum Choice: Sendable, Equatable {
        /// Xcode's layout for Xcode's documents, the generic one for others.
        case automatic
        /// The generic layout for every document.
        case generic
    }

    /// The layout of `source` written as `format` with `options`.
    package static func of<S: PlistNodes>(_ source: inout S, as format: PlistFormat, options: WriteOptions) throws -> DocumentLayout {
        guard options.layout == .automatic else { return .generic }
        switch format {
        case .openstep:
            return try XcodeProjectIndex.isProject(&source) ? .xcodeProject : .generic
        case .json:
            return try XcodeStringCatalogWriter.isCatalog(&source) ? .xcodeStringCatalog : .generic
        case .xml, .binary:
            return .generic
        }
    }
}
