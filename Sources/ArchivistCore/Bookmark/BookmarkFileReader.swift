/// Reads a stand-alone bookmark file (`NSURL` bookmark data, `book`, or a
/// Finder alias file that wraps it) as a document whose root is that data,
/// byte for byte: the commands that open nested bookmark data (`dump`,
/// `dump --json`) decode it as they decode a `<data>` value inside a plist.
/// The core does not decode bookmarks (ArchivistArchive's `Bookmark` does).
/// Read-only: no writer writes it back.
package enum BookmarkFileReader {
    /// Reads a buffer that `FormatSniffer.kind` names `.bookmark` or `.finderAlias`.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        guard buffer.count <= options.limits.maxValueLength else {
            throw PlistError(.limitExceeded, "bookmark data of \(buffer.count) bytes exceeds the limit of \(options.limits.maxValueLength)")
        }
        var builder = PlistTreeBuilder(expectedNodes: 1, expectedBytes: buffer.count)
        let root = builder.data(buffer)
        return PlistDocument(tree: try builder.finish(root: root), format: .binary)
    }
}
