import Foundation
import XCTest
@testable import ArchivistCore

/// Every format has the same two entry points: a reader of a raw buffer (or
/// bytes) and a writer that appends to a `ByteSink`. Appending after other
/// bytes gives exactly the bytes the writer returns on its own.
final class FormatEntryPointTests: XCTestCase {
    /// A tree Foundation writes: strings, numbers, dates, data, nesting.
    private func foundationBinary() throws -> [UInt8] {
        let object: [String: Any] = [
            "name": "Archivist & <friends>", "count": 42, "ratio": 0.25, "flag": true,
            "when": Date(timeIntervalSinceReferenceDate: 700_000_000.5), "blob": Data([0, 1, 2, 255]),
            "list": [1, "two", ["three": [4.5]]],
        ]
        return [UInt8](try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
    }

    private typealias SinkWriter = (PlistValue, WriteOptions, ByteSink) throws -> Void

    func testWritersAppendToASinkWhatTheyReturn() throws {
        let theirs = try foundationBinary()
        let tree = try BinaryPlistReader.read(theirs).tree.value
        let strings = PlistValue.dictionary(PlistDictionary([("a", .string("b c")), ("d", .array([.data([1, 2, 3, 4, 5])]))]))
        let writers: [(String, PlistValue, ([UInt8]) throws -> PlistDocument, (PlistValue) throws -> [UInt8], SinkWriter)] = [
            ("xml", tree, { try XMLPlistReader.read($0) }, { try PropertyList.write($0, as: .xml) }, { v, o, s in try PlistTree(v).withView { try XMLPlistWriter.write(&$0, options: o, into: s) } }),
            ("binary", tree, { try BinaryPlistReader.read($0) }, { try PropertyList.write($0, as: .binary) },
             { v, o, s in try PlistTree(v).withView { try BinaryPlistWriter.write(&$0, options: o, into: s) } }),
            ("json", tree, { try JSONPlistReader.read($0) }, { try PropertyList.write($0, as: .json) }, { v, o, s in try PlistTree(v).withView { try JSONPlistWriter.write(&$0, options: o, into: s) } }),
            ("openstep", strings, { try OpenStepReader.read($0) }, { try PropertyList.write($0, as: .openstep) },
             { v, o, s in try PlistTree(v).withView { try OpenStepWriter.write(&$0, options: o, into: s) } }),
        ]
        let prefix: [UInt8] = Array("already here".utf8)
        for (name, value, read, write, writeInto) in writers {
            let alone = try write(value)
            let sink = ByteSink()
            sink.append(prefix)
            try writeInto(value, WriteOptions(), sink)
            XCTAssertEqual(sink.bytes(), prefix + alone, name)
            let fromBytes = try read(alone)
            let fromBuffer = try alone.withUnsafeBytes { try PropertyList.read($0) }
            XCTAssertEqual(fromBytes.tree.value, fromBuffer.tree.value, name)
            // XML floors dates to whole seconds and JSON has no dates or data: only these two give the tree back.
            if name == "binary" || name == "openstep" { XCTAssertEqual(fromBytes.tree.value, value, name) }
        }
        let sink = ByteSink()
        try PlistTree(tree).withView { try BinaryPlistWriter.write(&$0, options: WriteOptions(), into: sink) }
        XCTAssertEqual(try FoundationBridge.foundationRead(sink.bytes()), try FoundationBridge.foundationRead(theirs),
                       "Foundation reads what was written into a sink as what it wrote")
    }
}
