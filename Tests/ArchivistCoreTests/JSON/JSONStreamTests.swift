import Foundation
import XCTest
@testable import ArchivistCore

/// `JSONStream` writes token by token the text the pretty JSON writer gives
/// for the whole tree: checked on every file of `Corpus/foundation` and
/// `Corpus/json`, on text embedded from a second stream, and on the errors.
final class JSONStreamTests: XCTestCase {
    private func streamed(_ value: PlistValue) throws -> [UInt8] {
        let sink = ByteSink()
        var json = JSONStream(into: sink)
        try json.value(value)
        json.finish()
        return sink.bytes()
    }

    /// Values that JSON can hold (no NaN, infinities or far dates) of every corpus file that reads.
    private func corpusValues() throws -> [(String, PlistValue)] {
        var out: [(String, PlistValue)] = []
        for folder in ["foundation", "json"] {
            let dir = Fixtures.corpus.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                guard let document = try? PropertyList.read(try Fixtures.bytes(dir.appendingPathComponent(name))),
                      (try? PropertyList.write(document.tree.value, as: .json)) != nil else { continue }
                out.append(("\(folder)/\(name)", document.tree.value))
            }
        }
        return out
    }

    func testEveryCorpusValueStreamsAsThePrettyWriterWritesIt() throws {
        let values = try corpusValues()
        XCTAssertGreaterThan(values.count, 20)
        for (name, value) in values {
            XCTAssertEqual(try streamed(value), try PropertyList.write(value, as: .json, options: WriteOptions(pretty: true)), name)
        }
    }

    /// Streamed from the tree, every corpus file is the text streamed from
    /// its value; a data node's replacement is written in its place.
    func testATreeStreamsAsItsValue() throws {
        for folder in ["foundation", "json"] {
            let dir = Fixtures.corpus.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
                guard let tree = try? PropertyList.read(try Fixtures.bytes(dir.appendingPathComponent(name))).tree,
                      let expected = try? streamed(tree.value) else { continue }
                let sink = ByteSink()
                var json = JSONStream(into: sink)
                try json.value(in: tree, at: tree.root)
                json.finish()
                XCTAssertEqual(sink.bytes(), expected, "\(folder)/\(name)")
            }
        }
        let tree = try PlistTree(.dictionary(PlistDictionary([("a", .data([1, 2])), ("b", .array([.data([3]), .string("x")]))])))
        let sink = ByteSink()
        var json = JSONStream(into: sink, compact: true)
        try json.value(in: tree, at: tree.root) { json, bytes in
            guard bytes == [3] else { return false }
            json.string("three")
            return true
        }
        XCTAssertEqual(String(decoding: sink.bytes(), as: UTF8.self), #"{"a":"AQI=","b":["three","x"]}"#)
    }

    /// A compact stream (JSON Lines) writes what the compact writer writes:
    /// one line, no spaces between tokens.
    func testACompactStreamWritesAsTheCompactWriter() throws {
        let values = try corpusValues()
        for (name, value) in values {
            let sink = ByteSink()
            var json = JSONStream(into: sink, compact: true)
            try json.value(value)
            XCTAssertEqual(sink.bytes(), try PropertyList.write(value, as: .json, options: WriteOptions(pretty: false)), name)
            XCTAssertFalse(sink.bytes().contains(0x0A), name)
        }
    }

    /// Text made by a stream started at a depth and embedded where that depth
    /// is reached reads as one document written at once.
    func testEmbeddedTextIsIndentedForItsPlace() throws {
        for (name, inner) in try corpusValues() {
            let sink = ByteSink()
            var outer = JSONStream(into: sink)
            outer.beginArray()
            outer.element()
            outer.beginObject()
            outer.key("row")
            try outer.value(.int(1))
            outer.key("value")
            let innerSink = ByteSink()
            var embedded = JSONStream(into: innerSink, depth: 2)
            try embedded.value(inner)
            outer.embed(innerSink)
            outer.endObject()
            outer.endArray()
            outer.finish()
            let whole = PlistValue.array([.dictionary(PlistDictionary([("row", .int(1)), ("value", inner)]))])
            XCTAssertEqual(sink.bytes(), try PropertyList.write(whole, as: .json, options: WriteOptions(pretty: true)), name)
        }
    }

    /// What JSON cannot hold fails with the writer's message, located by the
    /// key path of the JSON written so far.
    func testUnrepresentableValuesFailAsTheWriterFails() throws {
        let values: [PlistValue] = [
            .dictionary(PlistDictionary([("a", .array([.int(1), .dictionary(PlistDictionary([("b", .real(PlistReal(.nan)))]))]))])),
            .array([.string("x"), .real(PlistReal(.infinity))]),
            .real(PlistReal(-.infinity)),
        ]
        for value in values {
            var expected: PlistError?
            XCTAssertThrowsError(try PropertyList.write(value, as: .json, options: WriteOptions(pretty: true))) { expected = $0 as? PlistError }
            XCTAssertThrowsError(try streamed(value)) { error in
                XCTAssertEqual((error as? PlistError)?.message, expected?.message)
                XCTAssertNotNil(expected)
            }
        }
    }
}
