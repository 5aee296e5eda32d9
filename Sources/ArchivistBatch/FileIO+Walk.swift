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

        /// Options.
        package init(recursive: Bool = true, followLinksOut: Bool = false, skippedFolders: Set<FileIdentity> = [], skippedSuffix: String? = nil) {
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

    /// The regular files below a directory, recursively, in sorted order (by
    /// the bytes of each name, files and folders interleaved as `ls` sorts
    /// them), skipping entries whose names start with a dot. Symbolic links
    /// to files inside `root` are listed; links to files outside it are
    /// skipped (unless `followLinksOut`), and so are dangling and looping
    /// links, each reported to `problems`; links to folders are not followed,
    /// so links cannot make the walk loop. A subfolder that cannot be listed
    /// is reported and the walk goes on; `root` itself that cannot be listed
    /// throws. The walk keeps its own stack.
    package static func files(under root: String, options: WalkOptions = WalkOptions(),
                              problems: (WalkProblem) -> Void = { _ in }) throws -> [String] {
        var out: [String] = []
        // Entries still to visit, the next one last.
        var pending: [(path: String, isFolder: Bool)] = []
        let realRoot = Sys.realPath(root) ?? root
        pending += try entries(of: root, realRoot: realRoot, options: options, problems: problems).reversed()
        while let next = pending.popLast() {
            guard next.isFolder else {
                out.append(next.path)
                continue
            }
            guard options.recursive else { continue }
            if !options.skippedFolders.isEmpty, let id = identity(of: next.path), options.skippedFolders.contains(id) { continue }
            do {
                pending += try entries(of: next.path, realRoot: realRoot, options: options, problems: problems).reversed()
            } catch let error as PlistError {
                problems(WalkProblem(path: next.path, message: error.message, isError: true))
            }
        }
        return out
    }

    /// The visible files and folders directly inside `dir`, sorted by name bytes.
    private static func entries(of dir: String, realRoot: String, options: WalkOptions,
                                problems: (WalkProblem) -> Void) throws -> [(path: String, isFolder: Bool)] {
        guard let handle = Sys.opendir(dir) else { throw ioError("cannot list \(dir)") }
        defer { closedir(handle) }
        var names: [(name: [UInt8], type: UInt8)] = []
        let suffix = options.skippedSuffix.map { Array($0.utf8) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name.first == UInt8(ascii: ".") { continue }
            if let suffix, name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) { continue }
            names.append((name, entry.pointee.d_type))
        }
        names.sort { $0.name.lexicographicallyPrecedes($1.name) }
        let prefix = dir.hasSuffix("/") ? dir : dir + "/"
        var result: [(path: String, isFolder: Bool)] = []
        for (name, type) in names {
            // A name that is not UTF-8 keeps its bytes (see `SystemPath`).
            let text = SystemPath.string(fromBytes: name)
            let path = prefix + text
            // The entry's type from readdir where the file system gives it
            // (no lstat per file); lstat otherwise.
            if type == UInt8(DT_REG) { result.append((path, false)); continue }
            if type == UInt8(DT_DIR) { result.append((path, true)); continue }
            var st = stat()
            guard Sys.lstat(path, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                result.append((path, true))
            case S_IFREG:
                result.append((path, false))
            case S_IFLNK:
                if let file = linkedFile(path, realRoot: realRoot, options: options, problems: problems) { result.append((file, false)) }
            default:
                continue  // Sockets, FIFOs and devices are not files to read.
            }
        }
        return result
    }

    /// `path` when the symbolic link there leads to a regular file the walk
    /// takes; nil (reported when worth it) otherwise.
    private static func linkedFile(_ path: String, realRoot: String, options: WalkOptions, problems: (WalkProblem) -> Void) -> String? {
        var target = stat()
        guard Sys.stat(path, &target) == 0 else {
            let why = errno == ELOOP ? "a symbolic link that loops" : "a dangling symbolic link (\(String(cString: strerror(errno))))"
            problems(WalkProblem(path: path, message: "\(why); skipped", isError: false))
            return nil
        }
        // Links to folders are not followed; devices and the like are not files.
        guard (target.st_mode & S_IFMT) == S_IFREG else { return nil }
        if options.followLinksOut { return path }
        let inside = realRoot == "/" ? "/" : realRoot + "/"
        guard let real = Sys.realPath(path), real.hasPrefix(inside) else {
            problems(WalkProblem(path: path, message: "a symbolic link to \(Sys.realPath(path) ?? "?"), outside \(realRoot); skipped (name it, or give --follow-links)", isError: false))
            return nil
        }
        return path
    }
}
