import Foundation
import XCTest
import ArchivistTestSupport
@testable import ArchivistCore

/// The writers are generic over `PlistNodes`: a `PlistTree` writes as its
/// value does over the whole corpus, whatever its node sharing; text stored
/// as Latin-1 or UTF-16BE (as a binary plist read in place holds it) writes
/// as its UTF-8 equivalent; a source that repeats keys writes what reading
/// it gives; containers are entered and left in pairs; streaming output
/// equals buffered output.
final class NodeWriterTests: XCTestCase {
    private static let optionSets: [WriteOptions] = [
        WriteOptions(), WriteOptions(keepKeyOrder: true), WriteOptions(pretty: true), WriteOptions(jsonEncoderStyle: true),
        WriteOptions(keepKeyOrder: true, pretty: true),
    ]

    /// What a write gave: its bytes or its error.
    private enum Outcome: Equatable {
        case bytes([UInt8])
        case failure(PlistError)
        case otherFailure(String)

        init(_ write: () throws -> [UInt8]) {
            do {
                self = .bytes(try write())
            } catch let error as PlistError {
                self = .failure(error)
            } catch {
                self = .otherFailure("\(error)")
            }
        }

        var bytes: [UInt8]? {
            if case .bytes(let b) = self { return b }
            return nil
        }

        var error: PlistError? {
            if case .failure(let e) = self { return e }
            return nil
        }
    }

    /// The tree of `value` with every string node shared by all its uses
    /// (values and keys alike), as a binary plist's uniqued strings are: a
    /// different tree of the same property list from `PlistTree(value)`.
    private static func sharedTree(_ value: PlistValue) throws -> PlistTree {
        var builder = PlistTreeBuilder()
        func build(_ value: PlistValue) -> Int {
            switch value {
            case .string(let s): return builder.key(s)
            case .integer(let i): return builder.integer(i)
            case .real(let r): return builder.real(r)
            case .bool(let v): return builder.bool(v)
            case .date(let d): return builder.date(d)
            case .data(let bytes): return bytes.withUnsafeBytes { builder.data($0) }
            case .uid(let u): return builder.uid(u)
            case .null: return builder.null()
            case .array(let items):
                let mark = builder.openArray()
                for item in items { builder.append(build(item), to: mark) }
                return builder.close(mark)
            case .dictionary(let d):
                var mark = builder.openDictionary()
                for (key, item) in d {
                    let v = build(item)
                    _ = builder.add(key: builder.key(key), value: v, to: &mark)
                }
                return builder.close(mark)
            }
        }
        let root = build(value)
        return try builder.finish(root: root)
    }

