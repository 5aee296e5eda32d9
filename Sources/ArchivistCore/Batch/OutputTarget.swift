/// Where a conversion puts each result.
public enum OutputTarget: Sendable, Equatable {
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
    public static func fileExtension(for format: PlistFormat) -> String {
        switch format {
        case .json: return "json"
        case .xml, .binary, .openstep: return "plist"
        }
    }

    /// Why this target cannot take these inputs, or nil when it can.
    public func usageProblem(inputs: [String]) -> String? {
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
    /// The file name of an ASCII path without its last extension, as the
    /// general rule below computes it; nil for other paths.
    static func asciiStem(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { b -> String? in
            var end = b.count
            for c in b where c >= 0x80 { return nil }
            while end > 0, b[end - 1] == UInt8(ascii: "/") { end -= 1 }
            guard end > 0 else { return "output" }
            var start = end
            while start > 0, b[start - 1] != UInt8(ascii: "/") { start -= 1 }
            var dot = end - 1
            while dot > start, b[dot] != UInt8(ascii: ".") { dot -= 1 }
            let stemEnd = dot > start && b[dot] == UInt8(ascii: ".") ? dot : end
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<stemEnd]), as: UTF8.self)
        }
    }

    public func destination(for input: String, format: PlistFormat) -> String {
        switch self {
        case .standardOutput:
            return "-"
        case .file(let path):
            return path
        case .inPlace:
            return input
        case .directory(let dir):
            if input != "-", let stem = Self.asciiStem(input) {
                // The usual ASCII path, by bytes: no grapheme breaking per character.
                let folder = dir.hasSuffix("/") ? dir : dir + "/"
                return folder + stem + "." + Self.fileExtension(for: format)
            }
            let name = input == "-" ? "stdin" : String(input.split(separator: "/").last ?? "output")
            let stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : name[..<$0] }.map(String.init) ?? name
            let folder = dir.hasSuffix("/") ? dir : dir + "/"
            return folder + stem + "." + Self.fileExtension(for: format)
        }
    }
}
