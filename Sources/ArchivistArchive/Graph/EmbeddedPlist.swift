import ArchivistCore

/// Property lists stored inside `<data>` values: a preferences file holding an
/// archived object, an archive holding another archive.
enum EmbeddedPlist {
    /// The binary or XML property list that data holds, with its format; nil
    /// when the data does not start like one or does not read.
    static func document(_ bytes: [UInt8]) -> PlistDocument? {
        let binary = bytes.starts(with: Array("bplist00".utf8))
        let xml = bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8))
        guard binary || xml else { return nil }
        return try? PropertyList.read(bytes)
    }

    /// The JSON document that data holds (a value stored with `JSONEncoder`);
    /// nil when the data does not start with `{` or `[` or does not read.
    static func json(_ bytes: [UInt8]) -> PlistValue? {
        guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return try? bytes.withUnsafeBytes { try PropertyList.read($0, as: .json).value }
    }
}
