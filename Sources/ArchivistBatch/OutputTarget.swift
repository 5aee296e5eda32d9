import ArchivistCore
/// Where a conversion puts each result.
package enum OutputTarget: Sendable, Equatable {
    /// Standard output; takes one input.
    case standardOutput
    /// One named file; takes one input. `-` is standard output.
    case file(String)
    /// A folder: each result is `DIR/STEM.EXT`, where STEM is the input's file
    /// name without its last extension (`stdin` for standard input) and EXT is
    /// `fileExtension(for:)` of the target format.
    case directory(String)
    /// Each input is replaced by its result.
    case inPlace

    /// The extension a result gets in a folder: `json` for JSON, `plist` for
    /// XML, binary and OpenStep (the extension Apple's tools use for all three).
    package static func fileExtension(for format: PlistFormat) -> String {
        switch format {
        case .json: return "json"
        case .xml, .binary, .openstep: return "plist"
        }
    }

    /// Why this target cannot take these inputs, or nil when it can.
    package func usageProblem(inputs: [String]) -> String? {
        switch self {
        case .standardOutput:
            return inputs.count == 1 ? nil : "several inputs need an output folder or in-place conversion (standard output takes one)"
        case .file(let path):
            if path.isEmpty { return "the output file name is empty" }
            return inputs.count == 1 ? nil : "an output file takes exactly one input; use an output folder for several"
        case .directory(let dir):
            return dir.isEmpty ? "the output folder name is empty" : nil
        case .inPlace:
            return inputs.contains("-") ? "standard input cannot be replaced in place" : nil
        }
    }

    /// The path one input's result goes to; `-` means standard output.
    package func destination(for input: String, format: PlistFormat) -> String {
        destination(for: BatchItem(source: input), format: format)
    }

    /// The path one item's result goes to; `-` means standard output. In a
    /// folder, an item found below an input folder keeps its subfolders; the
    /// name's extension follows `format`, or the name is kept when `format`
    /// is nil (each result in its input's format).
    package func destination(for item: BatchItem, format: PlistFormat?) -> String {
        switch self {
        case .standardOutput:
            return "-"
        case .file(let path):
            return path
        case .inPlace:
            return item.source
        case .directory(let dir):
            // Names are split at their "/" bytes, as the file system does
            // (and far faster than by characters).
            let slash = UInt8(ascii: "/")
            let path = item.relative ?? (item.source == "-" ? "stdin" : item.source.utf8.split(separator: slash).last.map { String(Substring($0)) } ?? "output")
            let parts = path.utf8.split(separator: slash)
            let name = parts.last.map { String(Substring($0)) } ?? "output"
            let subfolders = parts.dropLast().filter { !$0.elementsEqual(".".utf8) && !$0.elementsEqual("..".utf8) }.map { Substring($0) + "/" }.joined()
            let folder = (dir.hasSuffix("/") ? dir : dir + "/") + subfolders
            guard let format else { return folder + name }
            let stem = name.utf8.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 == name.startIndex ? nil : name[..<$0] }.map(String.init) ?? name
            return folder + stem + "." + Self.fileExtension(for: format)
        }
    }
}
