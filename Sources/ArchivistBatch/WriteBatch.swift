import ArchivistCore

/// The results of a batch, written beside their destinations as they are
/// converted and put in place together with one flush to disk for many files
/// instead of one per file: at the end, or a chunk of items at a time
/// (`commit(through:)`) so that what is kept of the staged files stays bounded.
///
/// `commit()` flushes every staged file's contents (one `syncfs` per file
/// system on Linux, else `fsync` of each file), then renames each into place
/// in item order, then flushes each destination folder once. So after a power
/// loss every destination is either the old file or the complete new one
/// (never an empty or partial file), and once `commit()` returns every result
/// survives one. Staging is safe from several threads at once.
package final class WriteBatch: Sendable {
    /// A staged file and the item it belongs to.
    private struct Entry {
        var item: Int
        var file: FileIO.StagedFile
    }

    /// A result that could not be put in place, with why.
    package struct Failure: Sendable, Equatable {
        /// The item whose result it was.
        package var item: Int
        /// What went wrong (kind `.io`, naming the destination).
        package var error: PlistError
    }

    private let entries = Locked<[Entry]>([])

    /// An empty batch.
    package init() {}

    /// Writes `bytes` for item `item` to a temporary file beside `path`, to be
    /// renamed into place by `commit()`. Several files of one item (a backup,
    /// then the result) are placed in the order they were staged. Throws as
    /// `FileIO.stage(_:for:flush:)` does; then nothing is left behind.
    package func stage(_ bytes: [UInt8], to path: String, item: Int) throws {
        add(try FileIO.stage(bytes, for: path, flush: false), item: item)
    }

    /// Adds a file staged by the caller (`FileIO.stage`) to be placed by `commit()`.
    package func add(_ file: FileIO.StagedFile, item: Int) {
        entries.withLock { $0.append(Entry(item: item, file: file)) }
    }

    /// How many staged files wait for a commit.
    package var pendingCount: Int { entries.withLock { $0.count } }

    /// Puts every staged file in place (see the type's description) and
    /// empties the batch. With `last`, only the files of items up to `last`
    /// are placed (flushed first, as for a whole batch); those of later items
    /// stay staged for a later commit. Returns the items whose results could not be put in
    /// place: their destinations are as they were and their temporary files
    /// are removed, and a later file of an item whose earlier file failed is
    /// not placed either (no result replaces an original whose backup failed).
    /// When the contents cannot be flushed, nothing is placed.
    package func commit(through last: Int = .max) -> [Failure] {
        let staged = entries.withLock { entries -> [Entry] in
            var taken: [Entry] = []
            var kept: [Entry] = []
            for entry in entries {
                if entry.item <= last { taken.append(entry) } else { kept.append(entry) }
            }
            entries = kept
            // Item order; one item's files keep the order they were staged in.
            return taken.enumerated().sorted { ($0.element.item, $0.offset) < ($1.element.item, $1.offset) }.map(\.element)
        }
        guard !staged.isEmpty else { return [] }
        do {
            try FileIO.flushContents(of: staged.map(\.file))
        } catch {
            staged.forEach { FileIO.discard($0.file) }
            return failures(staged, because: "the new files could not be flushed to disk (\(Self.message(error)))")
        }
        var failures: [Failure] = []
        var failedItems: Set<Int> = []
        var placed: [Entry] = []
        for entry in staged {
            if failedItems.contains(entry.item) {
                FileIO.discard(entry.file)
                continue
            }
            do {
                try FileIO.place(entry.file)
                placed.append(entry)
            } catch {
                failedItems.insert(entry.item)
                failures.append(Failure(item: entry.item, error: (error as? PlistError) ?? PlistError(.io, "\(error)")))
                // A backup is kept only with its result in place: a retry
                // (which the failure asks for) then backs up what the file
                // holds by then instead of finding the name taken.
                for earlier in placed where earlier.item == entry.item { FileIO.withdraw(earlier.file) }
            }
        }
        var flushedFolders: Set<ObjectIdentifier> = []
        for entry in placed where !failedItems.contains(entry.item) && entry.file.temporary != nil {
            guard let folder = entry.file.folder, flushedFolders.insert(ObjectIdentifier(folder)).inserted else { continue }
            do {
                try FileIO.flushFolder(folder, for: entry.file.path)
            } catch {
                let affected = placed.filter { $0.file.folder === folder && !failedItems.contains($0.item) }
                affected.forEach { failedItems.insert($0.item) }
                failures += self.failures(affected, because: "the folder could not be flushed to disk (\(Self.message(error)))")
            }
        }
        return failures.sorted { $0.item < $1.item }
    }

    /// One failure per distinct item: `cannot write PATH: REASON`.
    private func failures(_ entries: [Entry], because reason: String) -> [Failure] {
        var seen: Set<Int> = []
        return entries.filter { seen.insert($0.item).inserted }.map {
            Failure(item: $0.item, error: PlistError(.io, "cannot write \($0.file.path): \(reason)"))
        }
    }

    private static func message(_ error: any Error) -> String {
        (error as? PlistError)?.message ?? "\(error)"
    }
}
