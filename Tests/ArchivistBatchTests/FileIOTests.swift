import ArchivistTestSupport
import Foundation
import XCTest
@testable import ArchivistBatch
import ArchivistCore
import CArchivistSupport

/// FileIO against a scratch folder: whole-file reads, atomic replacement,
/// permissions, links, and the folder walk.
final class FileIOTests: XCTestCase {
    var scratch: ScratchFolder!
    var dir: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try makeScratchFolder("archivist-fileio")
    }

    /// Writes a file of the scratch folder and returns its path.
    func make(_ name: String, _ text: String) -> String {
        _ = try? scratch.write(name, text)
        return scratch.path(name)
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func permissions(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    func testReadsWholeFilesAndReportsWhyNot() throws {
        let big = String(repeating: "0123456789abcdef", count: 20_000)  // larger than one read chunk
        XCTAssertEqual(try FileIO.read(make("big.txt", big)), Array(big.utf8))
        XCTAssertEqual(try FileIO.read(make("empty.txt", "")), [])
        XCTAssertThrowsError(try FileIO.read(dir + "/missing.plist")) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot read \(dir)/missing.plist: No such file or directory"))
        }
        XCTAssertThrowsError(try FileIO.read(dir)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot read \(dir): Is a directory"))
        }
        XCTAssertThrowsError(try FileIO.read(make("five.txt", "12345"), maxSize: 4)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
        }
        XCTAssertEqual(try FileIO.read(dir + "/five.txt", maxSize: 5), Array("12345".utf8))
    }

    /// Inputs of 1 MiB or more are mapped, smaller ones read; both hold the
    /// file's bytes, and the errors are `read`'s.
    func testInputsMapLargeFilesAndReadSmallOnes() throws {
        let large = String(repeating: "0123456789abcdef", count: InputBytes.mapThreshold / 16)
        let mapped = try FileIO.input(make("large.txt", large))
        XCTAssertTrue(mapped.isMapped)
        XCTAssertEqual(mapped.count, InputBytes.mapThreshold)
        XCTAssertEqual(mapped.withUnsafeBytes { Array($0) }, Array(large.utf8))
        XCTAssertEqual(mapped.array, Array(large.utf8))
        let small = try FileIO.input(make("small.txt", String(large.dropLast())))
        XCTAssertFalse(small.isMapped)
        XCTAssertEqual(small.withUnsafeBytes { Array($0) }, Array(large.utf8.dropLast()))
        XCTAssertThrowsError(try FileIO.input(dir + "/large.txt", maxSize: InputBytes.mapThreshold - 1)) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .limitExceeded)
        }
        XCTAssertThrowsError(try FileIO.input(dir + "/missing.plist")) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot read \(dir)/missing.plist: No such file or directory"))
        }
        XCTAssertThrowsError(try FileIO.input(dir)) { error in
            XCTAssertEqual(error as? PlistError, PlistError(.io, "cannot read \(dir): Is a directory"))
        }
        // A FIFO cannot be mapped: it is read.
        let fifo = dir + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = large.utf8.withContiguousStorageIfAvailable { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let piped = try FileIO.input(fifo)
        XCTAssertFalse(piped.isMapped)
        XCTAssertEqual(piped.count, large.utf8.count)
        // Mapping never changes the file.
        XCTAssertEqual(contents(dir + "/large.txt"), large)
        // A file others may write (truncate while it is mapped) is read.
        for mode in [0o664, 0o646] as [mode_t] {
            XCTAssertEqual(chmod(dir + "/large.txt", mode), 0)
            let shared = try FileIO.input(dir + "/large.txt")
            XCTAssertFalse(shared.isMapped, String(mode, radix: 8))
            XCTAssertEqual(shared.array, Array(large.utf8))
        }
        XCTAssertEqual(chmod(dir + "/large.txt", 0o644), 0)
        XCTAssertTrue(try FileIO.input(dir + "/large.txt").isMapped)
    }

    func testAtomicWriteCreatesAndReplacesKeepingPermissions() throws {
        let fresh = dir + "/fresh.plist"
        try FileIO.writeAtomically(Array("new".utf8), to: fresh)
        XCTAssertEqual(contents(fresh), "new")
        let mask = umask(0)
        umask(mask)
        XCTAssertEqual(try permissions(fresh), 0o666 & ~Int(mask))

        let existing = make("existing.plist", "old contents")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: existing)
        try FileIO.writeAtomically(Array("replaced".utf8), to: existing)
        XCTAssertEqual(contents(existing), "replaced")
        XCTAssertEqual(try permissions(existing), 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["existing.plist", "fresh.plist"],
                       "no temporary file is left")
    }

    /// A streamed result lands in a temporary file a buffer at a time; it
    /// can be compared with the file it would replace and placed or dropped.
    func testStreamedStagingAndComparison() throws {
        let target = make("out.txt", "old")
        let text = String(repeating: "streamed line\n", count: 200_000)  // several sink buffers
        let staged = try FileIO.stage(for: target, flush: false) { sink in
            for line in text.split(separator: "\n") {
                sink.append(utf8: String(line))
                sink.append(utf8: "\n")
            }
        }
        XCTAssertEqual(contents(target), "old", "nothing is replaced before place()")
        XCTAssertFalse(FileIO.hasSameContents(staged, as: target))
        let twin = make("twin.txt", text)
        XCTAssertTrue(FileIO.hasSameContents(staged, as: twin))
        let nearTwin = make("near.txt", String(text.dropLast()) + "!")
        XCTAssertFalse(FileIO.hasSameContents(staged, as: nearTwin))
        XCTAssertFalse(FileIO.hasSameContents(staged, as: dir + "/missing"))
        try FileIO.place(staged)
        XCTAssertEqual(contents(target), text)

        struct Refused: Error {}
        XCTAssertThrowsError(try FileIO.stage(for: target, flush: false) { sink in
            sink.append(utf8: "partial")
            throw Refused()
        })
        XCTAssertEqual(contents(target), text)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: dir).contains { $0.hasPrefix(".") }, "no temporary file is left")
    }

    func testFailedWriteLeavesNothingBehind() throws {
        XCTAssertThrowsError(try FileIO.writeAtomically([1], to: dir + "/no/such/folder/out.plist")) { error in
            let e = error as? PlistError
            XCTAssertEqual(e?.kind, .io)
            XCTAssertTrue(e?.message.hasPrefix("cannot write \(dir)/no/such/folder/out.plist: ") ?? false, "\(error)")
        }
        // Renaming over a folder fails after the temporary file was written: it is removed.
        let folder = dir + "/taken"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = make("taken/inside.txt", "keep")
        XCTAssertThrowsError(try FileIO.writeAtomically([1, 2, 3], to: folder))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["taken"])
        XCTAssertEqual(contents(folder + "/inside.txt"), "keep")
    }

    func testWritingThroughALinkReplacesItsTarget() throws {
        let target = make("target.plist", "old")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.plist", withDestinationPath: "target.plist")
        try FileIO.writeAtomically(Array("new".utf8), to: dir + "/link.plist")
        XCTAssertEqual(contents(target), "new")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.plist"), "target.plist")
        XCTAssertTrue(FileIO.isSameFile(dir + "/link.plist", target))
        XCTAssertFalse(FileIO.isSameFile(dir + "/link.plist", dir + "/missing"))
    }

    func testFolderWalkIsSortedSkipsHiddenAndDoesNotLoop() throws {
        _ = make("b.plist", "")
        _ = make("a/z.plist", "")
        _ = make("a/deeper/y.plist", "")
        _ = make("a.plist", "")
        _ = make(".hidden.plist", "")
        _ = make(".git/config", "")
        _ = make("c/.DS_Store", "")
        try FileManager.default.createSymbolicLink(atPath: dir + "/a/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir + "/linked.plist", withDestinationPath: "b.plist")
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        let found = try FileIO.files(under: dir).map { String($0.dropFirst(dir.count + 1)) }
        XCTAssertEqual(found, ["a/deeper/y.plist", "a/z.plist", "a.plist", "b.plist", "linked.plist"])
        XCTAssertThrowsError(try FileIO.files(under: dir + "/missing"))
    }

    /// Below an open folder nothing is reached through a link: not at the
    /// end, not on the way, not by `..`; by openat2 and by the per-component
    /// fallback alike. A walked link to a file inside is opened as that file.
    func testFoldersOpenBeneathWithNoLinkFollowed() throws {
        _ = make("tree/sub/f.plist", "inside")
        _ = make("outside/f.plist", "outside")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/link.plist", withDestinationPath: "../outside/f.plist")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/linked", withDestinationPath: "../outside")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/alias.plist", withDestinationPath: "sub/f.plist")
        let tree = try Folder.open(dir + "/tree")
        let openers: [(String, (String) -> Int32)] = [
            ("openat2", { tree.openFile($0) }),
            ("components", { path in path.withCString { archivist_open_beneath_by_components(tree.descriptor, $0, O_RDONLY, 0) } }),
        ]
        for (how, open) in openers {
            let fd = open("sub/f.plist")
            XCTAssertGreaterThanOrEqual(fd, 0, how)
            if fd >= 0 { close(fd) }
            for refused in ["link.plist", "linked/f.plist", "../outside/f.plist", "alias.plist"] {
                let fd = open(refused)
                XCTAssertLessThan(fd, 0, "\(how): \(refused)")
                if fd >= 0 { close(fd) }
            }
        }
        XCTAssertThrowsError(try tree.subfolder("linked"))
        XCTAssertThrowsError(try tree.subfolder("linked/more", create: true))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/outside/more"), "no folder made through the link")
        XCTAssertNoThrow(try tree.subfolder("new/deeper", create: true))
        // The walk takes the link to a file inside as that file, below the folder.
        let walked = try FileIO.walk(dir + "/tree").files
        XCTAssertEqual(walked.map(\.relative), ["alias.plist", "sub/f.plist"])
        XCTAssertEqual(walked.map(\.anchored), ["sub/f.plist", "sub/f.plist"])
    }

    func testCreateDirectories() throws {
        try FileIO.createDirectories(dir + "/x/y/z")
        XCTAssertTrue(FileIO.isDirectory(dir + "/x/y/z"))
        try FileIO.createDirectories(dir + "/x/y/z/")
        let file = make("file", "")
        XCTAssertThrowsError(try FileIO.createDirectories(file + "/sub"))
        XCTAssertThrowsError(try FileIO.createDirectories(file))
    }

    /// A folder's entries in the order of their name bytes (a name before
    /// the longer names it starts, bytes 0x80 and up after ASCII, folders
    /// among files), hidden names and `.`/`..` left out unless asked, and
    /// every name the bytes it was created with.
    func testWalkOrderIsByNameBytes() throws {
        let root = dir + "/order"
        var names: [[UInt8]] = [Array("b".utf8), Array("a".utf8), Array("ab".utf8), Array("a.b".utf8), Array("A".utf8),
                                Array("é".utf8), [0xFF, 0x41], Array("~".utf8), Array("a b".utf8), Array(".hidden".utf8)]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<150 {
            var name = (0..<Int.random(in: 1...6, using: &generator)).map { _ in UInt8.random(in: 0x21...0xFF, using: &generator) }
            name.removeAll { $0 == UInt8(ascii: "/") }
            if !name.isEmpty, name.first != UInt8(ascii: "."), !names.contains(name) { names.append(name) }
        }
        XCTAssertEqual(mkdir(root, 0o755), 0)
        for name in names {
            let path = Array(root.utf8) + [UInt8(ascii: "/")] + name + [0]
            let fd = path.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_EXCL, 0o644) }
            XCTAssertGreaterThanOrEqual(fd, 0, "\(name)")
            close(fd)
        }
        func walkedNames(hidden: Bool) throws -> [[UInt8]] {
            var options = FileIO.WalkOptions()
            options.hidden = hidden
            return try FileIO.walk(root, options: options).files.map { file in
                SystemPath.with(file.relative) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
            }
        }
        let visible = names.filter { $0.first != UInt8(ascii: ".") }
        XCTAssertEqual(try walkedNames(hidden: false), visible.sorted { $0.lexicographicallyPrecedes($1) })
        XCTAssertEqual(try walkedNames(hidden: true), names.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// A walk hands out what it finds as it reaches it, in order: a link's
    /// problem comes between the files sorted around it, not with the
    /// folder's listing before them; a subfolder's files come where its
    /// name sorts.
    func testTheWalkReportsEachEntryWhereItIsReached() throws {
        _ = make("tree/a.plist", "")
        _ = make("tree/c/d.plist", "")
        _ = make("tree/e.plist", "")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/b.plist", withDestinationPath: "missing.plist")
        try FileManager.default.createSymbolicLink(atPath: dir + "/tree/c/out.plist", withDestinationPath: "../../outside.plist")
        _ = make("outside.plist", "")
        var events: [String] = []
        try FileIO.walk(dir + "/tree", problems: { events.append("problem " + String($0.path.dropFirst(dir.count + 6))) }) { _, file in
            events.append("file " + file.relative)
        }
        XCTAssertEqual(events, ["file a.plist", "problem b.plist", "file c/d.plist", "problem c/out.plist", "file e.plist"])
    }

    /// A walk keeps no descriptor open for the folders it is in: a tree
    /// deeper than the process may open files is walked whole.
    func testADeepWalkKeepsNoFolderOpen() throws {
        var path = "deep"
        for level in 0..<60 {
            path += "/\(level)"
            _ = make(path + "/f.plist", "")
        }
        func openDescriptors() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
        let before = try openDescriptors()
        var most = 0, files = 0
        try FileIO.walk(dir + "/deep") { _, _ in
            files += 1
            most = max(most, (try? openDescriptors()) ?? 0)
        }
        XCTAssertEqual(files, 60)
        // The root's descriptor and the one listing /proc/self/fd.
        XCTAssertLessThanOrEqual(most, before + 2)
    }

    /// Every name's bytes survive the trip into a path string and back to
    /// the system, UTF-8 or not, the code points that stand for bytes included.
    func testNamesKeepTheirBytes() {
        var names: [[UInt8]] = [
            Array("plain.plist".utf8), Array("é 日本 🎉".utf8), [0x63, 0x61, 0x66, 0xE9], [0xFF, 0xFE, 0x80],
            [0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBF, 0xBF, 0x41], [0xED, 0xA0, 0x80], [0xC3], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            names.append((0..<Int.random(in: 1...12, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) })
        }
        for name in names {
            let text = SystemPath.string(fromBytes: name)
            let back = SystemPath.with(text) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
            XCTAssertEqual(back, name, "\(name)")
            if let valid = String(validating: name, as: UTF8.self), !valid.unicodeScalars.contains(where: { $0.value >= 0x10FF80 }) {
                XCTAssertEqual(text, valid, "UTF-8 names are themselves")
            }
        }
    }
}
