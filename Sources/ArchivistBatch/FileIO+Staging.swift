import ArchivistCore
import CArchivistSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// Writes `bytes` to `path`; `-` writes standard output.
    ///
    /// A regular file (or a new one) is written to a temporary file
    /// `.NAME.archivist-PID-XXXXXXX` in the same folder, flushed to disk,
    /// renamed into place, and the folder flushed too, so the destination is
    /// either left as it was or is the complete new file, even after a power
    /// loss; once this returns, the new file survives one. On any failure the
    /// temporary file is removed. A replaced file keeps its permission bits,
    /// owner and group (where the process may set them) and extended
    /// attributes; a symbolic link is followed and its target replaced. A
    /// device, FIFO, socket or descriptor link (`/dev/null`, `/dev/stdout`)
    /// is written directly (see `Destination`). Returns what the
    /// replacement did not keep, as `StagedFile.warningLines`.
    @discardableResult
    package static func writeAtomically(_ bytes: [UInt8], to path: String, unchanged: Precondition? = nil) throws -> [String] {
        if path == "-" {
            try writeAll(bytes, fd: STDOUT_FILENO, name: "standard output")
            return []
        }
        let staged = try stage(bytes, for: path, flush: true, unchanged: unchanged)
        try place(staged)
        try flushFolder(of: staged)
        return staged.warningLines
    }

    /// A file that must still be as it was read when a result is put in
    /// place (an input replaced in place, or the original a backup copies):
    /// the same file (stamp) holding the same bytes (digest).
    package struct Precondition: Sendable, Equatable {
        /// The file, as named.
        package var path: String
        /// Its stamp when it was read.
        package var stamp: FileStamp
        /// The digest of the bytes read; nil where only the stamp is known
        /// (a file about to be replaced that was not read).
        package var digest: ContentDigest?
        /// Where the file is: its folder's descriptor and its name there,
        /// once known (checked there with no link followed); nil: at `path`.
        package var location: Location?

        /// A precondition.
        package init(path: String, stamp: FileStamp, digest: ContentDigest? = nil, location: Location? = nil) {
            self.path = path
            self.stamp = stamp
            self.digest = digest
            self.location = location
        }

        /// The precondition of an input as it was read: its stamp and the
        /// digest of its bytes; nil for standard input or bytes not read from
        /// a file.
        package init?(path: String, input: InputBytes) {
            guard let stamp = input.stamp else { return nil }
            self.init(path: path, stamp: stamp, digest: input.withUnsafeBytes { ContentDigest($0) })
        }

        /// True when the file at `name` in `folder` (the file, or where it
        /// was moved to) is this file as it was read, itself and not through
        /// a link: the same stamp, and then the same bytes. The stamp alone
        /// can match another file (a new file given the inode number the
        /// read one freed, within the file system's timestamp granularity,
        /// with the same size) or a same-size write in place that kept the
        /// modification time.
        func holds(in folder: Folder, name: String) -> Bool {
            guard let st = folder.status(of: name), FileStamp(st).sameContent(as: stamp) else { return false }
            guard let digest else { return true }
            let fd = Sys.open(name, in: folder, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return ContentDigest(descriptor: fd) == digest
        }

        /// `holds(in:name:)` where the file is (`location`, else `path` with
        /// its links followed, as it was named).
        func holdsWhereItIs() -> Bool {
            if let location { return holds(in: location.folder, name: location.name) }
            var st = stat()
            guard Sys.stat(path, &st) == 0, FileStamp(st).sameContent(as: stamp) else { return false }
            guard let digest else { return true }
            return ContentDigest(file: path) == digest
        }

        package static func == (a: Precondition, b: Precondition) -> Bool {
            a.path == b.path && a.stamp == b.stamp && a.digest == b.digest && a.location == b.location
        }
    }

    /// A name in an open folder.
    package struct Location: Sendable, Equatable {
        /// The folder.
        package let folder: Folder
        /// The name in it.
        package let name: String

        /// A location.
        package init(folder: Folder, name: String) {
            self.folder = folder
            self.name = name
        }

        package static func == (a: Location, b: Location) -> Bool { a.folder === b.folder && a.name == b.name }
    }

    /// A result written to a temporary file beside its destination, not yet
    /// renamed into place (see `stage(_:for:flush:)` and `WriteBatch`), or
    /// written directly to a special destination.
    package struct StagedFile: Sendable, Equatable {
        /// The destination as named.
        package let path: String
        /// The folder the rename happens in (the folder of `path`, or of the
        /// target of the link at `path`); nil when nothing is left to place.
        package let folder: Folder?
        /// The name the rename replaces in `folder`.
        package let name: String
        /// The temporary file `.NAME.archivist-PID-XXXXXXX` in `folder`; nil
        /// when the result was written directly to a special destination
        /// or a backup is kept as it was (nothing is left to place).
        package let temporary: String?
        /// True for a backup: placed only where nothing is (never over a file).
        package let keepsExisting: Bool
        /// A file that must be unchanged when this is placed.
        package let unchanged: Precondition?
        /// What putting this file in place does not keep, one sentence each
        /// (an owner the process may not set, extended attributes, the other
        /// names of a file with hard links).
        package let notes: [String]
        /// The device and inode of the temporary file (what a withdrawn
        /// backup must still be).
        let identity: FileIdentity?
        /// The lock held on the temporary file while it waits to be placed
        /// (see `TemporaryLock`); released when the last copy goes.
        var lock: TemporaryLock? = nil

        /// `notes` as the lines a command prints: `PATH: warning: NOTE`.
        package var warningLines: [String] { notes.map { "\(path): warning: \($0)" } }

        /// Nothing to place (written directly, or a backup kept).
        static func nothing(_ path: String, keepsExisting: Bool) -> StagedFile {
            StagedFile(path: path, folder: nil, name: "", temporary: nil, keepsExisting: keepsExisting, unchanged: nil, notes: [], identity: nil)
        }

        package static func == (a: StagedFile, b: StagedFile) -> Bool {
            a.path == b.path && a.folder === b.folder && a.name == b.name && a.temporary == b.temporary
                && a.keepsExisting == b.keepsExisting && a.unchanged == b.unchanged && a.notes == b.notes
        }
    }

    /// Writes `bytes` to a new temporary file `.NAME.archivist-PID-XXXXXXX`
    /// in the folder of `path` (of its target when `path` is a symbolic
    /// link), with the permission bits, owner, group and extended attributes
    /// of the file it will replace (or of `backupOf`, the original a backup
    /// copies), flushed to disk when `flush`. A special destination is
    /// written now, directly. Nothing else is touched; on failure the
    /// temporary file is removed. A destination that is a folder is refused,
    /// and so is any existing destination of a backup (`backupOf`), unless it
    /// already holds exactly `bytes` (the backup a killed attempt of the same
    /// run made: kept, and nothing is left to place).
    /// `knownAbsent` says the caller found nothing at `path` when it planned
    /// the batch, which saves looking again (a file that appears in between
    /// is replaced like any other, with the default permissions).
    /// `unchanged` is checked when the file is placed.
    package static func stage(_ bytes: [UInt8], for path: String, flush: Bool, knownAbsent: Bool = false,
                              backupOf original: Precondition? = nil, unchanged: Precondition? = nil) throws -> StagedFile {
        if original != nil {
            let (dir, base) = split(path)
            return try stage(bytes, in: try openFolder(dir, for: path), name: base, path: path, flush: flush, backupOf: original)
        }
        return try stage(for: path, flush: flush, knownAbsent: knownAbsent, unchanged: unchanged) { sink in sink.append(bytes) }
    }

    /// `stage(_:for:flush:)` of a backup (or any result) named `name` in the
    /// open folder `folder` (`path` names it in messages): the name itself
    /// is written, never a link there (a link is refused).
    package static func stage(_ bytes: [UInt8], in folder: Folder, name: String, path: String, flush: Bool,
                              backupOf original: Precondition? = nil, unchanged: Precondition? = nil) throws -> StagedFile {
        if original != nil, folder.status(of: name) != nil {
            // A backup that holds exactly this original is what an earlier,
            // killed attempt of the same run left: kept, and the run goes on.
            let fd = Sys.open(name, in: folder, O_RDONLY | O_NONBLOCK)
            var st = stat()
            if fd >= 0 {
                defer { close(fd) }
                if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let existing = try? read(fd, st, name: path, maxSize: bytes.count), existing == bytes {
                    return .nothing(path, keepsExisting: true)
                }
            }
            throw backupRefusal(path)
        }
        return try stage(in: folder, name: name, path: path, flush: flush, backupOf: original, unchanged: unchanged,
                         linkRefusal: "refusing to write through the symbolic link \(path)") { fd in
            try writeAll(bytes, fd: fd, name: path)
        }
    }

    /// The folder `dir` a result for `path` is staged in, opened by its path.
    private static func openFolder(_ dir: String, for path: String) throws -> Folder {
        do {
            return try Folder.open(dir)
        } catch {
            throw ioError("cannot write \(path): cannot create a temporary file in \(dir)")
        }
    }

    /// The refusal of a backup name that is taken.
    static func backupRefusal(_ path: String) -> PlistError {
        PlistError(.io, "refusing to overwrite \(path): a backup is never overwritten (move it away, or choose another --backup suffix)")
    }

    /// `stage(_:for:flush:knownAbsent:backupOf:unchanged:)` for a result
    /// written as it is made: `write` gets a sink that streams into the
    /// temporary file.
    package static func stage(for path: String, flush: Bool, knownAbsent: Bool = false, unchanged: Precondition? = nil,
                              streaming write: (ByteSink) throws -> Void) throws -> StagedFile {
        let destination = knownAbsent ? .file(target: path, existing: nil) : try destination(path)
        guard case .file(let target, _) = destination else {
            try writeDirectly(to: path) { fd in try stream(write, fd: fd, name: path) }
            return .nothing(path, keepsExisting: false)
        }
        let (dir, base) = split(target)
        return try stage(in: try openFolder(dir, for: path), name: base, path: path, flush: flush, knownAbsent: knownAbsent,
                         unchanged: unchanged, followsLink: true, streaming: write)
    }

    /// `stage(for:flush:streaming:)` of the name `name` in the open folder
    /// `folder` (`path` names it in messages): a regular file there is
    /// replaced by the rename (and gives its owner, mode and attributes), a
    /// device or FIFO is written directly, a folder is refused, and so is a
    /// symbolic link (`linkRefusal`, the message), unless `followsLink` (the
    /// caller resolved it already, or allows it).
    /// `knownAbsent`: the caller found nothing there when it planned the
    /// batch, which saves looking again (whatever appears meanwhile, a link
    /// included, is replaced by the rename, never written through).
    package static func stage(in folder: Folder, name: String, path: String, flush: Bool, knownAbsent: Bool = false,
                              unchanged: Precondition? = nil, followsLink: Bool = false,
                              linkRefusal: String? = nil, streaming write: (ByteSink) throws -> Void) throws -> StagedFile {
        try stage(in: folder, name: name, path: path, flush: flush, backupOf: nil, unchanged: unchanged, knownAbsent: knownAbsent,
                  followsLink: followsLink,
                  linkRefusal: linkRefusal ?? "refusing to write through the symbolic link \(path)") { fd in
            try stream(write, fd: fd, name: path)
        }
    }

    private static func stream(_ write: (ByteSink) throws -> Void, fd: Int32, name: String) throws {
        let sink = streamingSink(fd: fd, name: name)
        try write(sink)
        try sink.finish()
    }

    private static func stage(in folder: Folder, name: String, path: String, flush: Bool, backupOf original: Precondition?,
                              unchanged: Precondition?, knownAbsent: Bool = false, followsLink: Bool = false, linkRefusal: String,
                              contents: (Int32) throws -> Void) throws -> StagedFile {
        var existing: FileStamp?
        if !knownAbsent, let st = folder.status(of: name) {
            switch st.st_mode & S_IFMT {
            case S_IFREG:
                existing = FileStamp(st)
            case S_IFDIR:
                throw PlistError(.io, "cannot write \(path): Is a directory")
            case S_IFLNK:
                if !followsLink { throw PlistError(.io, linkRefusal) }
                // The caller named a link: its target (resolved by `destination`) is written.
                let target = try destination(path)
                guard case .file(let resolved, _) = target else {
                    try writeDirectly(to: path, contents: contents)
                    return .nothing(path, keepsExisting: false)
                }
                let (dir, base) = split(resolved)
                return try stage(in: try openFolder(dir, for: path), name: base, path: path, flush: flush, backupOf: original, unchanged: unchanged,
                                 linkRefusal: linkRefusal, contents: contents)
            default:
                // A device, FIFO or socket: written directly, never through a link.
                let fd = Sys.open(name, in: folder, O_WRONLY | O_TRUNC | O_NOCTTY)
                guard fd >= 0 else { throw ioError("cannot write \(path)") }
                var isOpen = true
                defer { if isOpen { close(fd) } }
                try contents(fd)
                isOpen = false
                guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
                return .nothing(path, keepsExisting: false)
            }
        }
        removeLeftovers(in: folder)
        // Keep the temporary name within NAME_MAX (255 bytes) for long names.
        let stem = String(decoding: name.utf8.prefix(200), as: UTF8.self)
        let (fd, temporary) = try createTemporary(in: folder, stem: stem, for: path)
        // Locked from its creation (see `createTemporary`); held on past
        // the close below, until the file is placed or discarded.
        let lock = TemporaryLock(holding: fd)
        var isOpen = true
        var written = false
        defer {
            if isOpen { close(fd) }
            if !written { Sys.unlink(temporary, in: folder) }
        }
        var notes: [String] = []
        // A new file gets the default permissions from open itself (0666 less
        // the umask); one that replaces a file (or backs one up) takes that
        // file's owner, group, bits and extended attributes.
        let here = Location(folder: folder, name: name)
        let model = original ?? existing.map { Precondition(path: path, stamp: $0, location: here) }
        var mine = stat()
        if let model {
            mine = try giveOwner(of: model, to: fd, for: path, notes: &notes)
            if original == nil, model.stamp.links > 1 {
                notes.append("it had \(model.stamp.links) names (hard links): it is replaced by a new file, and its other names keep the old content")
            }
        }
        try contents(fd)
        if let model {
            // After the last write: a write by a process without CAP_FSETID
            // (the file's owner, not root) clears the set-id bits, and any
            // write drops a file capability (an extended attribute).
            try copyModeAndAttributes(of: model, to: fd, mode: mine.st_mode, for: path, notes: &notes)
        }
        if flush, fsync(fd) != 0 { throw ioError("cannot write \(path)") }
        var st = stat()
        // A backup's own identity, for `withdraw` (no call more for other files).
        let identity = original != nil && fstat(fd, &st) == 0
            ? FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino)) : nil
        isOpen = false
        guard close(fd) == 0 else { throw ioError("cannot write \(path)") }
        written = true
        var check = unchanged ?? original
        if check != nil, check?.location == nil, unchanged != nil, original == nil { check?.location = here }
        return StagedFile(path: path, folder: folder, name: name, temporary: temporary, keepsExisting: original != nil,
                          unchanged: check, notes: notes, identity: identity, lock: lock)
    }

    /// Gives the open new file `fd` the owner and group of `model`, noting
    /// what could not be kept; returns the file's status.
    private static func giveOwner(of model: Precondition, to fd: Int32, for path: String, notes: inout [String]) throws -> stat {
        let wanted = model.stamp
        var mine = stat()
        guard fstat(fd, &mine) == 0 else { throw ioError("cannot write \(path)") }
        if mine.st_uid != wanted.owner || mine.st_gid != wanted.group {
            if fchown(fd, wanted.owner, wanted.group) != 0 {
                let reason = String(cString: strerror(errno))
                // The group alone may still be ours to give.
                if mine.st_gid != wanted.group, fchown(fd, mine.st_uid, wanted.group) == 0 { mine.st_gid = wanted.group }
                notes.append("the owner (user \(wanted.owner), group \(wanted.group)) is not kept: the new file belongs to user \(mine.st_uid), group \(mine.st_gid) (\(reason))")
            }
        }
        return mine
    }

    /// Gives the open new file `fd`, once written, the permission bits and
    /// extended attributes of `model`, noting what could not be kept. `mode`
    /// is the file's mode before it was written (writing changes only its
    /// set-id bits, which are set whenever wanted).
    private static func copyModeAndAttributes(of model: Precondition, to fd: Int32, mode: mode_t, for path: String,
                                              notes: inout [String]) throws {
        let wanted = model.stamp
        // After the owner: changing it clears the set-id bits.
        if wanted.mode != mode & 0o7777 || wanted.mode & 0o6000 != 0 {
            guard fchmod(fd, wanted.mode) == 0 else { throw ioError("cannot write \(path)") }
            var now = stat()
            if wanted.mode & 0o6000 != 0, fstat(fd, &now) == 0, now.st_mode & 0o7777 != wanted.mode {
                notes.append("the permissions \(String(wanted.mode, radix: 8)) are not all kept: the new file has \(String(now.st_mode & 0o7777, radix: 8)) (the system cleared the set-id bits)")
            }
        }
        var copied: Int32 = 0
        let failed: Bool
        if let location = model.location {
            let source = Sys.open(location.name, in: location.folder, O_RDONLY | O_NONBLOCK)
            if source >= 0 {
                defer { close(source) }
                failed = archivist_copy_xattrs_fd(source, fd, &copied) != 0
            } else {
                failed = true
            }
        } else {
            failed = Sys.copyExtendedAttributes(from: model.path, to: fd, copied: &copied) != 0
        }
        if failed {
            notes.append("extended attributes are not all kept (\(String(cString: strerror(errno))))")
        }
    }

    /// Creates `DIR/.STEM.archivist-PID-XXXXXXX` exclusively, open for
    /// writing with mode 0666 less the umask, and locked (`flock`,
    /// exclusive): the lock, not the process ID, tells a later run's
    /// `removeLeftovers` that the file is live (a process in another PID
    /// namespace, a Kubernetes shard, has IDs this one cannot see). A file
    /// whose lock is taken between its creation and ours was found by a
    /// cleanup (which keeps the lock of every file it removes): it is left
    /// to it and another name is tried. The name's suffix counts up from a
    /// random start drawn once per process (no random draw per file); a
    /// name that exists already is skipped.
    private static func createTemporary(in folder: Folder, stem: String, for path: String) throws -> (Int32, String) {
        for _ in 0..<100 {
            let suffix = temporarySuffixes.withLock { next -> UInt32 in
                defer { next &+= 1 }
                return next
            }
            var digits = String(suffix, radix: 36)
            digits = String(repeating: "0", count: max(0, 7 - digits.utf8.count)) + digits
            let candidate = ".\(stem)\(temporaryMarker)\(processID)-\(digits)"
            let fd = Sys.open(candidate, in: folder, O_WRONLY | O_CREAT | O_EXCL, 0o666)
            if fd >= 0 {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK { return (fd, candidate) }
                close(fd)  // A cleanup took it for a leftover and removes it.
                continue
            }
            guard errno == EEXIST else { break }
        }
        throw ioError("cannot write \(path): cannot create a temporary file in \(folder.path)")
    }

    /// What every temporary file's name holds before the process ID.
    private static let temporaryMarker = ".archivist-"

    /// This process's ID, read once.
    private static let processID = getpid()

    /// The next temporary-name suffix of this process.
    private static let temporarySuffixes = Locked(UInt32.random(in: 0...UInt32.max))

    /// Folders already cleared of leftovers by this process.
    private static let clearedFolders = Locked(Set<String>())

    /// Removes the temporary files a killed run left in `folder`: hidden
    /// `.NAME.archivist-PID-XXXXXXX` regular files that no process holds
    /// locked (a writer locks its temporary file from its creation until it
    /// is placed or discarded; the lock goes with the process, however it
    /// ends). Liveness is never judged by the process ID in the name: a
    /// process in another PID namespace (a shard in another container) has
    /// IDs this one cannot see. The lock of each file removed is kept until
    /// this process ends: a writer that created the file a moment ago and
    /// has not locked it yet then fails to, and writes under another name
    /// (see `createTemporary`); once no more locks may be kept (see
    /// `TemporaryLock`), the rest are left for a later run. Done once per
    /// folder per process, when the first result is staged there; a file
    /// whose lock cannot be tried (not readable by this process) is left.
    private static func removeLeftovers(in folder: Folder) {
        guard clearedFolders.withLock({ $0.insert(folder.path).inserted }) else { return }
        // Listed, opened and removed through the folder's descriptor: a path
        // swapped for a link meanwhile cannot aim the cleanup elsewhere.
        // Its own open of the folder: a `dup` would share the offset a walk left at the end.
        let listing = openat(folder.descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0 else { return }
        guard let handle = fdopendir(listing) else { close(listing); return }
        defer { closedir(handle) }
        let marker = Array(temporaryMarker.utf8)
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard name.first == UInt8(ascii: "."), leftoverProcess(name, marker: marker) != nil else { continue }
            let entryName = SystemPath.string(fromBytes: name)
            let fd = Sys.open(entryName, in: folder, O_RDONLY | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var st = stat()
            // Held: a live writer's (this process's own included: a lock is
            // per open file, so this open does not share ours).
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0,
                  let kept = TemporaryLock(adopting: fd) else {
                close(fd)
                continue
            }
            Sys.unlink(entryName, in: folder)
            removedLeftovers.withLock { $0.append(kept) }
        }
    }

    /// The locks of the leftovers this process removed, kept until it ends.
    private static let removedLeftovers = Locked<[TemporaryLock]>([])

    /// The process ID in a temporary file's name (`.NAME.archivist-PID-XXXXXXX`), or nil.
    static func leftoverProcess(_ name: [UInt8], marker: [UInt8]) -> pid_t? {
        guard name.count > marker.count + 9 else { return nil }
        // The last marker: NAME may hold one too.
        var at = name.count - marker.count
        while at > 0, !name[at..<(at + marker.count)].elementsEqual(marker) { at -= 1 }
        guard at > 0 else { return nil }
        let rest = name[(at + marker.count)...]
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")), dash > rest.startIndex,
              name.count - dash - 1 == 7 else { return nil }
        var pid: Int32 = 0
        for byte in rest[..<dash] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, o1) = pid.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int32(byte - 0x30))
            guard !o1, !o2 else { return nil }
            pid = sum
        }
        return pid > 0 ? pid : nil
    }

    /// True when the staged file holds exactly what the file at `path`
    /// holds (compared a piece at a time); false when either cannot be read,
    /// or the result was written directly (nothing to compare).
    package static func hasSameContents(_ staged: StagedFile, as path: String) -> Bool {
        let b = Sys.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        defer { if b >= 0 { close(b) } }
        return hasSameContents(staged, asOpen: b)
    }

    /// `hasSameContents(_:as:)` of the file the staged one would replace
    /// (its name in its folder, never through a link).
    package static func hasSameContentsAsItsDestination(_ staged: StagedFile) -> Bool {
        guard let folder = staged.folder else { return false }
        let b = Sys.open(staged.name, in: folder, O_RDONLY | O_NONBLOCK)
        defer { if b >= 0 { close(b) } }
        return hasSameContents(staged, asOpen: b)
    }

    private static func hasSameContents(_ staged: StagedFile, asOpen b: Int32) -> Bool {
        guard let temporary = staged.temporary, let folder = staged.folder else { return false }
        let a = Sys.open(temporary, in: folder, O_RDONLY)
        defer { if a >= 0 { close(a) } }
        guard a >= 0, b >= 0 else { return false }
        var sa = stat(), sb = stat()
        guard fstat(a, &sa) == 0, fstat(b, &sb) == 0, (sb.st_mode & S_IFMT) == S_IFREG, sa.st_size == sb.st_size else { return false }
        let size = 1 << 16
        let pa = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let pb = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer {
            pa.deallocate()
            pb.deallocate()
        }
        while true {
            let na = systemRead(a, pa, size)
            guard na >= 0 else { return false }
            var nb = 0
            while nb < na {
                let n = systemRead(b, pb + nb, na - nb)
                guard n > 0 else { return false }
                nb += n
            }
            if na == 0 { return systemRead(b, pb, 1) == 0 }
            guard memcmp(pa, pb, na) == 0 else { return false }
        }
    }

    /// Puts a staged file in place: renames it over its name in its folder
    /// (the folder's descriptor: the name itself is replaced, never a link's
    /// target), or for a backup links it there only if nothing is there yet.
    /// The file it must not lose (`unchanged`) must still be as it was read:
    /// on Linux the result is exchanged with the target in one step and what
    /// came out is checked (and swapped back if it changed), so a save by
    /// rename that lands just before cannot be replaced; elsewhere it is
    /// checked just before the rename. On failure removes the temporary file
    /// and throws; a file written directly has nothing to place.
    package static func place(_ staged: StagedFile) throws {
        guard let temporary = staged.temporary, let folder = staged.folder else { return }
        if let unchanged = staged.unchanged {
            let changed = PlistError(.io, "\(unchanged.path) changed while converting; it was left as it is (run again to convert what it holds now)")
            if !staged.keepsExisting {
                // Our result, held open so its inode number stays its own
                // while it is compared (a removed file frees its number).
                let ours = PinnedFile(temporary, in: folder)
                defer { ours.release() }
                if ours.isOpen, Sys.exchange(temporary, staged.name, in: folder) == 0 {
                    // Swapped in one step: what was replaced is now at the
                    // temporary name, where it is checked with no window for
                    // a save (a rename) to slip in between; a changed file is
                    // swapped back.
                    if unchanged.holds(in: folder, name: temporary) {
                        Sys.unlink(temporary, in: folder)
                        return
                    }
                    try putBack(temporary: temporary, target: staged.name, in: folder, ours: ours, path: unchanged.path)
                    throw changed
                }
            }
            // No exchange here (other systems, some file systems): check, then rename.
            guard unchanged.holdsWhereItIs() else {
                Sys.unlink(temporary, in: folder)
                throw changed
            }
        }
        if staged.keepsExisting {
            // link() never replaces: a backup that appeared meanwhile is kept.
            if Sys.link(temporary, staged.name, in: folder) == 0 {
                Sys.unlink(temporary, in: folder)
                return
            }
            var code = errno
            if code != EEXIST {
                // File systems without hard links (vfat, exFAT): a rename
                // that never replaces (RENAME_NOREPLACE, RENAME_EXCL).
                if Sys.renameNoReplace(temporary, staged.name, in: folder) == 0 { return }
                code = errno
            }
            Sys.unlink(temporary, in: folder)
            if code == EEXIST { throw backupRefusal(staged.path) }
            // Neither: no way to make sure nothing is overwritten, so nothing is written.
            throw ioError("cannot make the backup \(staged.path) without risking overwriting a file there (no hard links and no exclusive rename here)", errno: code)
        }
        guard Sys.rename(temporary, staged.name, in: folder) == 0 else {
            let code = errno
            Sys.unlink(temporary, in: folder)
            throw ioError("cannot write \(staged.path)", errno: code)
        }
    }

    /// Removes a backup `place` put in place, when the result it was made for
    /// could not be: a retry then finds the name free, and makes the backup
    /// of what the file holds then. Only our own file is removed (the same
    /// device and inode as the one staged); a backup kept from a killed
    /// attempt, or anything else there, stays.
    package static func withdraw(_ staged: StagedFile) {
        guard staged.keepsExisting, staged.temporary != nil, let folder = staged.folder, let identity = staged.identity,
              let st = folder.status(of: staged.name),
              FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino)) == identity else { return }
        Sys.unlink(staged.name, in: folder)
    }

    /// Undoes the exchange of our result (`ours`, now at `target`) with a
    /// changed file (now at `temporary`), both names in `folder`: the
    /// changed file goes back to `target` and our result is removed. A save
    /// that lands on `target` meanwhile replaces our result there and is
    /// newer than the changed file, so it must stay: after each exchange,
    /// what came out must be what was expected there (our result first, then
    /// the older file put back); anything else is a newer save, exchanged
    /// back in turn. Every file compared is held open, so an inode number
    /// cannot be a removed file's reused. Throws when a file cannot be
    /// exchanged or examined, or saves keep landing (the changed file is
    /// then left at `temporary`).
    static func putBack(temporary: String, target: String, in folder: Folder, ours: PinnedFile, path: String) throws {
        let stuck = ioError("\(path) changed while converting, and could not be put back (it is at \(folder.shown(temporary)))")
        var pinned: [PinnedFile] = []
        defer { pinned.forEach { $0.release() } }
        func pin() -> PinnedFile? {
            let file = PinnedFile(temporary, in: folder)
            guard file.isOpen else { return nil }
            pinned.append(file)
            return file
        }
        guard var atTemporary = pin() else { throw stuck }
        var expected = ours
        for _ in 0..<100 {
            guard Sys.exchange(temporary, target, in: folder) == 0, let cameOut = pin() else { throw stuck }
            if cameOut.isSameFile(as: expected) {
                Sys.unlink(temporary, in: folder)
                return
            }
            // A newer save came out: the file just put back is the older one.
            expected = atTemporary
            atTemporary = cameOut
        }
        throw stuck
    }

    /// Removes a staged file that will not be placed.
    package static func discard(_ staged: StagedFile) {
        if let temporary = staged.temporary, let folder = staged.folder { Sys.unlink(temporary, in: folder) }
    }

    /// Flushes the folder a staged file was renamed into (nothing for a file
    /// written directly).
    package static func flushFolder(of staged: StagedFile) throws {
        guard staged.temporary != nil, let folder = staged.folder else { return }
        try flushFolder(folder, for: staged.path)
    }

    /// Flushes a folder's entries to disk (the renames done in it), for the
    /// file `path` written there (named in the error).
    package static func flushFolder(_ folder: Folder, for path: String) throws {
        guard fsync(folder.descriptor) == 0 else { throw ioError("cannot write \(path): cannot flush the folder \(folder.path)") }
    }

    /// Flushes a folder named by its path (see `flushFolder(_:for:)`).
    package static func flushFolder(_ folder: String, for path: String) throws {
        try flushFolder(try Folder.open(folder), for: path)
    }

    /// Flushes the contents of staged files to disk before any is renamed into
    /// place: one `syncfs` per file system on Linux, else `fsync` of each
    /// file. Throws naming the first file that could not be flushed. Files
    /// written directly are left out.
    package static func flushContents(of staged: [StagedFile]) throws {
        let staged = staged.filter { $0.temporary != nil && $0.folder != nil }
        if archivist_has_syncfs() != 0 {
            var flushed: Set<UInt64> = []
            var seenFolders: Set<ObjectIdentifier> = []
            for file in staged {
                guard let folder = file.folder, seenFolders.insert(ObjectIdentifier(folder)).inserted else { continue }
                var st = stat()
                guard fstat(folder.descriptor, &st) == 0 else { throw ioError("cannot write \(file.path)") }
                guard flushed.insert(UInt64(truncatingIfNeeded: st.st_dev)).inserted else { continue }
                guard archivist_syncfs(folder.descriptor) == 0 else { throw ioError("cannot write \(file.path): cannot flush the file system") }
            }
            return
        }
        for file in staged {
            guard let temporary = file.temporary, let folder = file.folder else { continue }
            let fd = Sys.open(temporary, in: folder, O_RDONLY)
            guard fd >= 0 else { throw ioError("cannot write \(file.path)") }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw ioError("cannot write \(file.path)") }
        }
    }
}

