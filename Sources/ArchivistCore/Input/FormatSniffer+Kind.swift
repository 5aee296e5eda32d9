extension FormatSniffer {
    /// A kind of file that is not a property list (nor an NSArchiver
    /// typedstream), told by its first bytes alone: the Apple formats that
    /// sit beside property lists, and the common files users hand a plist
    /// tool by mistake. Names are for messages (`an SQLite database`); the
    /// command adds what to do instead.
    package enum Kind: String, Sendable, CaseIterable {
        case nibArchive, signedEnvelope, dsStore, binaryCookies, bookmark, finderAlias, alias
        case sqlite, gzip, zip, xz, bom, aea, machO, universalMachO, elf
        case png, jpeg, gif, heif, tiff, pdf

        /// The name with its article, for `PATH: error: not a property list: NAME`.
        package var name: String {
            switch self {
            case .nibArchive: return "an iOS compiled nib (NIBArchive)"
            case .signedEnvelope: return "a CMS (PKCS #7) signed envelope"
            case .dsStore: return "a Finder .DS_Store file"
            case .binaryCookies: return "a binary cookie store (Cookies.binarycookies)"
            case .bookmark: return "bookmark data"
            case .finderAlias: return "a Finder alias file (bookmark data)"
            case .alias: return "an alias record"
            case .sqlite: return "an SQLite database"
            case .gzip: return "gzip data"
            case .zip: return "a zip archive"
            case .xz: return "xz data"
            case .bom: return "a compiled asset catalog (BOM)"
            case .aea: return "an Apple Encrypted Archive (AEA)"
            case .machO: return "a Mach-O binary"
            case .universalMachO: return "a universal Mach-O binary"
            case .elf: return "an ELF binary"
            case .png: return "a PNG image"
            case .jpeg: return "a JPEG image"
            case .gif: return "a GIF image"
            case .heif: return "a HEIF image"
            case .tiff: return "a TIFF image"
            case .pdf: return "a PDF document"
            }
        }

        /// The name without its article, as lists of blobs show it (`gzip data, 295 bytes`).
        package var shortName: String {
            switch self {
            case .sqlite: return "SQLite database"
            case .zip: return "zip archive"
            case .gzip, .xz, .bookmark: return name
            default:
                guard let space = name.firstIndex(of: " ") else { return name }
                return String(name[name.index(after: space)...])
            }
        }

        /// True for a format of the property-list family that Archivist reads
        /// or is to read (a folder walk takes files that start with its
        /// signature, whatever their names).
        package var isPlistFamily: Bool {
            switch self {
            case .nibArchive, .signedEnvelope, .dsStore, .binaryCookies, .bookmark, .finderAlias, .alias, .sqlite: return true
            default: return false
            }
        }

        /// True for a format `PropertyList.read` reads into a tree (read-only:
        /// no writer writes it back): binary cookie stores, `.DS_Store`
        /// files, and bookmark files as a document whose root is their data.
        package var isRead: Bool { self == .binaryCookies || self == .dsStore || self == .bookmark || self == .finderAlias }

        /// True for a format the archive commands read as the keyed archive
        /// it holds (dump, get, classes, info, diff and lint), as they read
        /// typedstreams: iOS compiled nibs.
        package var isReadAsArchive: Bool { self == .nibArchive }

        /// The format `info` reports for a kind that is read.
        package var formatName: String? {
            switch self {
            case .binaryCookies: return "binarycookies"
            case .nibArchive: return "nibarchive"
            case .dsStore: return "dsstore"
            case .bookmark: return "bookmark"
            case .finderAlias: return "alias"
            default: return nil
            }
        }

        /// What a message adds after the name when Archivist has no reader:
        /// `, which Archivist does not read` (`yet` for the Apple formats
        /// beside property lists). Empty for SQLite (`--sqlite` reads it) and
        /// for the formats Archivist reads (``isRead``).
        package var notReadNote: String {
            switch self {
            case .sqlite, .binaryCookies, .dsStore, .bookmark, .finderAlias: return ""
            case .nibArchive: return " (dump, get, classes, info, diff and lint read it)"
            case .signedEnvelope: return ", whose property list the archivist command reads (PropertyList.read does not open the envelope)"
            case .alias: return ", which Archivist does not read yet"
            default: return ", which Archivist does not read"
            }
        }
    }

    /// The signatures `kind(_:)` compares, made once: an array literal at each
    /// comparison would be built (allocated) at every call, two or three
    /// times per file of a folder walk.
    private enum Signature {
        static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        static let dsStoreVersion: [UInt8] = [0, 0, 0, 1]
        static let fourZeros: [UInt8] = [0, 0, 0, 0]
        static let gzip: [UInt8] = [0x1F, 0x8B]
        static let zipLocal: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
        static let zipEnd: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
        static let zipSpanned: [UInt8] = [0x50, 0x4B, 0x07, 0x08]
        static let xz: [UInt8] = [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
        static let machO32: [UInt8] = [0xFE, 0xED, 0xFA, 0xCE]
        static let machO64: [UInt8] = [0xFE, 0xED, 0xFA, 0xCF]
        static let machO32Swapped: [UInt8] = [0xCE, 0xFA, 0xED, 0xFE]
        static let machO64Swapped: [UInt8] = [0xCF, 0xFA, 0xED, 0xFE]
        static let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
        static let universal: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE]
        static let universal64: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBF]
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        static let tiffLittle: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        static let tiffBig: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        static let nibArchive: [UInt8] = Array("NIBArchive".utf8)
        static let bud1: [UInt8] = Array("Bud1".utf8)
        static let cook: [UInt8] = Array("cook".utf8)
        static let book: [UInt8] = Array("book".utf8)
        static let mark: [UInt8] = Array("mark".utf8)
        static let sqlite: [UInt8] = Array("SQLite format 3\u{0}".utf8)
        static let bomStore: [UInt8] = Array("BOMStore".utf8)
        static let aea1: [UInt8] = Array("AEA1".utf8)
        static let gif87a: [UInt8] = Array("GIF87a".utf8)
        static let gif89a: [UInt8] = Array("GIF89a".utf8)
        static let ftyp: [UInt8] = Array("ftyp".utf8)
        static let pdf: [UInt8] = Array("%PDF-".utf8)
    }

    /// The kind of `bytes` when their first bytes are the signature of a
    /// format that is not a property list; nil for the property-list family,
    /// typedstreams, text and unknown data. Signatures made of letters are
    /// taken only with the binary bytes that follow them in the format, so
    /// that an OpenStep word (`book`, `GIF89a`) stays text.
    package static func kind(_ bytes: UnsafeRawBufferPointer) -> Kind? {
        let n = bytes.count
        // Asked five or six times per file of a batch, and most files match
        // no signature: the first byte turns nearly every one away.
        func at(_ offset: Int, _ signature: [UInt8]) -> Bool {
            guard offset >= 0, n - offset >= signature.count, bytes[offset] == signature[0] else { return false }
            for k in 1..<signature.count where bytes[offset + k] != signature[k] { return false }
            return true
        }
        func u32be(_ o: Int) -> UInt32? {
            guard o >= 0, n - o >= 4 else { return nil }
            return UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3])
        }
        guard n >= 4 else { return n >= 3 && at(0, Signature.jpeg) ? .jpeg : nil }
        // The first byte picks the signatures worth comparing. Alias records
        // (any first byte) are looked for after the five kinds before them
        // and before the rest, so that bytes laid out as two kinds are the
        // one listed first, as they always were.
        switch bytes[0] {
        case UInt8(ascii: "N"):
            if at(0, Signature.nibArchive), n >= 18, bytes[11] == 0 || bytes[14] == 0 { return .nibArchive }
        case 0x30:
            if isSignedEnvelope(bytes) { return .signedEnvelope }
        case 0:
            if at(0, Signature.dsStoreVersion), at(4, Signature.bud1) { return .dsStore }
        case UInt8(ascii: "c"):
            if at(0, Signature.cook), n >= 8, bytes[4] == 0 { return .binaryCookies }
        case UInt8(ascii: "b"):
            // Bookmark data: `book`, its length, a version (0x10040000 on disk);
            // a Finder alias file wraps it in `book\0\0\0\0mark\0\0\0\0`.
            if at(0, Signature.book), n >= 16 {
                if at(4, Signature.fourZeros), at(8, Signature.mark) { return .finderAlias }
                if bytes[8..<12].contains(0), bytes[12..<16].contains(0) { return .bookmark }
            }
        default:
            break
        }
        if isAliasRecord(bytes) { return .alias }
        switch bytes[0] {
        case UInt8(ascii: "S"):
            if at(0, Signature.sqlite) { return .sqlite }
        case 0x1F:
            if at(0, Signature.gzip) { return .gzip }
        case UInt8(ascii: "P"):
            if at(0, Signature.zipLocal) || at(0, Signature.zipEnd) || at(0, Signature.zipSpanned) { return .zip }
        case 0xFD:
            if at(0, Signature.xz) { return .xz }
        case UInt8(ascii: "B"):
            if at(0, Signature.bomStore), n >= 12, bytes[8] == 0 { return .bom }
        case UInt8(ascii: "A"):
            if at(0, Signature.aea1), n >= 8, bytes[5..<8].contains(0) { return .aea }
        case 0xFE, 0xCE, 0xCF:
            if at(0, Signature.machO32) || at(0, Signature.machO64) || at(0, Signature.machO32Swapped) || at(0, Signature.machO64Swapped) {
                return .machO
            }
        case 0x7F:
            if at(0, Signature.elf) { return .elf }
        case 0xCA:
            // A universal binary's architecture count is small; a Java class file
            // (also `CAFEBABE`) has its version there, 45 or more.
            if at(0, Signature.universal) || at(0, Signature.universal64), let count = u32be(4), count >= 1, count < 45 { return .universalMachO }
        case 0x89:
            if at(0, Signature.png) { return .png }
        case 0xFF:
            if at(0, Signature.jpeg) { return .jpeg }
        case UInt8(ascii: "G"):
            if at(0, Signature.gif87a) || at(0, Signature.gif89a), n >= 10, bytes[6..<10].contains(where: { $0 < 0x20 || $0 > 0x7E }) { return .gif }
        case 0:
            if at(4, Signature.ftyp), n >= 12 {
                let brand = String(decoding: bytes[8..<12], as: UTF8.self)
                if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif"].contains(brand) { return .heif }
            }
        case UInt8(ascii: "I"), UInt8(ascii: "M"):
            if at(0, Signature.tiffLittle) || at(0, Signature.tiffBig) { return .tiff }
        case UInt8(ascii: "%"):
            if at(0, Signature.pdf) { return .pdf }
        default:
            break
        }
        return nil
    }

    /// A DER or BER `ContentInfo` whose content type is PKCS #7 / CMS
    /// SignedData (OID 1.2.840.113549.1.7.2): `SEQUENCE` with a definite or
    /// indefinite length, then that OID.
    private static func isSignedEnvelope(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 13, bytes[0] == 0x30 else { return false }
        var i = 2
        switch bytes[1] {
        case 0x80, 0x00..<0x80: break
        case 0x81...0x84: i += Int(bytes[1] & 0x7F)
        default: return false
        }
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        return bytes.count - i >= oid.count && bytes[i..<(i + oid.count)].elementsEqual(oid)
    }

    /// A classic Mac OS alias record (`AliasRecord`, version 2 or 3): an
    /// application signature, the record's size (at most the input's), the
    /// version, and a file (0) or folder (1) kind.
    private static func isAliasRecord(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 150 else { return false }
        let size = Int(bytes[4]) << 8 | Int(bytes[5])
        let version = Int(bytes[6]) << 8 | Int(bytes[7])
        let kind = Int(bytes[8]) << 8 | Int(bytes[9])
        guard size >= 150, size <= bytes.count, version == 2 || version == 3, kind <= 1 else { return false }
        // Version 2 names the volume as a Pascal string of at most 27 bytes.
        return version == 3 || bytes[10] <= 27
    }

    /// True when `bytes` start like a property list of some format (a
    /// `bplist` header, an XML declaration or `<plist`, a typedstream) or
    /// with the signature of a format `kind(_:)` names as Archivist's:
    /// what a folder walk takes whatever a file's name.
    package static func startsWithArchivistSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.starts(with: "bplist".utf8) || isTypedstream(bytes) { return true }
        if let kind = kind(bytes) { return kind.isPlistFamily }
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
        if rest.starts(with: "<?xml".utf8) || rest.starts(with: "<plist".utf8) || rest.starts(with: "<!DOCTYPE plist".utf8) { return true }
        // UTF-16 XML (with or without a byte-order mark).
        return guess(bytes) == .format(.xml) && TextDecoding.detectBOM(bytes).map { $0.encoding != .utf8 } ?? (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
    }
}
