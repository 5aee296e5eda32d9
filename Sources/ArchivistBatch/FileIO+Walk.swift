import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// How a folder is walked for files.
    package struct WalkOptions: Sendable, Equatable {
        /// Into subfolders (otherwise only the files directly inside).
        package var recursive = true
        /// Take files reached through symbolic links that lead out of the
        /// folder walked (otherwise they are skipped with a warning).
        package var followLinksOut = false
        /// Folders not to walk into (an output folder inside the input folder).
        package var skippedFolders: Set<FileIdentity> = []
        /// Files whose names end so are left out (a run's backups).
        package var skippedSuffix: String?
        /// Take hidden entries too (names starting with a dot, `.DS_Store`
        /// among them); otherwise they are left out, as `ls` leaves them.
        package var hidden = false

        /// Options.
        package init(recursive: Bool = true, followLinksOut: Bool = false, skippedFolders: Set<FileIdentity> = [], skippedSuffix: String? = nil,
                     hidden: Bool = false) {
            self.hidden = hidden
            self.recursive = recursive
            self.followLinksOut = followLinksOut
            self.skippedFolders = skippedFolders
            self.skippedSuffix = skippedSuffix
        }
    }

    /// Something a walk met and did not take, worth saying.
    package struct WalkProblem: Sendable, Equatable {
        /// The file or folder.
        package var path: String
        /// What was wrong, or why it was left out.
        package var message: String
        /// True when something that may hold input could not be read (a
        /// folder that cannot be listed): the run did not see all it was
        /// given. False for what was left out on purpose (links that lead
        /// out of the folder, dangling or looping links).
        package var isError: Bool
    }

    /// A file a walk found: its path (the folder walked, then the names on
    /// the way), that path below the folder, and where it is opened from.
    package struct WalkedFile: Sendable {
        /// The path, as the folder was named.
        package var path: String
        /// The path below the folder walked.
        package var relative: String
        /// The file to open below the folder's descriptor: `relative`, or
        /// for a link to a file inside the folder, that file's path below
        /// it; nil for a link followed out of the folder (`followLinksOut`),
        /// which is opened by its path.
        package var anchored: String?
    }

    /// The regular files below a directory, recursively, in sorted order (by
    /// the bytes of each name, files and folders interleaved as `ls` sorts
    /// them), skipping entries whose names start with a dot (unless
    /// `options.hidden`). Symbolic links
    /// to files inside `root` are listed; links to files outside it are
    /// skipped (unless `followLinksOut`), and so are dangling and looping
    /// links, each reported to `problems`; links to folders are not followed,
    /// so links cannot make the walk loop. A subfolder that cannot be listed
    /// is reported and the walk goes on; `root` itself that cannot be listed
    /// throws. The walk keeps its own stack.
    package static func files(under root: String, options: WalkOptions = WalkOptions(),
                              problems: (WalkProblem) -> Void = { _ in }) throws -> [String] {
        try walk(root, options: options, problems: problems).files.map(\.path)
    }

    /// `files(under:options:problems:)` through descriptors: the folder is
    /// opened once (returned, for opening what was found), and every
    /// subfolder below it is entered with `O_DIRECTORY|O_NOFOLLOW` relative
    /// to it, so a subfolder swapped for a link meanwhile is not followed.
    package static func walk(_ root: String, options: WalkOptions = WalkOptions(),
                             problems: (WalkProblem) -> Void = { _ in }) throws -> (folder: Folder, files: [WalkedFile]) {
        var out: [WalkedFile] = []
        let folder = try walk(root, options: options, problems: problems) { out.append($1) }
        return (folder, out)
    }

    /// `walk(_:options:problems:)` handing each file found to `found` (with
    /// the folder opened) as it is found, in the same order, so that a
    /// caller keeping less of each file than the walk knows never holds the
    /// whole list. Returns the folder opened.
    ///
    /// A folder is listed whole (its names have to be sorted), but its
    /// entries' paths are made as the walk reaches them: the first file of a
    /// folder of thousands is handed out before the others' paths exist.
    @discardableResult
    package static func walk(_ root: String, options: WalkOptions = WalkOptions(), problems: (WalkProblem) -> Void = { _ in },
                             found: (Folder, WalkedFile) throws -> Void) throws -> Folder {
        guard let folder = Folder.openIfPossible(root) else { throw ioError("cannot list \(root)") }
        let realRoot = Sys.realPath(root) ?? root
        let prefix = root.hasSuffix("/") ? root : root + "/"
        // The folders being walked, the deepest last, each with its next name.
        var open = [try Listing(of: folder, path: root, relative: "", options: options)]
        while !open.isEmpty {
            guard let next = open[open.count - 1].next(realRoot: realRoot, options: options, problems: problems) else {
                open.removeLast()
                continue
            }
            guard next.isFolder else {
                try found(folder, WalkedFile(path: next.path, relative: next.relative, anchored: next.anchored))
                continue
            }
            guard options.recursive else { continue }
            do {
                let sub: Folder
                switch folder.enter(next.relative) {
                case .success(let entered):
                    sub = entered
                case .failure(let code) where code.value == ELOOP || code.value == ENOTDIR || code.value == EXDEV:
                    throw PlistError(.io, "cannot list \(next.path): it is no longer the folder found (a symbolic link or a file now); it was not followed")
                case .failure(let code):
                    throw ioError("cannot list \(next.path)", errno: code.value)
                }
                if !options.skippedFolders.isEmpty {
                    var st = stat()
                    if fstat(sub.descriptor, &st) == 0,
                       options.skippedFolders.contains(FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))) { continue }
                }
                open.append(try Listing(of: sub, path: prefix + next.relative, relative: next.relative + "/", options: options))
            } catch let error as PlistError {
                problems(WalkProblem(path: next.path, message: error.message, isError: true))
            }
        }
        return folder
    }

    /// A file or folder a walk met.
    private struct Entry {
        var path: String
        var relative: String
        var anchored: String?
        var isFolder: Bool
    }

    /// `a + b` in storage of its size.
    static func exactly(_ a: String, _ b: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(a.utf8.count + b.utf8.count)
        bytes += a.utf8
        bytes += b.utf8
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The visible files, folders and links directly inside a folder, sorted
    /// by name bytes: every name's bytes one after another and where each
    /// one is (two arrays a folder, not one a name), handed out one at a
    /// time as entries. It holds no descriptor: a walk as deep as the
    /// folders go keeps none open but the root's.
    private struct Listing {
        private var pool: [UInt8] = []
        private var names: [(start: Int, count: Int, type: UInt8)] = []
        private var cursor = 0
        /// The folder's path and its path below the root, each ending in "/"
        /// (the root's relative path is empty).
        private let prefix: String, relative: String

        /// The listing of the open folder `dir`, named `path`, at `relative`
        /// below the root. An entry whose type the file system does not give
        /// (no `d_type`) is looked up here, while the folder is open.
        init(of dir: Folder, path: String, relative: String, options: WalkOptions) throws {
            prefix = path.hasSuffix("/") ? path : path + "/"
            self.relative = relative
            let listing = dup(dir.descriptor)
            guard listing >= 0, let handle = fdopendir(listing) else {
                if listing >= 0 { close(listing) }
                throw ioError("cannot list \(path)")
            }
            defer { closedir(handle) }
            let suffix = options.skippedSuffix.map { Array($0.utf8) }
            while let entry = readdir(handle) {
                let start = pool.count
                withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    pool.append(contentsOf: raw.prefix(upTo: raw.firstIndex(of: 0) ?? raw.count))
                }
                let name = pool[start...]
                if name.first == UInt8(ascii: "."), !options.hidden || name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) {
                    pool.removeSubrange(start...)
                    continue
                }
                if let suffix, name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) {
                    pool.removeSubrange(start...)
                    continue
                }
                var type = entry.pointee.d_type
                if type != UInt8(DT_REG), type != UInt8(DT_DIR), type != UInt8(DT_LNK) {
                    // No type from readdir: fstatat (no link followed).
                    guard let st = dir.status(of: pool.withUnsafeBufferPointer { Listing.text($0, start, pool.count - start) }) else {
                        pool.removeSubrange(start...)
                        continue
                    }
                    switch st.st_mode & S_IFMT {
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFREG: type = UInt8(DT_REG)
                    case S_IFLNK: type = UInt8(DT_LNK)
                    default:
                        // Sockets, FIFOs and devices are not files to read.
                        pool.removeSubrange(start...)
                        continue
                    }
                }
                names.append((start, pool.count - start, type))
            }
            // By their bytes, as `memcmp` orders them.
            pool.withUnsafeBufferPointer { bytes in
                names.sort { a, b in
                    guard let base = bytes.baseAddress else { return false }
                    let order = memcmp(base + a.start, base + b.start, min(a.count, b.count))
                    return order != 0 ? order < 0 : a.count < b.count
                }
            }
        }

        /// A name's text; a name that is not UTF-8 keeps its bytes (see `SystemPath`).
        private static func text(_ pool: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> String {
            SystemPath.string(fromBytes: UnsafeBufferPointer(rebasing: pool[start..<(start + count)]))
        }

        /// The next entry, nil after the last. A link is followed here, as
        /// `linkedFile` decides (its problems reported as it is reached).
        mutating func next(realRoot: String, options: WalkOptions, problems: (WalkProblem) -> Void) -> Entry? {
            while cursor < names.count {
                let (start, count, type) = names[cursor]
                cursor += 1
                let text = pool.withUnsafeBufferPointer { Listing.text($0, start, count) }
                // A batch keeps every file's path for the whole run: made to its
                // size (`+` leaves room to append, up to twice the bytes).
                let full = exactly(prefix, text), below = relative + text
                if type == UInt8(DT_REG) { return Entry(path: full, relative: below, anchored: below, isFolder: false) }
                if type == UInt8(DT_DIR) { return Entry(path: full, relative: below, anchored: nil, isFolder: true) }
                if let target = linkedFile(full, realRoot: realRoot, options: options, problems: problems) {
                    return Entry(path: full, relative: below, anchored: target, isFolder: false)
                }
                if options.followLinksOut, isLinkToFile(full) {
                    return Entry(path: full, relative: below, anchored: nil, isFolder: false)
                }
            }
            return nil
        }
    }

    /// True when the link at `path` leads to a regular file.
    private static func isLinkToFile(_ path: String) -> Bool {
        var target = stat()
        return Sys.stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFREG
    }

    /// The path below the root of the file the symbolic link at `path` leads
    /// to, when it is a regular file inside the folder walked; nil (reported
    /// when worth it) otherwise, and for a link out of it that
    /// `followLinksOut` takes (opened by its path).
    private static func linkedFile(_ path: String, realRoot: String, options: WalkOptions, problems: (WalkProblem) -> Void) -> String? {
        var target = stat()
        guard Sys.stat(path, &target) == 0 else {
            let why = errno == ELOOP ? "a symbolic link that loops" : "a dangling symbolic link (\(String(cString: strerror(errno))))"
            problems(WalkProblem(path: path, message: "\(why); skipped", isError: false))
            return nil
        }
        // Links to folders are not followed; devices and the like are not files.
        guard (target.st_mode & S_IFMT) == S_IFREG else { return nil }
        let inside = realRoot == "/" ? "/" : realRoot + "/"
        guard let real = Sys.realPath(path), real.hasPrefix(inside) else {
            if !options.followLinksOut {
                problems(WalkProblem(path: path, message: "a symbolic link to \(Sys.realPath(path) ?? "?"), outside \(realRoot); skipped (name it, or give --follow-links)", isError: false))
            }
            return nil
        }
        // What was checked is what is opened: the file inside, reached from
        // the root's descriptor with no link followed.
        return String(real.dropFirst(inside.count))
    }
}
