/// Where in an input something was found.
public enum SourceLocation: Sendable, Equatable {
    /// No position is known.
    case unknown
    /// A line and column (both 1-based) in a text format: XML, JSON, OpenStep.
    case text(line: Int, column: Int)
    /// A byte offset in a binary plist, and the index of the object being read
    /// when one was.
    case binary(offset: Int, object: Int?)
    /// A place in a keyed archive: the `$objects` index (nil for the envelope:
    /// `$archiver`, `$top`...) and the key path that led there.
    case archive(object: Int?, keyPath: String)

    /// The line and column of a byte offset in a text buffer, counting CR, LF and
    /// CRLF as one line break each; the column counts bytes, 1-based. Computed only
    /// when an error is reported, so scanners carry byte offsets alone.
    package static func text(in bytes: UnsafeRawBufferPointer, offset: Int) -> SourceLocation {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(max(offset, 0), bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A {
                line += 1
                lineStart = i + 1
            } else if b == 0x0D {
                if i + 1 < bytes.count, bytes[i + 1] == 0x0A, i + 1 < end { i += 1 }
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return .text(line: line, column: end - lineStart + 1)
    }

    /// The location without a file name: `12:5`, `offset 40 (object 3)`,
    /// `$objects[4] root.name`, or empty; a key path of more than 24 steps
    /// shows its first and last steps (`KeyPathText`).
    public var shortDescription: String {
        switch self {
        case .unknown: return ""
        case .text(let line, let column): return "\(line):\(column)"
        case .binary(let offset, let object):
            if let object { return "offset \(offset) (object \(object))" }
            return "offset \(offset)"
        case .archive(let object, let keyPath):
            let keyPath = KeyPathText.shown(keyPath)
            guard let object else { return keyPath }
            return keyPath.isEmpty ? "$objects[\(object)]" : "$objects[\(object)] (\(keyPath))"
        }
    }

    /// The one line every error, warning and lint finding is printed as:
    /// `PATH:LINE:COL: SEVERITY: MESSAGE` for text formats,
    /// `PATH: offset N (object I): SEVERITY: MESSAGE` for binary plists and
    /// archives, `PATH: SEVERITY: MESSAGE` with no position. Control
    /// characters in the message, the path and the key path (a newline in a
    /// file name or a key included) are escaped as `TerminalText` escapes
    /// them, so the line is one line and safe on a terminal.
    package func formatted(path: String, severity: String, message: String) -> String {
        let text = PlistError.oneLine(message)
        let line: String
        switch self {
        case .unknown: line = "\(path): \(severity): \(text)"
        case .text(let l, let column): line = "\(path):\(l):\(column): \(severity): \(text)"
        case .binary, .archive: line = "\(path): \(shortDescription): \(severity): \(text)"
        }
        return TerminalText.escaped(line)
    }
}
