/// Converts files one after another to one format (or each in its own) and
/// one output target, never overwriting an input (unless converting in place)
/// or a result written earlier in the same batch.
public struct BatchConverter {
    /// The format every result is written in; nil keeps each input's format.
    public let format: PlistFormat?
    /// Where results go.
    public let target: OutputTarget
    /// With in-place conversion, the suffix of a copy of each original kept
    /// beside it (`Data.plist.bak`); nil keeps none.
    public let backupSuffix: String?
    /// Options for reading each input.
    public let readOptions: ReadOptions
    /// Options for writing each result.
    public let writeOptions: WriteOptions
    /// The files the inputs name, with the path of each (standard input has none).
    private let inputFiles: [FileIO.FileIdentity: String]
    /// Destinations written so far, with the input each came from.
    private var written: [String: String] = [:]

    /// A batch over `inputs` (paths, `-` for standard input).
    public init(inputs: [String], format: PlistFormat?, target: OutputTarget, backupSuffix: String? = nil,
                readOptions: ReadOptions = ReadOptions(), writeOptions: WriteOptions = WriteOptions()) {
        var files: [FileIO.FileIdentity: String] = [:]
        for input in inputs where input != "-" {
            if let id = FileIO.identity(of: input), files[id] == nil { files[id] = input }
        }
        self.inputFiles = files
        self.format = format
        self.target = target
        self.backupSuffix = backupSuffix
        self.readOptions = readOptions
        self.writeOptions = writeOptions
    }

    /// Creates the output folder (and its parents) when the target is a folder.
    public func prepare() throws {
        if case .directory(let dir) = target { try FileIO.createDirectories(dir) }
    }

    /// Reads `input`, converts it and writes the result atomically. The input's
    /// diagnostics (duplicate keys and the like) go to `warn` as soon as it is
    /// read; they do not stop the conversion. `transform` turns the document
    /// into the tree to write (the document's own tree by default). Returns the
    /// destination (`-` for standard output). Throws a `PlistError`: located in
    /// the input when it is malformed or cannot be written in the format, `.io`
    /// when a file cannot be read or written or the destination is protected;
    /// or whatever `transform` throws. On error nothing is written and the
    /// destination is as it was. `bytes`, when given, are the input's content
    /// read earlier (standard input can be read only once).
    @discardableResult
    public mutating func convert(_ input: String, bytes: [UInt8]? = nil, warn: (PlistDiagnostic) -> Void = { _ in },
                                 transform: (PlistDocument) throws -> PlistValue = { $0.value }) throws -> String {
        let original = try bytes ?? FileIO.read(input, maxSize: readOptions.limits.maxInputSize)
        let document = try PropertyList.read(original, options: readOptions)
        document.diagnostics.forEach(warn)
        let format = self.format ?? document.format
        let destination = target.destination(for: input, format: format)
        if destination != "-" {
            if let earlier = written[destination] {
                throw PlistError(.io, "refusing to overwrite \(destination), the result of \(earlier)")
            }
            if target != .inPlace, let id = FileIO.identity(of: destination), let other = inputFiles[id] {
                throw PlistError(.io, "refusing to overwrite the input \(other) (only in-place conversion replaces inputs)")
            }
        }
        let bytes = try PropertyList.write(try transform(document), as: format, options: writeOptions)
        if target == .inPlace, let suffix = backupSuffix, input != "-" {
            try FileIO.writeAtomically(original, to: input + suffix)
        }
        try FileIO.writeAtomically(bytes, to: destination)
        if destination != "-" { written[destination] = input }
        return destination
    }
}
