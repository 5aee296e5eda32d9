/// What a reader produced: the property list, the format it was read from,
/// and the mistakes that the format's own parsers accept silently.
///
/// Readers produce a compact `PlistTree`; `value` gives the editable
/// `PlistValue` form (converted on each access, so read it once). A document
/// made from a value converts the other way when `tree` is asked for.
public struct PlistDocument: Sendable {
    private enum Content: Sendable {
        case tree(PlistTree)
        case value(PlistValue)
    }

    private var content: Content
    /// The format the input was in.
    public var format: PlistFormat
    /// Duplicate keys, lone surrogates and encoding mismatches, in input order.
    public var diagnostics: [PlistDiagnostic]

    /// A document of a value read from a format.
    public init(value: PlistValue, format: PlistFormat, diagnostics: [PlistDiagnostic] = []) {
        content = .value(value)
        self.format = format
        self.diagnostics = diagnostics
    }

    /// A document of a tree read from a format.
    public init(tree: PlistTree, format: PlistFormat, diagnostics: [PlistDiagnostic] = []) {
        content = .tree(tree)
        self.format = format
        self.diagnostics = diagnostics
    }

    /// The property list as an editable value; setting it replaces the content.
    public var value: PlistValue {
        get {
            switch content {
            case .tree(let tree): return tree.value
            case .value(let value): return value
            }
        }
        set { content = .value(newValue) }
    }

    /// The property list as a compact tree (a document made from a value
    /// nested deeper than the default depth limit cannot give one).
    public var tree: PlistTree {
        get throws {
            switch content {
            case .tree(let tree): return tree
            case .value(let value): return try PlistTree(value)
            }
        }
    }
}

/// Options for every reader.
public struct ReadOptions: Sendable, Equatable {
    /// Resource bounds.
    public var limits: Limits

    /// Options with the given limits (the defaults unless said).
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

    /// Options as given (Foundation's conventions by default).
    public init(keepKeyOrder: Bool = false, pretty: Bool = false, jsonEncoderStyle: Bool = false) {
        self.keepKeyOrder = keepKeyOrder
        self.pretty = pretty
        self.jsonEncoderStyle = jsonEncoderStyle
    }
}
