/// What a reader produced: the property list as the compact tree every
/// reader builds, the format it was read from, and the mistakes that the
/// format's own parsers accept silently.
///
/// Read-only work (key paths, checks, views, conversion) reads `tree`; to
/// edit, take its value (`document.tree.value`, one conversion, where it is
/// seen) and write the result with `PropertyList.write(_:as:)`.
public struct PlistDocument: Sendable {
    /// The property list.
    public var tree: PlistTree
    /// The format the input was in.
    public var format: PlistFormat
    /// Duplicate keys, lone surrogates and encoding mismatches, in input order.
    public var diagnostics: [PlistDiagnostic]
    /// An Xcode project's name, as its comments give it (see `XcodeProjectName`).
    package var xcodeProjectName: String?
    /// OpenStep: the `.strings` file the tree was read from, whose comments
    /// and encoding the result keeps (see `StringsFileTemplate`).
    package var stringsTemplate: StringsFileTemplate?

    /// A document of a tree read from a format.
    ///
    /// - Parameters:
    ///   - tree: The property list.
    ///   - format: The format it was read from.
    ///   - diagnostics: What the reader accepted silently, in input order.
    public init(tree: PlistTree, format: PlistFormat, diagnostics: [PlistDiagnostic] = []) {
        self.tree = tree
        self.format = format
        self.diagnostics = diagnostics
    }
}

/// Options for every reader.
public struct ReadOptions: Sendable, Equatable {
    /// Resource bounds.
    public var limits: Limits
    /// The input's pages, when it is a file mapping whose pages a reader may
    /// hand back once read (see `InputPages`); nil for memory of any other kind.
    package var inputPages: InputPages?

    /// Options with the given limits (the defaults unless said).
    ///
    /// - Parameter limits: The resource bounds every reader applies.
    public init(limits: Limits = .default) {
        self.limits = limits
    }
}

/// Options for every writer; each writer uses those that apply to its format.
public struct WriteOptions: Sendable, Equatable {
    /// XML and OpenStep: write dictionary keys in the order they were read
    /// instead of sorted as Foundation sorts them.
    public var keepKeyOrder: Bool
    /// JSON: indent for people instead of compact output.
    public var pretty: Bool
    /// JSON: write as Foundation's `JSONEncoder` does: `/` escaped as `\/`
    /// and integral reals without a fraction (`120`, not `120.0`).
    public var jsonEncoderStyle: Bool
    /// OpenStep and JSON: Xcode's own layout for the documents Xcode writes
    /// (projects, string catalogs), or the generic one for every document.
    package var layout: DocumentLayout.Choice = .automatic
    /// OpenStep: the name of an Xcode project, which its configuration
    /// list's comment holds (Xcode takes it from the `.xcodeproj` folder).
    package var xcodeProjectName: String?
    /// OpenStep: the `.strings` file the tree was read from, whose comments
    /// and encoding the result keeps (see `StringsFileTemplate`).
    package var stringsTemplate: StringsFileTemplate?

    /// Options as given (Foundation's conventions by default).
    ///
    /// - Parameters:
    ///   - keepKeyOrder: XML and OpenStep: keys in the order read, not sorted.
    ///   - pretty: JSON: indented output.
    ///   - jsonEncoderStyle: JSON: as `JSONEncoder` writes it.
    public init(keepKeyOrder: Bool = false, pretty: Bool = false, jsonEncoderStyle: Bool = false) {
        self.keepKeyOrder = keepKeyOrder
        self.pretty = pretty
        self.jsonEncoderStyle = jsonEncoderStyle
    }
}