    func testTreesWriteAsTheirValuesOverTheCorpus() throws {
        var checked = 0
        for row in CorpusRoundTripTests.rows where row.valid {
            let bytes = try Fixtures.bytes(row.url)
            guard let document = try? PropertyList.read(bytes) else { continue }
            let value = document.tree.value
            guard let tree = try? PlistTree(value) else { continue }
            let shared = try Self.sharedTree(value)
            XCTAssertEqual(shared.value, value, row.path)
            for format in PlistFormat.allCases {
                for options in Self.optionSets {
                    let expected = Outcome { try PropertyList.write(value, as: format, options: options) }
                    XCTAssertEqual(Outcome { try PropertyList.write(tree, as: format, options: options) }, expected, "\(row.path) \(format) \(options)")
                    XCTAssertEqual(Outcome { try PropertyList.write(shared, as: format, options: options) }, expected,
                                   "shared nodes: \(row.path) \(format) \(options)")
                }
            }
            // Foundation, the oracle, reads the binary of the shared tree as it reads the file.
            if document.format == .binary || document.format == .xml, !PlistLeaves.any(value, { if case .uid = $0 { return true }; return false }),
               let theirs = try? FoundationBridge.foundationRead(bytes) {
                XCTAssertEqual(try FoundationBridge.foundationRead(try PropertyList.write(shared, as: .binary)), theirs, row.path)
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100)
    }

    // MARK: - UIDs numbered by value

    /// A tree's nodes whose bounds have the binary writer number the UIDs
    /// below `directUIDs` through its table indexed by value (as a migrated
    /// archive's output does) and the others through its hash table.
    private struct DirectUIDNodes: PlistNodes {
        var view: PlistTree.View
        let directUIDs: Int
        static var keysAreUnique: Bool { true }
        var rootNode: Int { view.rootNode }
        var sizeBounds: PlistSizeBounds? {
            guard var bounds = view.sizeBounds else { return nil }
            bounds.directUIDs = directUIDs
            return bounds
        }
        mutating func item(_ node: Int) throws -> PlistItem { try view.item(node) }
        mutating func element(_ i: Int, of node: Int) throws -> Int { try view.element(i, of: node) }
        mutating func key(_ i: Int, of node: Int) throws -> Int { try view.key(i, of: node) }
        mutating func value(_ i: Int, of node: Int) throws -> Int { try view.value(i, of: node) }
        mutating func enter(_ node: Int, depth: Int) throws { try view.enter(node, depth: depth) }
        mutating func leave(_ node: Int) { view.leave(node) }
    }

    /// Every keyed archive of the corpus writes the same binary whether its
    /// UIDs are numbered by value (all, half of them, or none) or by hash:
    /// equal UIDs are one object either way, at the index of the first.
    func testUIDsNumberedByValueWriteAsHashedOnes() throws {
        var checked = 0
        for row in CorpusRoundTripTests.rows where row.valid {
            guard let tree = try? PropertyList.read(try Fixtures.bytes(row.url)).tree else { continue }
            var largest = -1
            _ = PlistLeaves.any(tree.value) {
                if case .uid(let u) = $0 { largest = max(largest, Int(u)) }
                return false
            }
            guard largest >= 2 else { continue }
            let expected = try PropertyList.write(tree, as: .binary)
            for cut in [largest + 1, largest / 2, 1] {
                let written = try tree.withView { view -> [UInt8] in
                    var nodes = DirectUIDNodes(view: view, directUIDs: cut)
                    let sink = ByteSink(capacity: 64)
                    try BinaryPlistWriter.write(&nodes, into: sink)
                    return sink.bytes()
                }
                XCTAssertEqual(written, expected, "\(row.path), UIDs below \(cut) by value")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 20)
    }

    // MARK: - A source built by hand

    /// A property list as the test spells it: text with the encoding to store
    /// it in, and dictionaries that may repeat keys.
    private indirect enum Spec {
        case text(String, TextBytes.Encoding)
        /// UTF-16 code units, lone surrogates allowed.
        case units([UInt16])
        case int(Int64)
        case bool(Bool)
        case data([UInt8])
        case array([Spec])
        case dict([(Spec, Spec)])

        /// What reading it gives: a repeated key once, at its first position,
        /// with its first value (as CoreFoundation reads a binary plist).
        var value: PlistValue {
            switch self {
            case .text(let s, _): return .string(s)
            case .units(let units): return .string(String(decoding: units, as: UTF16.self))
            case .int(let i): return .int(i)
            case .bool(let b): return .bool(b)
            case .data(let d): return .data(d)
            case .array(let items): return .array(items.map(\.value))
            case .dict(let entries):
                var d = PlistDictionary()
                for (key, value) in entries {
                    guard case .string(let k) = key.value, d[k] == nil else { continue }
                    d[k] = value.value
                }
                return .dictionary(d)
            }
        }
    }

    /// A `PlistNodes` source holding what no `PlistTree` can: Latin-1 and
    /// UTF-16BE text, repeated keys, a container inside itself. It refuses
    /// to enter a container that is open, and counts entries and exits.
    private struct HandBuiltNodes: PlistNodes {
        enum Node {
            case text(UnsafeRawBufferPointer, TextBytes.Encoding)
            case data(UnsafeRawBufferPointer)
            case scalar(PlistItem)
            case array([Int])
            case dictionary([(key: Int, value: Int)])
        }

        /// Owns the bytes the nodes point into.
        final class Storage {
            var buffers: [UnsafeMutableRawBufferPointer] = []

            func keep(_ bytes: [UInt8]) -> UnsafeRawBufferPointer {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
                buffer.copyBytes(from: bytes)
                buffers.append(buffer)
                return UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count])
            }

            deinit { for b in buffers { b.deallocate() } }
        }

        let storage = Storage()
        var nodes: [Node] = []
        var rootNode = 0
        var open: Set<Int> = []
        var entered = 0
        var left = 0

        init() {}

        init(_ spec: Spec) {
            rootNode = add(spec)
        }

        mutating func add(_ spec: Spec) -> Int {
            let node: Node
            switch spec {
            case .text(let s, let encoding):
                switch encoding {
                case .utf8: node = .text(storage.keep(Array(s.utf8)), .utf8)
                case .latin1: node = .text(storage.keep(s.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }), .latin1)
                case .utf16BE: node = .text(storage.keep(s.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), .utf16BE)
                }
            case .units(let units): node = .text(storage.keep(units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), .utf16BE)
            case .int(let i): node = .scalar(.integer(PlistInteger(i)))
            case .bool(let b): node = .scalar(.bool(b))
            case .data(let d): node = .data(storage.keep(d))
            case .array(let items): node = .array(items.map { add($0) })
            case .dict(let entries): node = .dictionary(entries.map { (key: add($0.0), value: add($0.1)) })
            }
            nodes.append(node)
            return nodes.count - 1
        }

