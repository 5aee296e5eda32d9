import ArchivistBatch
import ArchivistCore

/// What a command says about a file that is not a property list: its kind,
/// as `FormatSniffer` names it, and where Archivist has a way to read it,
/// the command line to use (`sms.db: error: not a property list: an SQLite
/// database; use --sqlite sms.db`). The library names kinds; the flags are
/// the command's, so the hints live here.
enum FormatHint {
    /// The option that reads a file of `kind`, with the file's path; nil
    /// when Archivist has none.
    static func hint(for kind: FormatSniffer.Kind, path: String) -> String? {
        switch kind {
        case .sqlite: return "use --sqlite \(shellQuoted(path))"
        default: return nil
        }
    }

    /// The kind of the file at `path` by its first bytes; nil for standard
    /// input, a property list, text or unknown data.
    static func kind(ofFileAt path: String) -> FormatSniffer.Kind? {
        guard let head = FileIO.head(path) else { return nil }
        return head.withUnsafeBytes { FormatSniffer.kind($0) }
    }

    /// `message` with the hint for the file at `path` when the message is a
    /// reader's refusal of another kind of file (`not a property list: ...`).
    static func adding(to message: String, path: String) -> String {
        guard message.hasPrefix(refusal), let kind = kind(ofFileAt: path), message.contains(kind.name),
              let hint = hint(for: kind, path: path) else { return message }
        return message + "; " + hint
    }

    /// How a reader's refusal of a file of another kind starts.
    static let refusal = "not a property list: "

    /// `path` as a shell word: as is when it holds only safe characters,
    /// else in single quotes.
    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy { $0.isLetter || $0.isNumber || "._-/+:@,".contains($0) } && !s.isEmpty
            ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

extension PlistError {
    /// `formatted(path:)`, with the command to use when the file is of a kind
    /// Archivist reads another way (see `FormatHint`).
    func hinted(path: String) -> String {
        var error = self
        error.message = FormatHint.adding(to: message, path: path)
        return error.formatted(path: path)
    }
}
