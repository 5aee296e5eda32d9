import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input of a batch: a file named on the command line, or found in a
/// folder named there (with its path relative to that folder, which an
/// output folder mirrors).
///
/// A batch keeps one item a file for the whole run, so an item holds one
/// string: a found file's relative path is the tail of its source (the walk
/// names it folder + "/" + relative) and its anchor's path is that same
/// tail unless a link inside the folder led elsewhere; both are kept apart
/// only when they are not.
package struct BatchItem: Sendable, Equatable {
    /// The file to read (`-` for standard input).
    package let source: String
    /// What is rarely there, boxed so that an item stays small: the
    /// relative path when it is not the tail of `source` (then
    /// `relativeStart` is -2), and the anchor's path when it is not the
    /// relative path (a link inside the folder).
    private final class Apart: Sendable {
        let relative: String?
        let anchorFile: String?
        init(relative: String?, anchorFile: String?) {
            self.relative = relative
            self.anchorFile = anchorFile
        }
    }
    private let apart: Apart?
    /// The anchor's folder (nil: no anchor).
    private let anchorRoot: Folder?
    /// The file's identity when planning looked it up (a named file), so
    /// the batch need not look again; not part of the item's equality.
    package let identity: FileIO.FileIdentity?
    /// Where the relative path starts in `source`'s UTF-8 bytes; -1: no
    /// relative path (a named file); -2: it is kept apart.
    private let relativeStart: Int32

    /// The path below the folder it was found in, or nil for a named file.
    package var relative: String? {
        if relativeStart >= 0 { return String(Substring(source.utf8[source.utf8.index(source.utf8.startIndex, offsetBy: Int(relativeStart))...])) }
        return apart?.relative
    }

    /// True for a file found in a folder (it has a relative path).
    package var isFound: Bool { relativeStart != -1 }

    /// For a file found in a folder: the folder's descriptor and the file's
    /// path below it, so that it is opened, and replaced in place, through
    /// the folder that was walked with no symbolic link followed (what the
    /// walk checked is what is read and written); nil for a named file and
    /// a link followed out of the folder. Not part of the item's equality.
    package var anchor: FileIO.Anchor? {
        guard let anchorRoot else { return nil }
        guard let file = apart?.anchorFile ?? relative else { return nil }
        return FileIO.Anchor(root: anchorRoot, file: file)
    }

    /// An item.
    package init(source: String, relative: String? = nil, identity: FileIO.FileIdentity? = nil, anchor: FileIO.Anchor? = nil) {
        self.source = source
        self.identity = identity
        anchorRoot = anchor?.root
        var separate: String?
        if let relative {
            let tail = source.utf8.count - relative.utf8.count
            if tail >= 0, tail <= Int(Int32.max), Self.utf8(of: source, from: tail, is: relative) {
                relativeStart = Int32(tail)
            } else {
                relativeStart = -2
                separate = relative
            }
        } else {
            relativeStart = -1
        }
        let anchorFile = anchor.flatMap { $0.file == relative ? nil : $0.file }
        apart = separate == nil && anchorFile == nil ? nil : Apart(relative: separate, anchorFile: anchorFile)
    }

    /// True when `text`'s UTF-8 from byte `start` (at most its count) on is
    /// `tail`'s: one `memcmp` (a batch makes an item per file found).
    private static func utf8(of text: String, from start: Int, is tail: String) -> Bool {
        let same = text.utf8.withContiguousStorageIfAvailable { a in
            tail.utf8.withContiguousStorageIfAvailable { b -> Bool in
                guard a.count - start == b.count else { return false }
                guard let p = a.baseAddress, let q = b.baseAddress else { return b.isEmpty }
                return memcmp(p + start, q, b.count) == 0
            }
        }
        return (same ?? nil) ?? text.utf8.dropFirst(start).elementsEqual(tail.utf8)
    }

    package static func == (a: BatchItem, b: BatchItem) -> Bool {
        a.source == b.source && a.relative == b.relative
    }
}

