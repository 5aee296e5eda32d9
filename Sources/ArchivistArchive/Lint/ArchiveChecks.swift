import ArchivistCore

/// The archive checks `lint` runs on a document: the unarchiver check of its
/// archive, then (with a policy) the secure-coding check of that archive and
/// of the archives its data holds, sharing one walk of the archive. Each
/// problem goes to `emit` as it is found, in the order `lint` prints them.
package struct ArchiveChecks {
    private let tree: PlistTree
    private let archive: KeyedArchive?
    private let walk: ArchiveCheckWalk?

    /// The checks of `tree`, validated as `archive` when it is a keyed archive.
    package init(_ tree: PlistTree, archive: KeyedArchive?) {
        self.tree = tree
        self.archive = archive
        walk = archive.map { ArchiveCheckWalk(ObjectGraph($0), readFrom: $0) }
    }

    /// What the unarchiver reads that is wrong (`UnarchiverCheck`), in `$objects` order.
    package func unarchiverErrors(_ emit: (PlistError) throws -> Void) rethrows {
        guard let archive, let walk else { return }
        try UnarchiverCheck.forEachError(in: archive, walk: walk, emit)
    }

    /// The secure-coding violations of the archive and of the archives its
    /// data holds (`SecureCodingCheck.errors(in:policy:)`), in that order.
    ///
    /// - Throws: `PlistError` when an archive its data holds is broken
    ///   (after the violations found before it), or what `emit` throws.
    package func secureErrors(policy: SecurePolicy, _ emit: (PlistError) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            try NestedArchiveWalk.archives(in: tree, archive: archive, broken: .fail) { nested in
                guard nested.kind != .typedstream else { return }
                let shared = nested.level == 0 ? walk : nil
                try SecureCodingCheck.forEachViolation(in: shared ?? ArchiveCheckWalk(nested.graph), policy: policy) { violation in
                    try emit(NestedDocuments.relocated(violation.error, under: nested.keyPath))
                }
            }
        }
    }
}
