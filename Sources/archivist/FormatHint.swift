import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistDatabase

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
    /// `formatted(path:)`, with the option that helps (`commandMessage`) and
    /// the command to use when the file is of a kind Archivist reads another
    /// way (see `FormatHint`).
    func hinted(path: String) -> String {
        var error = self
        error.message = FormatHint.adding(to: commandMessage, path: path)
        return error.formatted(path: path)
    }

    /// `formatted(path:)` with the option that helps (`commandMessage`).
    func commandFormatted(path: String) -> String {
        var error = self
        error.message = commandMessage
        return error.formatted(path: path)
    }

    /// `message` with the command's words for its `reason`: the option that
    /// helps, or the one whose scope the input is outside of. The libraries'
    /// messages name no option (a library has none); this is the one place
    /// the command adds them.
    var commandMessage: String {
        guard let reason, let hint = Self.optionHints[reason] else { return message }
        switch hint {
        case .after(let text):
            return message + text
        case .insideParentheses(let text):
            guard message.hasSuffix(")") else { return message + text }
            return message.dropLast() + text + ")"
        }
    }

    /// Where a reason's words go: after the message, or inside its closing
    /// parenthesis.
    private enum OptionHint {
        case after(String)
        case insideParentheses(String)
    }

    /// Each reason the libraries give, in the command's options.
    private static let optionHints: [Reason: OptionHint] = [
        .missingKey: .insideParentheses("; --create makes missing dictionaries"),
        .referenceCycle: .after(" (--cycles omit leaves such references out)"),
        .archiveAtTop: .after(" (convert --to codable-json writes this archive's JSON)"),
        .selfContainingStruct: .after("; --upgrade --codable converts structs that do not"),
        .codableUpgradeOfSubclass: .after("; --upgrade --codable converts classes without them"),
        .codableUpgradeOfUnwrappedClass: .after("; --upgrade --codable converts classes into structs of their own"),
        .upgradeOfSubclass: .after("; --upgrade converts classes without them"),
        .transformerOfCodableUpgrade: .after("; --codable upgrades to Codable data"),
        .rootsOfSeveralClasses: .after("; --upgrade --codable upgrades archives whose roots are of one class"),
        .rootNotOfTheApp: .after("; --upgrade upgrades archives whose root is one of the app's classes"),
        .backupIsStoreFile: .after("; choose another --backup PATH"),
    ]
}