/// Which files of the inputs a batch takes.
package struct BatchSelection: Sendable, Equatable {
    /// Walk folders recursively (otherwise only the files directly inside).
    package var recursive = false
    /// Globs a file found in a folder must match (any of them); empty: all.
    package var include: [String] = []
    /// Globs no file found in a folder may match.
    package var exclude: [String] = []
    /// Take only shard `index` (1-based) of `count`.
    package var shard: (index: Int, count: Int)?
    /// Take files in folders reached through symbolic links that lead out
    /// of the folder (`--follow-links`); otherwise they are skipped with a warning.
    package var followLinks = false
    /// A folder the walk leaves out: the output folder, when it lies inside
    /// an input folder (its results are not inputs of the next run).
    package var outputFolder: String?
    /// The suffix of the run's backups: files in folders whose names end in
    /// it are backups, not inputs.
    package var backupSuffix: String?
    /// Hidden files and folders (names starting with a dot) are walked too.
    package var hidden = false

    /// A selection.
    package init(recursive: Bool = false, include: [String] = [], exclude: [String] = [], shard: (index: Int, count: Int)? = nil,
                 followLinks: Bool = false, outputFolder: String? = nil, backupSuffix: String? = nil, hidden: Bool = false) {
        self.hidden = hidden
        self.recursive = recursive
        self.include = include
        self.exclude = exclude
        self.shard = shard
        self.followLinks = followLinks
        self.outputFolder = outputFolder
        self.backupSuffix = backupSuffix
    }

    package static func == (a: BatchSelection, b: BatchSelection) -> Bool {
        a.recursive == b.recursive && a.include == b.include && a.exclude == b.exclude && a.shard?.index == b.shard?.index && a.shard?.count == b.shard?.count
            && a.followLinks == b.followLinks && a.outputFolder == b.outputFolder && a.backupSuffix == b.backupSuffix && a.hidden == b.hidden
    }

    /// How folders are walked under this selection.
    var walkOptions: FileIO.WalkOptions {
        FileIO.WalkOptions(recursive: recursive, followLinksOut: followLinks,
                           skippedFolders: Set(outputFolder.flatMap { FileIO.identity(of: $0) }.map { [$0] } ?? []),
                           skippedSuffix: backupSuffix, hidden: hidden)
    }

    /// Parses `I/N` (1 <= I <= N).
    package static func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n else { return nil }
        return (i, n)
    }

    /// True when a glob matches a path: patterns without `/` match the file
    /// name, others the path relative to the folder (`*` may cross `/`).
    package static func matches(_ pattern: String, relative: String) -> Bool {
        let subject = pattern.contains("/") ? relative : String(relative.split(separator: "/").last ?? Substring(relative))
        return fnmatch(pattern, subject, 0) == 0
    }

    /// The shard a path falls in (0-based), by a stable hash (FNV-1a) of its
    /// bytes, so the same file lands in the same shard on every machine.
    package static func shardIndex(of path: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(count))
    }
}

/// The items of a batch, in a stable order: named files as given, each
/// folder's files sorted.
package enum BatchPlan {
    /// The items `inputs` name under `selection`. A folder needs `recursive`
    /// to reach its subfolders; include and exclude globs filter the files
    /// found in folders (named files are always taken); a shard takes the
    /// items whose path hashes to it. What the walks met and left out goes
    /// to `problems` (see `FileIO.files(under:options:problems:)`).
    package static func items(_ inputs: [String], selection: BatchSelection = BatchSelection(),
                              problems: (FileIO.WalkProblem) -> Void = { _ in }) throws -> [BatchItem] {
        var items: [BatchItem] = []
        try forEachItem(inputs, selection: selection, problems: problems) { items.append($0) }
        // Kept for the whole run: without the room appending left (up to as much again).
        guard items.capacity > items.count + items.count / 16 else { return items }
        var trimmed: [BatchItem] = []
        trimmed.reserveCapacity(items.count)
        trimmed += items
        return trimmed
    }

    /// `items(_:selection:problems:)` handing each item to `found` as the
    /// walks find it, in the same order (a problem goes to `problems` where
    /// the walk meets it), so that work on the first files can start while
    /// the walk goes on. What `found` throws ends the walk and is rethrown.
    package static func forEachItem(_ inputs: [String], selection: BatchSelection = BatchSelection(),
                                    problems: (FileIO.WalkProblem) -> Void = { _ in }, found: (BatchItem) throws -> Void) throws {
        let walk = selection.walkOptions
        let shard = selection.shard
        func take(_ item: BatchItem) throws {
            if let shard, BatchSelection.shardIndex(of: item.relative ?? item.source, count: shard.count) != shard.index - 1 { return }
            try found(item)
        }
        for input in inputs {
            let status = input == "-" ? nil : FileIO.status(of: input)
            guard let status, status.isDirectory else {
                try take(BatchItem(source: input, identity: status?.identity))
                continue
            }
            // Each file as it is found: the walk's list is never held whole.
            try FileIO.walk(input, options: walk, problems: problems) { folder, file in
                let relative = file.relative
                if !selection.include.isEmpty, !selection.include.contains(where: { BatchSelection.matches($0, relative: relative) }) { return }
                if selection.exclude.contains(where: { BatchSelection.matches($0, relative: relative) }) { return }
                try take(BatchItem(source: file.path, relative: relative,
                                   anchor: file.anchored.map { FileIO.Anchor(root: folder, file: $0) }))
            }
        }
    }
}

