import XCTest
@testable import ArchivistCore

/// The conformance walk over `../shared/corpus` and `Corpus/`: every valid file
/// converts to every format and back to an equal tree (JSON and OpenStep where
/// their types allow); every malformed file fails with a located error.
final class CorpusRoundTripTests: XCTestCase {
    static var roots: [URL] { [Fixtures.sharedCorpus, Fixtures.corpus] }

    /// The tree as JSON carries it back: dates and data become strings, UIDs
    /// become `{"CF$UID": n}` dictionaries.
    static func jsonShape(_ v: PlistValue) -> PlistValue {
        switch v {
        case .date(let d): return .string(ISO8601.format(d))
        case .data(let bytes): return .string(String(decoding: Base64.encode(bytes), as: UTF8.self))
        case .uid(let u): return .dictionary(PlistDictionary([("CF$UID", .integer(PlistInteger(u)))]))
        case .array(let items): return .array(items.map(jsonShape))
        case .dictionary(let d): return .dictionary(PlistDictionary(zip(d.keys, d.values.map(jsonShape)).map { ($0, $1) }))
        case .string, .integer, .real, .bool, .null: return v
        }
    }

    /// The tree with every date floored to a whole second.
    static func wholeSecondDates(_ v: PlistValue) -> PlistValue {
        switch v {
        case .date(let d): return .date(PlistDate(secondsSinceReferenceDate: d.secondsSinceReferenceDate.rounded(.down)))
        case .array(let items): return .array(items.map(wholeSecondDates))
        case .dictionary(let d): return .dictionary(PlistDictionary(zip(d.keys, d.values.map(wholeSecondDates)).map { ($0, $1) }))
        case .string, .integer, .real, .bool, .null, .data, .uid: return v
        }
    }

    func testValidFilesRoundTripThroughEveryFormat() throws {
        let rows = Self.roots.flatMap { Fixtures.manifest(at: $0) }.filter(\.valid)
        try XCTSkipIf(rows.isEmpty, "no corpus found")
        for row in rows {
            let original: PlistValue
            do {
                original = try PropertyList.read(try Fixtures.bytes(row.url)).value
            } catch {
                XCTFail("\(row.path): \(error)")
                continue
            }
            for format in [PlistFormat.binary, .xml] {
                do {
                    let back = try PropertyList.read(try PropertyList.write(original, as: format)).value
                    // XML dates hold whole seconds, as Foundation writes them.
                    XCTAssertEqual(back, format == .xml ? Self.wholeSecondDates(original) : original, "\(row.path) via \(format)")
                } catch {
                    XCTFail("\(row.path) via \(format): \(error)")
                }
            }
            // JSON holds every tree whose reals are finite and that has no null.
            if let json = try? PropertyList.write(original, as: .json) {
                XCTAssertEqual(try PropertyList.read(json).value, Self.jsonShape(original), "\(row.path) via json")
            }
            // OpenStep holds strings, data, arrays and dictionaries only.
            if let text = try? PropertyList.write(original, as: .openstep) {
                XCTAssertEqual(try PropertyList.read(text).value, original, "\(row.path) via openstep")
            }
        }
    }

    func testMalformedFilesGiveLocatedErrors() throws {
        let rows = Self.roots.flatMap { Fixtures.manifest(at: $0) }.filter { !$0.valid && !$0.format.hasPrefix("keyed-archive") }
        for row in rows {
            do {
                let doc = try PropertyList.read(try Fixtures.bytes(row.url))
                XCTAssertFalse(doc.diagnostics.isEmpty, "\(row.path): malformed file accepted without a diagnostic")
            } catch let error as PlistError {
                XCTAssertNotEqual(error.location, .unknown, "\(row.path): \(error)")
            }
        }
    }
}
