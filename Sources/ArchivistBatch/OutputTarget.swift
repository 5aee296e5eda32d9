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
            return Self.destination(inFolder: dir, of: item, format: format)
        }
    }

    /// An item's result in the output folder `dir`: its relative path (or
    /// its file name; `stdin` for standard input) below `dir`, without `.`
    /// and `..` folders, its extension that of `format`. Asked for each item
    /// several times a run (a batch keeps no list of destinations), so it is
    /// built in one byte buffer: names are split at their "/" bytes, as the
    /// file system splits them.
    private static func destination(inFolder dir: String, of item: BatchItem, format: PlistFormat?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(dir.utf8.count + (item.relative ?? item.source).utf8.count + 8)
        out.append(contentsOf: dir.utf8)
        if out.last != slash { out.append(slash) }
        if let relative = item.relative {
            appendRelative(relative, to: &out, format: format)
        } else if item.source == "-" {
            appendRelative("stdin", to: &out, format: format)
        } else {
            var source = item.source
            source.withUTF8 { bytes in
                if let name = lastComponent(bytes) {
                    appendName(UnsafeBufferPointer(rebasing: bytes[name]), to: &out, format: format)
                } else {
                    outputName.withUnsafeBufferPointer { appendName($0, to: &out, format: format) }
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let slash = UInt8(ascii: "/")
    /// The name of a result whose input path names none.
    private static let outputName: [UInt8] = Array("output".utf8)

    /// A relative path's folders (but `.` and `..`), each with a slash, then
    /// its name as `appendName` writes it (`output` when it has none).
    private static func appendRelative(_ path: String, to out: inout [UInt8], format: PlistFormat?) {
        var path = path
        path.withUTF8 { bytes in
            guard let name = lastComponent(bytes) else {
                outputName.withUnsafeBufferPointer { appendName($0, to: &out, format: format) }
                return
            }
            var i = 0
            while i < name.lowerBound {
                if bytes[i] == slash { i += 1; continue }
                var end = i
                while end < name.lowerBound, bytes[end] != slash { end += 1 }
                let count = end - i
                let isDots = (count == 1 || count == 2) && bytes[i..<end].allSatisfy { $0 == UInt8(ascii: ".") }
                if !isDots {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                    out.append(slash)
                }
                i = end
            }
            appendName(UnsafeBufferPointer(rebasing: bytes[name]), to: &out, format: format)
        }
    }

    /// A file name, its extension replaced by `format`'s (a name starting
    /// with its only dot keeps it: `.hidden` becomes `.hidden.plist`).
    private static func appendName(_ name: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], format: PlistFormat?) {
        guard let format else {
            out.append(contentsOf: name)
            return
        }
        var stem = name.count
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 { stem = dot }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: name[..<stem]))
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: fileExtension(for: format).utf8)
    }

    /// The last non-empty component of a path, nil when it has none.
    private static func lastComponent(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == slash { end -= 1 }
        guard end > 0 else { return nil }
        var start = end
        while start > 0, bytes[start - 1] != slash { start -= 1 }
        return start..<end
    }
}
