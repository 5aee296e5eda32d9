import ArchivistCore

/// A folder that results are written into (`--output-dir`), for every
/// command that writes one: batches of files, a store's rows as files.
///
/// The folder is made (with its parents) and opened once; each result's
/// subfolders below it are made and entered through descriptors (`mkdirat`,
/// then `openat` with `O_DIRECTORY|O_NOFOLLOW`), and each result is staged
/// and renamed relative to its subfolder's descriptor. So a subfolder that
/// someone swaps for a symbolic link is refused, never followed, and a link
/// planted at a result's name is refused (the name is never written
/// through), unless `followLinks`.
package final class OutputFolder: Sendable {
    /// The folder as named.
    package let path: String
    /// Write through symbolic links already in the folder (`--follow-links`).
    package let followLinks: Bool
    private let opened = Locked<Folder?>(nil)

    /// An output folder, not yet made (see `prepare()`).
    package init(path: String, followLinks: Bool = false) {
        self.path = path
        self.followLinks = followLinks
    }

    /// Makes the folder and its parents when missing, and opens it.
    package func prepare() throws {
        try FileIO.createDirectories(path)
        let folder = try Folder.open(path)
        opened.withLock { $0 = folder }
    }

    /// The path of `relative` (a result's path below the folder).
    package func path(of relative: String) -> String {
        (path.hasSuffix("/") ? path : path + "/") + relative
    }

    /// The result's path below the folder, when `destination` lies in it.
    package func relative(_ destination: String) -> String? {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return destination.hasPrefix(prefix) ? String(destination.dropFirst(prefix.count)) : nil
    }

    /// Stages the result `relative` (below the folder): its subfolders are
    /// made and entered through descriptors, and `write` streams it into a
    /// temporary file there (see `FileIO.stage(in:name:path:flush:...)`).
    /// `knownAbsent`: nothing was there when the run was planned (see
    /// `FileIO.stage(in:name:path:flush:knownAbsent:...)`).
    package func stage(_ relative: String, flush: Bool, knownAbsent: Bool = false,
                       streaming write: (ByteSink) throws -> Void) throws -> FileIO.StagedFile {
        let shown = path(of: relative)
        if followLinks {
            // Links followed, as named (`--follow-links`).
            let (dir, _) = FileIO.split(shown)
            try FileIO.createDirectories(dir)
            return try FileIO.stage(for: shown, flush: flush, knownAbsent: knownAbsent, streaming: write)
        }
        let root = try opened.withLock { folder -> Folder in
            if let folder { return folder }
            let made = try Folder.open(path)
            folder = made
            return made
        }
        let (sub, name) = FileIO.split(relative)
        let folder = try root.cachedSubfolder(sub == "." ? "" : sub, create: true)
        return try FileIO.stage(in: folder, name: name, path: shown, flush: flush, knownAbsent: knownAbsent,
                                linkRefusal: "refusing to write through the symbolic link \(shown) in the output folder (remove it, or give --follow-links)",
                                streaming: write)
    }

    /// Writes `bytes` as the result `relative` now: staged, put in place and
    /// flushed. Returns what the replacement did not keep, as lines to print.
    @discardableResult
    package func write(_ bytes: [UInt8], to relative: String) throws -> [String] {
        let staged = try stage(relative, flush: true) { $0.append(bytes) }
        try FileIO.place(staged)
        try FileIO.flushFolder(of: staged)
        return staged.warningLines
    }
}
