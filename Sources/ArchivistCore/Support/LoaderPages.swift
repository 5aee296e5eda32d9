import CArchivistSupport

/// The pages of the program's own file that the system's loader reads once,
/// at start-up, and nothing reads again: its relocation table (over 2 MB in
/// the static release binary, one 24-byte entry per pointer the loader
/// fixes). Handing them back takes them out of every run's peak memory.
package enum LoaderPages {
    /// Hands back the whole pages of the main program's relocation table
    /// that lie in a read-only segment of its file (`madvise`; a page
    /// touched again is read from the file, unchanged).
    ///
    /// - Returns: The bytes handed back: 0 when the program has no such
    ///   table, or off Linux.
    @discardableResult
    package static func release() -> Int {
        Int(archivist_release_relocations())
    }
}
