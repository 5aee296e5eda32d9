import XCTest
@testable import ArchivistCore
import ArchivistTestSupport

/// The conformance walk over `../shared/corpus` and `Corpus/` (their
/// MANIFEST.tsv files): every valid file converts to every format that can hold
/// its tree and back to an equal tree; formats that cannot hold it refuse with
/// `.notRepresentable`. Every malformed file fails with a located error, except
/// the cases the manifests say still read as property lists.
final class CorpusRoundTripTests: XCTestCase {
    static var rows: [Fixtures.ManifestEntry] {
        [Fixtures.sharedCorpus, Fixtures.corpus].flatMap { Fixtures.manifest(at: $0) }
    }

    /// The tree as JSON carries it back: dates and data become strings, UIDs
    /// become `{"CF$UID": n}` dictionaries. A date's string is its whole
    /// seconds and as many digits of its fraction as read back to it exactly:
    /// the string `read` holds there when it is such a string.
    static func jsonShape(_ v: PlistValue, read: PlistValue) -> PlistValue {
        switch (v, read) {
        case (.array(let items), .array(let readItems)) where items.count == readItems.count:
            return .array(zip(items, readItems).map { jsonShape($0, read: $1) })
        case (.dictionary(let d), .dictionary(let r)):
            var out = PlistDictionary()
            for (k, value) in d { out[k] = jsonShape(value, read: r[k] ?? .null) }
            return .dictionary(out)
        case (.date(let d), .string(let s)):
            // The whole seconds, then `.DIGITS` for a date between seconds only,
            // and a text that reads back to exactly `d`.
            let t = d.secondsSinceReferenceDate
            let whole = ISO8601.format(PlistDate(secondsSinceReferenceDate: t.rounded(.down)))
            let start = t == t.rounded(.down) ? whole : whole.dropLast() + "."
            let exact = ISO8601.parse(Array(s.utf8)) == d && s.hasPrefix(start) && s.hasSuffix("Z")
            return .string(exact ? s : whole)
        default:
            return jsonShape(v)
        }
    }

    /// `jsonShape(_:read:)` for leaves (dates at whole seconds).
    static func jsonShape(_ v: PlistValue) -> PlistValue {
        PlistLeaves.map(v) { leaf in
            switch leaf {
            case .date(let d): return .string(ISO8601.format(d))
            case .data(let bytes): return .string(String(decoding: Base64.encode(bytes), as: UTF8.self))
            case .uid(let u): return .dictionary(PlistDictionary([("CF$UID", .integer(PlistInteger(u)))]))
            case .string, .integer, .real, .bool, .null, .array, .dictionary: return leaf
            }
        }
    }

    /// JSON holds every tree without null, non-finite reals or dates beyond ISO 8601.
    static func jsonCanHold(_ v: PlistValue) -> Bool {
        !PlistLeaves.any(v) { leaf in
            switch leaf {
            case .null: return true
            case .real(let r): return !r.value.isFinite
            case .date(let d): return ISO8601.formatIfRepresentable(d) == nil
            case .string, .integer, .bool, .data, .uid, .array, .dictionary: return false
            }
        }
    }

    /// Writes `value` as `format` and reads it back, or checks the refusal.
    func roundTrip(_ value: PlistValue, _ format: PlistFormat, canHold: Bool, expected: PlistValue, _ name: String) {
        roundTrip(value, format, canHold: canHold, expected: { _ in expected }, name)
    }

    /// `expected` gets the tree read back (JSON dates are checked against it).
    func roundTrip(_ value: PlistValue, _ format: PlistFormat, canHold: Bool, expected: (PlistValue) -> PlistValue, _ name: String) {
        do {
            let bytes = try PropertyList.write(value, as: format)
            XCTAssertTrue(canHold, "\(name): \(format) wrote a tree it cannot hold")
            let back = try PropertyList.read(bytes)
            // `{}` and a quoted string are both JSON and OpenStep; JSON is sniffed first.
            if format != .openstep { XCTAssertEqual(back.format, format, "\(name) via \(format)") }
            XCTAssertEqual(back.tree.value, expected(back.tree.value), "\(name) via \(format)")
        } catch let error as PlistError {
            XCTAssertFalse(canHold, "\(name) via \(format): \(error)")
            XCTAssertEqual(error.kind, .notRepresentable, "\(name) via \(format): \(error)")
        } catch {
            XCTFail("\(name) via \(format): \(error)")
        }
    }

    func testValidFilesRoundTripThroughEveryFormat() throws {
        let rows = Self.rows.filter(\.valid)
        try XCTSkipIf(rows.isEmpty, "no corpus found")
        for row in rows {
            let original: PlistValue
            do {
                original = try PropertyList.read(try Fixtures.bytes(row.url)).tree.value
            } catch {
                XCTFail("\(row.path): \(error)")
                continue
            }
            let hasNull = PlistLeaves.any(original) { if case .null = $0 { return true } else { return false } }
            roundTrip(original, .binary, canHold: true, expected: original, row.path)
            roundTrip(original, .xml, canHold: !hasNull, expected: PlistLeaves.wholeSecondDates(original), row.path)
            roundTrip(original, .json, canHold: Self.jsonCanHold(original), expected: { Self.jsonShape(original, read: $0) }, row.path)
            roundTrip(original, .openstep, canHold: PlistLeaves.openStepHolds(original), expected: original, row.path)
        }
    }

    func testMalformedFilesGiveLocatedErrors() throws {
        let rows = Self.rows.filter { !$0.valid }
        try XCTSkipIf(rows.isEmpty, "no corpus found")
        var duplicateKeyRows = 0
        for row in rows {
            let bytes: [UInt8]
            do { bytes = try Fixtures.bytes(row.url) } catch { XCTFail("\(row.path): \(error)"); continue }
            if row.kind.contains("archive-invalid:") {
                // A broken archive is still a well-formed property list.
                XCTAssertNoThrow(try PropertyList.read(bytes), row.path)
            } else if row.kind.contains("duplicate key") {
                duplicateKeyRows += 1
                do {
                    let document = try PropertyList.read(bytes)
                    XCTAssertTrue(document.diagnostics.contains { $0.kind == .duplicateKey }, "\(row.path): \(document.diagnostics)")
                } catch {
                    XCTFail("\(row.path): a duplicate key is read as Apple reads it, the last value kept: \(error)")
                }
            } else {
                do {
                    let document = try PropertyList.read(bytes)
                    XCTFail("\(row.path): malformed file accepted as \(document.tree.value.typeName)")
                } catch let error as PlistError {
                    XCTAssertNotEqual(error.location, .unknown, "\(row.path): \(error)")
                    XCTAssertNotEqual(error.kind, .io, "\(row.path): \(error)")
                } catch {
                    XCTFail("\(row.path): not a PlistError: \(error)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(duplicateKeyRows, 1, "the manifests hold a duplicate-key row")
    }
}