/// A file held open (without following a link) so that its inode number
/// cannot be given to another file while it is compared.
struct PinnedFile {
    /// The descriptor, or -1 when the file could not be opened.
    let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Opens the file at `path` for reading; `isOpen` is false when it cannot.
    init(_ path: String) {
        self.init(descriptor: Sys.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC))
    }

    /// Opens the file `name` in `folder` for reading.
    init(_ name: String, in folder: Folder) {
        self.init(descriptor: Sys.open(name, in: folder, O_RDONLY | O_NONBLOCK))
    }

    private init(descriptor fd: Int32) {
        var st = stat()
        if fd >= 0, fstat(fd, &st) == 0 {
            descriptor = fd
            device = UInt64(truncatingIfNeeded: st.st_dev)
            inode = UInt64(truncatingIfNeeded: st.st_ino)
        } else {
            if fd >= 0 { close(fd) }
            descriptor = -1
            device = 0
            inode = 0
        }
    }

    var isOpen: Bool { descriptor >= 0 }

    /// True when both are open and are the same file.
    func isSameFile(as other: PinnedFile) -> Bool {
        isOpen && other.isOpen && device == other.device && inode == other.inode
    }

    /// Closes the file (nothing when it was not open).
    func release() {
        if descriptor >= 0 { close(descriptor) }
    }
}