        func item(_ node: Int) throws -> PlistItem {
            switch nodes[node] {
            case .text(let bytes, let encoding): return .string(TextBytes(bytes, encoding))
            case .data(let bytes): return .data(bytes)
            case .scalar(let item): return item
            case .array(let items): return .array(count: items.count)
            case .dictionary(let entries): return .dictionary(count: entries.count)
            }
        }

        func element(_ i: Int, of node: Int) throws -> Int {
            guard case .array(let items) = nodes[node] else { throw PlistError(.invalidValue, "not an array") }
            return items[i]
        }

        func key(_ i: Int, of node: Int) throws -> Int {
            guard case .dictionary(let entries) = nodes[node] else { throw PlistError(.invalidValue, "not a dictionary") }
            return entries[i].key
        }

        func value(_ i: Int, of node: Int) throws -> Int {
            guard case .dictionary(let entries) = nodes[node] else { throw PlistError(.invalidValue, "not a dictionary") }
            return entries[i].value
        }

        mutating func enter(_ node: Int, depth: Int) throws {
            guard open.insert(node).inserted else { throw PlistError(.cycle, "node \(node) contains itself") }
            entered += 1
        }

        mutating func leave(_ node: Int) {
            open.remove(node)
            left += 1
        }
    }

    private typealias NodeWriter = @Sendable (inout HandBuiltNodes, WriteOptions, ByteSink) throws -> Void

    private static let writers: [(PlistFormat, NodeWriter)] = [
        (.xml, { try XMLPlistWriter.write(&$0, options: $1, into: $2) }),
        (.binary, { try BinaryPlistWriter.write(&$0, options: $1, into: $2) }),
        (.json, { try JSONPlistWriter.write(&$0, options: $1, into: $2) }),
        (.openstep, { try OpenStepWriter.write(&$0, options: $1, into: $2) }),
    ]

    /// Keys and strings in all three encodings, characters that sort
    /// differently by UTF-16 and by code point (U+1F600 before U+FF5E), a
    /// lone surrogate, and keys repeated in another encoding.
    private static func mixedSpec(openStep: Bool) -> Spec {
        func number(_ i: Int64) -> Spec { openStep ? .text("\(i)", .latin1) : .int(i) }
        return .dict([
            (.text("b", .latin1), number(1)),
            (.text("\u{E9}t\u{E9}", .latin1), .text("\u{FB01}x \u{1F600} \"q\" \\ /", .utf16BE)),
            (.text("a", .utf8), .array([.text("caf\u{E9} & <tag> \u{7F}", .latin1), .units([0xD800, 0x41]), .units([0x42, 0xDC00]),
                                        .text("\u{FF5E}", .utf16BE), .text("plain", .latin1), .text("", .utf16BE)])),
            (.text("b", .utf16BE), number(2)),
            (.text("\u{1F600}", .utf16BE), .text("x", .utf8)),
            (.text("\u{FF5E}", .utf8), .data([1, 2, 3, 0xFF])),
            (.text("\u{E9}t\u{E9}", .utf8), .dict([(.text("k", .utf8), openStep ? .text("t", .latin1) : .bool(true)),
                                                   (.text("k", .latin1), openStep ? .text("f", .utf16BE) : .bool(false)),
                                                   (.text("j", .utf16BE), .array([]))])),
            (.text("\u{E9}t\u{E9}", .utf16BE), .dict([(.text("k", .utf8), number(3)), (.text("k", .utf16BE), number(4))])),
            (.units([0xDC00]), .text("lone key", .latin1)),
        ])
    }

    func testTextOfEveryEncodingAndRepeatedKeysWriteAsReadingGivesThem() throws {
        for (format, write) in Self.writers {
            let spec = Self.mixedSpec(openStep: format == .openstep)
            let expected = spec.value
            guard case .dictionary(let top) = expected else { return XCTFail("not a dictionary") }
            XCTAssertEqual(top.count, 6, "the repeats collapse")
            for options in Self.optionSets {
                var source = HandBuiltNodes(spec)
                let sink = ByteSink()
                try write(&source, options, sink)
                XCTAssertEqual(sink.bytes(), try PropertyList.write(expected, as: format, options: options), "\(format) \(options)")
                XCTAssertEqual(source.entered, source.left, "\(format): every container entered is left")
                XCTAssertGreaterThan(source.entered, 0)
                XCTAssertTrue(source.open.isEmpty)
            }
        }
    }

    /// What the expected values assume: Archivist's binary reader reads a
    /// dictionary that repeats a key (once in another encoding) with the key
    /// once, at its first position, with its first value, as CoreFoundation
    /// reads a binary plist (an XML one keeps the last value).
    func testReadersGiveARepeatedKeyOnceWithItsFirstValue() throws {
        let bytes = Fixtures.bplist([
            [0xD3, 1, 2, 3, 4, 5, 6],
            [0x51, UInt8(ascii: "b")], [0x51, UInt8(ascii: "a")], [0x61, 0x00, UInt8(ascii: "b")],
            [0x10, 1], [0x10, 2], [0x10, 3],
        ])
        let expected = PlistValue.dictionary(PlistDictionary([("b", .int(1)), ("a", .int(2))]))
        XCTAssertEqual(try PropertyList.read(bytes).tree.value.description, expected.description, "first position, first value")
        XCTAssertEqual(try FoundationBridge.foundationRead(bytes), expected)
        // The view that conversions stream from writes the same.
        try bytes.withUnsafeBytes { buffer in
            var view = try BinaryPlistView(buffer)
            XCTAssertEqual(try PropertyList.read(try { let out = ByteSink(); try XMLPlistWriter.write(&view, into: out); return out.bytes() }()).tree.value, expected)
        }
        let xml = Array("<plist><dict><key>b</key><integer>1</integer><key>a</key><integer>2</integer><key>b</key><integer>3</integer></dict></plist>".utf8)
        XCTAssertEqual(try FoundationBridge.foundationRead(xml), .dictionary(PlistDictionary([("b", .int(3)), ("a", .int(2))])),
                       "XML keeps the last value")
    }

    func testErrorsNameTheKeyPathAsForValues() throws {
        let spec = Spec.dict([(.text("\u{E9}", .latin1), .array([.text("s", .utf16BE), .dict([(.text("n", .utf16BE), .int(1))])])),
                              (.text("d", .utf8), .data([1]))])
        var source = HandBuiltNodes(spec)
        XCTAssertThrowsError(try OpenStepWriter.write(&source, options: WriteOptions(), into: ByteSink())) { error in
            XCTAssertEqual(error as? PlistError, Outcome { try PropertyList.write(spec.value, as: .openstep) }.error)
            XCTAssertTrue("\(error)".contains("at \"\u{E9}[1].n\""), "\(error)")
        }
        XCTAssertTrue(source.open.isEmpty, "the walk left what it entered before looking for UIDs")
    }

    func testContainersInsideThemselvesAreRefused() {
        var source = HandBuiltNodes()
        source.nodes = [.array([1]), .dictionary([(key: 2, value: 0)]), .text(source.storage.keep(Array("k".utf8)), .utf8)]
        for (format, write) in Self.writers {
            var copy = source
            XCTAssertThrowsError(try write(&copy, WriteOptions(), ByteSink()), "\(format)") { error in
                XCTAssertEqual((error as? PlistError)?.kind, .cycle, "\(format)")
            }
        }
    }

    func testNestingBoundsAsForValues() throws {
        var spec = Spec.text("x", .latin1)
        for _ in 0..<600 { spec = .array([spec]) }
        let value = spec.value
        for (format, write) in Self.writers {
            var source = HandBuiltNodes(spec)
            let ours = Outcome {
                let sink = ByteSink()
                try write(&source, WriteOptions(), sink)
                return sink.bytes()
            }
            XCTAssertEqual(ours, Outcome { try PropertyList.write(value, as: format) }, "\(format)")
            switch format {
            case .xml, .binary: XCTAssertEqual(ours, .failure(PlistError(.limitExceeded, "nesting deeper than 512 levels cannot be written")))
            case .json, .openstep: XCTAssertNotEqual(ours.bytes, nil, "\(format) walks without recursion")
            }
        }
    }

    // MARK: - Streaming

    func testStreamingGivesTheBufferedBytes() throws {
        let url = Fixtures.sharedCorpus.appendingPathComponent("bpylist/tests/fixture_data/AccessibilityDefinitions.plist")
        let tree = try PlistTree(try PropertyList.read(try Fixtures.bytes(url)).tree.value)
        for format in PlistFormat.allCases {
            for options in Self.optionSets {
                let whole: [UInt8]
                do {
                    whole = try PropertyList.write(tree, as: format, options: options)
                } catch let error as PlistError where error.kind == .notRepresentable {
                    continue  // OpenStep has no dates or numbers.
                }
                XCTAssertGreaterThan(whole.count, 40_000)
                var streamed: [UInt8] = []
                var pieces = 0
                let sink = ByteSink(capacity: 4096) { piece in
                    XCTAssertLessThanOrEqual(piece.count, 4096)
                    streamed.append(contentsOf: piece)
                    pieces += 1
                }
                try tree.withView { try PropertyList.write(&$0, as: format, options: options, into: sink) }
                try sink.finish()
                XCTAssertEqual(streamed, whole, "\(format) \(options)")
                XCTAssertGreaterThan(pieces, whole.count / 4096 - 1, "the output went out in pieces")
            }
        }
    }
}
