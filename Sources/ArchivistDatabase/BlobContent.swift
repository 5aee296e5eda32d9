import ArchivistArchive
import ArchivistCore

/// What a blob of a store's column holds, as the commands that read a whole
/// column sort it: apps keep other data beside archives in one column
/// (Notes' `ZICNOTEDATA.ZDATA`: archives and gzip bodies; bitmasks such as
/// the byte `$`), which is named by its kind, not read as a property list.
package enum BlobContent: Equatable, Sendable {
    /// Starts like a property list (`bplist`, an XML declaration, `<plist`,
    /// `<!DOCTYPE plist`) or is an NSArchiver typedstream: it is read, and a
    /// broken one is an error.
    case marked
    /// Text that reads as a JSON or OpenStep dictionary or array.
    case text
    /// Anything else, with its kind: `gzip data`, `zip archive`, `SQLite
    /// database`, `text`, `binary data`.
    case other(String)

    /// Sorts `bytes`. Unmarked text is read (only when it starts as a
    /// dictionary or array does and is longer than a byte), so that a
    /// bitmask or a word is never taken for an OpenStep string.
    package static func of(_ bytes: [UInt8]) -> BlobContent {
        bytes.withUnsafeBytes { raw in
            if isMarked(raw) { return .marked }
            if let kind = FormatSniffer.dataKind(raw) { return .other(kind) }
            // Text holds no control characters but tabs and line breaks (a bitmask such as 0x10 is data).
            guard !FormatSniffer.isBinaryData(raw), String(validating: raw, as: UTF8.self) != nil,
                  !raw.contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) else { return .other("binary data") }
            guard raw.count > 1, let first = raw.first(where: { !FormatSniffer.isSpace($0) }),
                  first == UInt8(ascii: "{") || first == UInt8(ascii: "(") || first == UInt8(ascii: "["),
                  let tree = try? PropertyList.read(raw).tree else { return .other("text") }
            switch tree.kind(of: tree.root) {
            case .dictionary, .array: return .text
            default: return .other("text")
            }
        }
    }

    /// The kind of other data; nil for a property list or archive to read.
    package var otherKind: String? {
        if case .other(let kind) = self { return kind }
        return nil
    }

    /// `bplist`, a typedstream, or XML that says it is (after a UTF-8
    /// byte-order mark and spaces, or as UTF-16 or UTF-32 the sniffer reads as XML).
    private static func isMarked(_ raw: UnsafeRawBufferPointer) -> Bool {
        if raw.starts(with: "bplist".utf8) || FormatSniffer.isTypedstream(raw) { return true }
        guard FormatSniffer.guess(raw) == .format(.xml) else { return false }
        var i = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        if raw.count >= 2, raw[0] == 0 || raw[1] == 0 || raw[0] == 0xFE || raw[0] == 0xFF { return true }
        while i < raw.count, FormatSniffer.isSpace(raw[i]) { i += 1 }
        let rest = UnsafeRawBufferPointer(rebasing: raw[i...])
        return rest.starts(with: "<?xml".utf8) || rest.starts(with: "<plist".utf8) || rest.starts(with: "<!DOCTYPE plist".utf8)
    }
}
