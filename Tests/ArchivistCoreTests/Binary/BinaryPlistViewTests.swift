import Foundation
import XCTest
@testable import ArchivistCore

/// `BinaryPlistView` reads a binary plist in place with the reader's verdicts:
/// the same error (kind, message, location) or the same diagnostics, and the
/// same content as the reader's tree.
final class BinaryPlistViewTests: XCTestCase {
    /// Every binary plist of `Corpus/` (hostile files included) and `../shared/corpus`.
    static func binaryFiles() throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for root in [Fixtures.corpus, Fixtures.sharedCorpus] {
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where !url.hasDirectoryPath {
                guard let bytes = try? Fixtures.bytes(url), bytes.starts(with: Array("bplist".utf8)) else { continue }
                out.append((url.path, bytes))
            }
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// The reader's outcome: its diagnostics, or its error.
    private func readerOutcome(_ bytes: [UInt8], limits: Limits = .default) -> Result<[PlistDiagnostic], PlistError> {
        do {
            return .success(try BinaryPlistReader.read(bytes, options: ReadOptions(limits: limits)).diagnostics)
        } catch {
            return .failure(error as? PlistError ?? PlistError(.io, "\(error)"))
        }
    }

    /// The view's outcome after a walk in document order.
    private func viewOutcome(_ bytes: [UInt8], limits: Limits = .default) -> Result<[PlistDiagnostic], PlistError> {
        bytes.withUnsafeBytes { buffer in
            do {
                var view = try BinaryPlistView(buffer, limits: limits)
                try view.check()
                return .success(view.diagnostics)
            } catch {
                return .failure(error as? PlistError ?? PlistError(.io, "\(error)"))
            }
        }
    }

    /// The archive test before any view is made: the top dictionary has a
    /// key `$archiver`, `$objects` or `$top`, in any string encoding and
    /// length form Foundation reads; no other key counts.
    func testLooksLikeArchiveByTheTopKeys() {
        func looksLike(_ key: [UInt8]) -> Bool {
            // { key: 1 }
            Fixtures.bplist([[0xD1, 1, 2], key, [0x10, 1]]).withUnsafeBytes { BinaryPlistView.looksLikeArchive($0) }
        }
        func utf16(_ text: String) -> [UInt8] { [0x60 | UInt8(text.utf16.count)] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        for key in ["$archiver", "$objects", "$top"] {
            XCTAssertTrue(looksLike([0x50 | UInt8(key.utf8.count)] + Array(key.utf8)), key)
            XCTAssertTrue(looksLike(utf16(key)), "UTF-16 \(key)")
            XCTAssertTrue(looksLike([0x5F, 0x10, UInt8(key.utf8.count)] + Array(key.utf8)), "\(key) with its length after the marker")
        }
        for key in ["$archive", "$objectsX", "$to", "$topp", "archiver", "$ARCHIVER", "$class"] {
            XCTAssertFalse(looksLike([0x50 | UInt8(key.utf8.count)] + Array(key.utf8)), key)
            XCTAssertFalse(looksLike(utf16(key)), "UTF-16 \(key)")
        }
        XCTAssertFalse(looksLike([0x10, 4]), "an integer key")
        XCTAssertFalse(looksLike([0x44] + Array("$top".utf8)), "data")
    }

    func testSameVerdictsAsTheReaderOnEveryCorpusFile() throws {
        let files = try BinaryPlistViewTests.binaryFiles()
        XCTAssertGreaterThan(files.count, 20)
        var failures = 0
        for (path, bytes) in files {
            let reader = readerOutcome(bytes)
            XCTAssertEqual(viewOutcome(bytes), reader, path)
            if case .failure = reader { failures += 1 }
        }
        XCTAssertGreaterThan(failures, 5, "the hostile files fail")
    }

    /// Limits lowered so shared containers and strings hit them part-way.
    func testSameVerdictsUnderTightLimits() throws {
        var limits = Limits()
        limits.maxObjects = 40
        limits.maxSharedExpansion = 64
        limits.maxDepth = 3
        for (path, bytes) in try BinaryPlistViewTests.binaryFiles() {
            XCTAssertEqual(viewOutcome(bytes, limits: limits), readerOutcome(bytes, limits: limits), path)
        }
    }

    /// Shared containers nested ten deep (each array refers twice to the
    /// next; strings of 1 to 3 bytes, one of them UTF-16, at the bottom and a
    /// dictionary with a repeated key), under every limit from small to large:
    /// a reuse counts its whole size at once, at the same place as the reader.
    func testSameVerdictsOnSharedContainersUnderEveryLimit() throws {
        var objects: [[UInt8]] = (0..<10).map { [0xA3, UInt8($0 + 1), UInt8($0 + 1), 12] }
        objects.append([0xD3, 11, 12, 11, 13, 12, 13])
        objects += [[0x61, 0xD8, 0x01], [0x51, 0x62], [0x53, 0x61, 0x62, 0x63]]
        let bytes = Fixtures.bplist(objects)
        for objectsLimit in stride(from: 1, through: 9000, by: 7) {
            var limits = Limits()
            limits.maxObjects = objectsLimit
            limits.maxSharedExpansion = objectsLimit / 2
            XCTAssertEqual(viewOutcome(bytes, limits: limits), readerOutcome(bytes, limits: limits), "limit \(objectsLimit)")
        }
        for depth in 1...12 {
            var limits = Limits()
            limits.maxDepth = depth
            XCTAssertEqual(viewOutcome(bytes, limits: limits), readerOutcome(bytes, limits: limits), "depth \(depth)")
        }
        XCTAssertEqual(try readerOutcome(bytes).get().map(\.kind), [.loneSurrogate, .duplicateKey])
    }

    /// Dictionaries around `BinaryPlistView.indexedCount` entries and far
    /// larger, one of them inside another: a key repeated in the outer
    /// dictionary after the inner one was walked, a key repeated inside the
    /// inner one, and an inner key with the text of an outer key (not a
    /// repeat). Keys are 4 ASCII bytes in separate objects (the writer's
    /// keys, patched), so the repeats are found by text, not by object.
    func testRepeatedKeysOfLargeAndNestedDictionaries() throws {
        let edge = BinaryPlistView.indexedCount
        for total in [2, edge - 1, edge, edge + 1, 40, 300] {
            let name = { (letter: String, k: Int) in letter + String(repeating: "0", count: 3 - String(k).count) + String(k) }
            var inner = PlistDictionary()
            for k in 0..<total { inner.appendUnchecked(key: name("j", k), value: .int(Int64(k))) }
            var outer = PlistDictionary()
            for k in 0..<total { outer.appendUnchecked(key: name("k", k), value: k == total / 2 ? .dictionary(inner) : .int(Int64(k))) }
            var bytes = try PropertyList.write(.dictionary(outer), as: .binary)
            func patch(_ from: String, _ to: String) throws {
                let needle = [UInt8(0x54)] + Array(from.utf8)
                let at = try XCTUnwrap((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle }, from)
                bytes.replaceSubrange((at + 1)..<(at + 5), with: Array(to.utf8))
            }
            try patch(name("k", total - 1), name("k", total / 3))
            try patch(name("j", total - 1), name("k", 1))
            if total > 2 { try patch(name("j", total - 2), name("j", total / 2 + 1)) }
            let verdict = viewOutcome(bytes)
            XCTAssertEqual(verdict, readerOutcome(bytes), "\(total) keys")
            XCTAssertEqual(try verdict.get().map(\.kind), Array(repeating: .duplicateKey, count: total > 2 ? 2 : 1), "\(total) keys")
        }
    }

    func testSameVerdictsOnEveryTruncation() throws {
        let files = try BinaryPlistViewTests.binaryFiles().filter { (try? BinaryPlistReader.read($0.1)) != nil }.prefix(5)
        XCTAssertFalse(files.isEmpty)
        for (path, bytes) in files {
            for n in 0..<bytes.count {
                let prefix = Array(bytes[..<n])
                XCTAssertEqual(viewOutcome(prefix), readerOutcome(prefix), "\(path) prefix \(n)")
            }
        }
    }

    /// Each byte of the object area and offset table flipped in turn.
    func testSameVerdictsOnCorruptedBytes() throws {
        let files = try BinaryPlistViewTests.binaryFiles().filter { (try? BinaryPlistReader.read($0.1)) != nil && $0.1.count < 4000 }.prefix(5)
        for (path, bytes) in files {
            for i in 8..<(bytes.count - 32) {
                var changed = bytes
                changed[i] ^= 0xFF
                XCTAssertEqual(viewOutcome(changed), readerOutcome(changed), "\(path) byte \(i)")
            }
        }
    }

    /// Walked node by node, the view holds what the reader's tree holds.
    func testSameContentAsTheTree() throws {
        var compared = 0
        for (path, bytes) in try BinaryPlistViewTests.binaryFiles() {
            guard let tree = try? BinaryPlistReader.read(bytes).tree else { continue }
            try bytes.withUnsafeBytes { buffer in
                var view = try BinaryPlistView(buffer)
                try tree.withView { treeView in
                    try compare(&view, view.rootNode, treeView, treeView.rootNode, depth: 0, path: path)
                }
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 10)
    }

    /// Every writer writes the view as it writes the reader's tree: the same
    /// bytes or the same error, with sorted keys and in key order (repeated
    /// keys, Latin-1 and UTF-16 text, shared objects).
    func testWritersWriteTheViewAsTheTree() throws {
        var written = 0
        for (path, bytes) in try BinaryPlistViewTests.binaryFiles() {
            guard let tree = try? BinaryPlistReader.read(bytes).tree else { continue }
            for format in PlistFormat.allCases {
                for options in [WriteOptions(), WriteOptions(keepKeyOrder: true, pretty: true)] {
                    let fromTree = outcome { out in try tree.withView { try write(&$0, format, options, out) } }
                    let fromView = outcome { out in
                        try bytes.withUnsafeBytes { buffer in
                            var view = try BinaryPlistView(buffer)
                            try write(&view, format, options, out)
                        }
                    }
                    XCTAssertEqual(fromView, fromTree, "\(path) as \(format)")
                    if case .success = fromTree { written += 1 }
                }
            }
        }
        XCTAssertGreaterThan(written, 40)
    }

    private func write<S: PlistNodes>(_ source: inout S, _ format: PlistFormat, _ options: WriteOptions, _ out: ByteSink) throws {
        switch format {
        case .xml: try XMLPlistWriter.write(&source, options: options, into: out)
        case .binary: try BinaryPlistWriter.write(&source, options: options, into: out)
        case .json: try JSONPlistWriter.write(&source, options: options, into: out)
        case .openstep: try OpenStepWriter.write(&source, options: options, into: out)
        }
    }

    private func outcome(_ body: (ByteSink) throws -> Void) -> Result<[UInt8], PlistError> {
        let out = ByteSink()
        do {
            try body(out)
            return .success(out.bytes())
        } catch {
            return .failure(error as? PlistError ?? PlistError(.io, "\(error)"))
        }
    }

    private func text(_ t: TextBytes) -> String {
        switch t.encoding {
        case .utf8: return String(decoding: t.bytes, as: UTF8.self)
        case .latin1: return String(t.bytes.map { Character(Unicode.Scalar($0)) })
        case .utf16BE:
            let units = stride(from: 0, to: t.bytes.count, by: 2).map { UInt16(t.bytes[$0]) << 8 | UInt16(t.bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
    }

    private func compare(_ view: inout BinaryPlistView, _ a: Int, _ tree: PlistTree.View, _ b: Int, depth: Int, path: String) throws {
        let left = try view.item(a), right = tree.item(b)
        switch (left, right) {
        case (.string(let x), .string(let y)):
            XCTAssertEqual(Array(text(x).utf8), Array(text(y).utf8), path)
        case (.data(let x), .data(let y)):
            XCTAssertEqual(Array(x), Array(y), path)
        case (.integer(let x), .integer(let y)): XCTAssertEqual(x, y, path)
        case (.real(let x), .real(let y)): XCTAssertEqual(x, y, path)
        case (.bool(let x), .bool(let y)): XCTAssertEqual(x, y, path)
        case (.date(let x), .date(let y)): XCTAssertEqual(x, y, path)
        case (.uid(let x), .uid(let y)): XCTAssertEqual(x, y, path)
        case (.null, .null): break
        case (.array(let n), .array(let m)):
            XCTAssertEqual(n, m, path)
            try view.enter(a, depth: depth)
            for i in 0..<min(n, m) {
                try compare(&view, try view.element(i, of: a), tree, tree.element(i, of: b), depth: depth + 1, path: path)
            }
            view.leave(a)
        case (.dictionary(let n), .dictionary(let m)):
            // The tree keeps one entry per key (the first place, the last value).
            try view.enter(a, depth: depth)
            var entries: [String: (Int, Int)] = [:]
            var order: [String] = []
            for i in 0..<n {
                guard case .string(let k) = try view.item(try view.key(i, of: a)) else { return XCTFail(path) }
                let key = text(k)
                if entries[key] == nil { order.append(key) }
                entries[key] = (i, try view.value(i, of: a))
            }
            XCTAssertEqual(order.count, m, path)
            for (j, key) in order.enumerated() where j < m {
                guard case .string(let k) = tree.item(tree.key(j, of: b)) else { return XCTFail(path) }
                XCTAssertEqual(Array(text(k).utf8), Array(key.utf8), path)
                guard let entry = entries[key] else { continue }
                try compare(&view, try view.value(entry.0, of: a), tree, tree.value(j, of: b), depth: depth + 1, path: path)
            }
            view.leave(a)
        default:
            XCTFail("\(path): \(left) is not \(right)")
        }
    }
}