extension BatchPlan {
    /// The extensions of the property-list family (compared without case): a
    /// file found in a folder with one of them is always read, and a broken
    /// one is an error. `sfl`, `sfl2`, `sfl3`... are taken by their prefix.
    package static let plistExtensions: Set<String> = [
        "plist", "strings", "stringsdict", "xcstrings", "entitlements", "xcprivacy", "nib", "pbxproj",
        "mobileprovision", "provisionprofile", "mobileconfig", "webarchive", "btm", "webloc", "fileloc",
        "xcsettings", "xcuserstate", "bplist", "binarycookies", "bookmark",
    ]

    /// True when a file found in a folder walk is read: its name ends in one
    /// of `plistExtensions` (or `.sflN`), or its content starts with the
    /// signature of a format Archivist reads (`bplist`, `<?xml` or `<plist`,
    /// a typedstream, `NIBArchive`, a CMS envelope, `Bud1`, `cook`, `book`,
    /// `SQLite format 3`). Other files (`.txt`, `.css`, `.json`, files without
    /// an extension) are skipped and counted, unless asked for.
    package static func readsInWalk(_ path: String, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { readsInWalk(path, $0) }
    }

    /// `readsInWalk(_:_:)` of an input read in place.
    package static func readsInWalk(_ path: String, _ raw: UnsafeRawBufferPointer) -> Bool {
        hasPlistExtension(path) || FormatSniffer.startsWithArchivistSignature(raw)
    }

    /// True when the file name's extension is one of `plistExtensions`
    /// (or `sfl` and ASCII digits), in any ASCII case: the text after the
    /// last dot of the last component (trailing slashes left out), a dot
    /// that starts the name (a hidden file) being none. Read from the path's
    /// UTF-8 bytes, backwards from its end: a walk asks it of every file.
    package static func hasPlistExtension(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes -> Bool in
            let slash = UInt8(ascii: "/"), period = UInt8(ascii: ".")
            var end = bytes.count
            while end > 0, bytes[end - 1] == slash { end -= 1 }
            var dot = end
            while dot > 0, bytes[dot - 1] != period, bytes[dot - 1] != slash { dot -= 1 }
            // No dot in the name, or the dot that starts it.
            guard dot > 1, bytes[dot - 1] == period, bytes[dot - 2] != slash else { return false }
            let count = end - dot
            guard count <= maxExtensionLength else { return isSharedFileList(bytes, dot, end) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxExtensionLength) { lowered -> Bool in
                for i in 0..<count { lowered[i] = asciiLowercased(bytes[dot + i]) }
                let ext = String(decoding: UnsafeBufferPointer(rebasing: lowered[0..<count]), as: UTF8.self)
                return plistExtensions.contains(ext) || isSharedFileList(bytes, dot, end)
            }
        }
    }

    /// The length of the longest of `plistExtensions`, in bytes.
    private static let maxExtensionLength = plistExtensions.map(\.utf8.count).max() ?? 0

    /// True when `bytes[start..<end]` is `sfl` (any case) and ASCII digits: a
    /// shared file list (`.sfl2`, `.sfl3`).
    private static func isSharedFileList(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start >= 3, asciiLowercased(bytes[start]) == UInt8(ascii: "s"),
              asciiLowercased(bytes[start + 1]) == UInt8(ascii: "f"), asciiLowercased(bytes[start + 2]) == UInt8(ascii: "l") else { return false }
        return bytes[(start + 3)..<end].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    @inline(__always)
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
