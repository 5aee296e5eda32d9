/// What a binary property list read keeps resident of a mapped input (see
/// `InputPages`): once the offset table is checked and the shared objects
/// counted (passes that touch the whole file), every page is handed back, and
/// the tree is then built from a window that moves with the farthest object
/// and offset-table entry read. Writers (CoreFoundation's among them) put
/// objects in the order a reader reaches them, so the pages behind the window
/// are done with; a page touched again is read from the file again, which
/// costs time, never content.
///
/// Each region is handed back in steps of `step` bytes, `slack` bytes behind
/// the farthest read, so a file read in any order costs at most one
/// `madvise` per step and reads each page at most twice after the first
/// passes. With no pages to hand back, both marks are out of reach: the
/// reader compares each object it reads with them (a shared object read
/// again is not read from the input, nor compared).
struct BinaryPageWindow {
    private let pages: InputPages?
    /// Where the offset table starts, and each entry's width.
    private let tableStart: Int
    private let entrySize: Int
    /// Below these offsets the pages are handed back.
    private var objectsReleased = 0
    private var tableReleased: Int
    /// The object offset, and the table entry, whose reading moves the window.
    private(set) var objectMark = Int.max
    private(set) var entryMark = Int.max

    /// Bytes read past the last release before the next one (1 MiB).
    static let step = 1 << 20
    /// Bytes kept behind the farthest read (256 KiB): containers read their
    /// references while their children are read just after them.
    static let slack = 1 << 18

    /// The window over `area`'s buffer, handing back its pages when `pages`
    /// is that buffer's mapping.
    init(_ area: BinaryObjectArea, pages: InputPages?) {
        tableStart = area.trailer.offsetTableOffset
        entrySize = area.trailer.offsetIntSize
        tableReleased = tableStart
        guard let pages, pages.isMapping(of: area.buf) else {
            self.pages = nil
            return
        }
        self.pages = pages
    }

    /// Hands back every page (after the passes over the whole file) and
    /// starts the window.
    mutating func start() {
        guard let pages else { return }
        pages.release(0..<Int.max)
        objectMark = BinaryPageWindow.step
        entryMark = BinaryPageWindow.step / max(entrySize, 1)
    }

    /// Notes that object `index`, at offset `at`, is being read, when it
    /// passes `objectMark` or `entryMark`.
    mutating func reading(_ index: Int, at: Int) {
        if at >= objectMark { releaseObjects(below: at) }
        if index >= entryMark { releaseTable(below: index) }
    }

    @inline(never)
    private mutating func releaseObjects(below at: Int) {
        let upTo = at - BinaryPageWindow.slack
        if upTo > objectsReleased {
            pages?.release(objectsReleased..<upTo)
            objectsReleased = upTo
        }
        objectMark = at + BinaryPageWindow.step
    }

    @inline(never)
    private mutating func releaseTable(below index: Int) {
        let entries = BinaryPageWindow.step / max(entrySize, 1)
        let upTo = tableStart + max(index - BinaryPageWindow.slack / max(entrySize, 1), 0) * entrySize
        if upTo > tableReleased {
            pages?.release(tableReleased..<upTo)
            tableReleased = upTo
        }
        entryMark = index + entries
    }
}
