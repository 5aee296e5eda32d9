import ArchivistCore

extension Bookmark {
    /// Names of the keys users look for, as the dumpers show them; other
    /// numeric keys are shown in hex (`0x1054`), string keys as themselves.
    static let keyNames: [UInt32: String] = [
        0x1003: "url", 0x1004: "path", 0x1005: "fileIDs", 0x1010: "fileProperties",
        0x1020: "fileName", 0x1030: "fileID", 0x1040: "created",
        0x2000: "tocPath", 0x2002: "volumePath", 0x2005: "volumeURL", 0x2010: "volume",
        0x2011: "volumeUUID", 0x2012: "volumeSize", 0x2013: "volumeCreated",
        0x2020: "volumeProperties", 0x2030: "volumeIsRoot", 0x2040: "volumeBookmark",
        0x2050: "volumeMountPoint", 0xC001: "containingFolderIndex", 0xC011: "userName",
        0xC012: "userID", 0xD001: "wasFileReference", 0xD010: "creationOptions",
        0xE003: "urlLengths", 0xF017: "displayName", 0xF020: "iconData", 0xF021: "iconRef",
        0xF022: "typeBindingData", 0xF030: "creationTime", 0xF080: "sandboxExtension",
        0xF081: "sandboxReadOnlyExtension", 0xFE00: "aliasData",
    ]

    /// The bookmark as a dictionary for the dumpers: the first table's entries
    /// by name (`path` as one absolute path when it holds path components),
    /// dates as dates, UUIDs as text; any further table under `toc ID`.
    package var value: PlistValue {
        var pairs: [(String, PlistValue)] = []
        for (n, table) in tables.enumerated() {
            let entries = table.entries.map { entry -> (String, PlistValue) in
                switch entry.key {
                case .name(let name): return (name, Self.value(entry.item))
                case .code(let code):
                    let name = Self.keyNames[code] ?? Self.hex(code)
                    if code == 0x1004, case .array(let parts) = entry.item {
                        let strings = parts.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
                        if strings.count == parts.count { return (name, .string("/" + strings.joined(separator: "/"))) }
                    }
                    return (name, Self.value(entry.item))
                }
            }
            if n == 0 { pairs += entries } else { pairs.append(("toc \(table.id)", .dictionary(PlistDictionary(entries)))) }
        }
        return .dictionary(PlistDictionary(pairs))
    }

    /// `0x1054`: a key or type code in hex, four digits at least.
    static func hex(_ code: UInt32) -> String {
        let digits = String(code, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// One item as a property-list value.
    static func value(_ item: Item) -> PlistValue {
        switch item {
        case .string(let s), .url(let s): return .string(s)
        case .data(let b): return .data(b)
        case .integer(let i): return .int(i)
        case .real(let r): return .double(r)
        case .date(let t): return .date(PlistDate(secondsSinceReferenceDate: t))
        case .bool(let b): return .bool(b)
        case .array(let items): return .array(items.map(value))
        case .dictionary(let pairs):
            return .dictionary(PlistDictionary(pairs.map { (text($0.key), value($0.value)) }))
        case .uuid(let b): return .string(uuidText(b))
        case .relativeURL(let base, let relative): return .string(text(base) + text(relative))
        case .null: return .null
        case .unknown(let type, let bytes):
            return .dictionary(PlistDictionary([("type", .string(hex(type))), ("bytes", .data(bytes))]))
        }
    }

    /// An item as key or URL text: strings and URLs as themselves, others as their description.
    static func text(_ item: Item) -> String {
        switch item {
        case .string(let s), .url(let s): return s
        case .relativeURL(let base, let relative): return text(base) + text(relative)
        case .uuid(let b): return uuidText(b)
        case .integer(let i): return i.description
        default: return "\(value(item).kind.name)"
        }
    }

    /// `A0324740-33F3-4A61-8922-49F9FD8E0194` for 16 bytes.
    static func uuidText(_ b: [UInt8]) -> String {
        var s = ""
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { s += "-" }
            s += (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        return s
    }
}
