import Foundation
import XCTest
@testable import ArchivistCore

/// The helpers the JSON and OpenStep readers share.
final class TextInputTests: XCTestCase {
    func testLineTableAgreesWithSourceLocation() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0A, 0x0D, 0x61, 0x62, 0x20]
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0x61 }
            bytes.withUnsafeBytes { text in
                let table = LineTable(text)
                for offset in 0...text.count {
                    XCTAssertEqual(table.location(of: offset), SourceLocation.text(in: text, offset: offset), "\(bytes) @\(offset)")
                }
            }
        }
    }

    func testManyDiagnosticsCostOnePass() throws {
        let pairs = (0..<50_000).map { "\"k\($0 % 10)\": \($0)" }.joined(separator: ",\n")
        let document = try JSONPlistReader.read(Array(("{" + pairs + "}").utf8))
        XCTAssertEqual(document.diagnostics.count, 49_990)
        XCTAssertEqual(document.diagnostics.last?.location, .text(line: 50_000, column: 1))
        XCTAssertEqual(document.diagnostics.last?.related, .text(line: 10, column: 1))
    }

    func testUTF8Validation() {
        let valid: [[UInt8]] = [[0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
                                [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]]
        let invalid: [[UInt8]] = [[0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x9F, 0x80], [0xED, 0xA0, 0x80],
                                  [0xF0, 0x8F, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xE2, 0x82]]
        for bytes in valid {
            bytes.withUnsafeBytes { XCTAssertEqual(UTF8Validation.multibyteLength(in: $0, at: 0), bytes.count, "\(bytes)") }
        }
        for bytes in invalid {
            bytes.withUnsafeBytes { XCTAssertNil(UTF8Validation.multibyteLength(in: $0, at: 0), "\(bytes)") }
        }
    }

    func testCharacterDescriptions() {
        let bytes: [UInt8] = Array("a é".utf8) + [0x01, 0xFF]
        bytes.withUnsafeBytes { text in
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 0), "'a'")
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 1), "' '")
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 2), "'é' (U+00E9)")
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 4), "U+0001")
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 5), "byte 0xFF")
            XCTAssertEqual(TextInput.describeCharacter(in: text, at: 6), "end of input")
        }
    }
}

/// UTF-16 and UTF-32 text must be well formed: a lone surrogate is a located
/// encoding error (a Swift string cannot hold it; replacing it would lose it).
final class StrictTextDecodingTests: XCTestCase {
    func testLoneSurrogatesInUTF16AreLocated() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in Array("{\n\"a\": \"".utf16) + [0xDC00] + Array("\"}".utf16) { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        XCTAssertThrowsError(try PropertyList.read(bytes)) { error in
            let e = error as? PlistError
            XCTAssertEqual(e?.kind, .encoding)
            XCTAssertEqual(e?.message, "lone UTF-16 surrogate 0xDC00")
            XCTAssertEqual(e?.location, .text(line: 2, column: 7))
        }
        var good: [UInt8] = [0xFE, 0xFF]
        for u in Array("(\"😀\")".utf16) { good += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        XCTAssertEqual(try PropertyList.read(good).tree.value, .array([.string("😀")]), "a surrogate pair is one character")
    }
}

/// The one decoder's replacing mode reads ill-formed UTF-16 and UTF-32 as the
/// standard library's decoders do: each ill-formed unit becomes U+FFFD.
final class ReplacingTextDecodingTests: XCTestCase {
    func testIllFormedUTF16IsReplacedAsTheStandardLibraryDoes() throws {
        let samples: [[UInt16]] = [
            Array("a\u{e9}😀b".utf16),
            [0x61, 0xD800, 0x62],          // a high surrogate before a non-surrogate
            [0xDC00, 0x61],                // a low surrogate alone
            [0xD83D, 0xD83D, 0xDE00],      // two highs, then a low: one pair after one lone high
            [0x61, 0xD800],                // a high surrogate at the end
        ]
        for units in samples {
            for bigEndian in [true, false] {
                var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
                for u in units { bytes += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
                let decoded = try bytes.withUnsafeBytes { try TextDecoding.decodeToUTF8($0, mode: .replacing) }
                XCTAssertEqual(String(decoding: decoded, as: UTF8.self), String(decoding: units, as: UTF16.self), "\(units)")
                let illFormed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) { _ in }
                let strict = Result { try bytes.withUnsafeBytes { try TextDecoding.decodeToUTF8($0, mode: .strict) } }
                switch strict {
                case .success(let utf8): XCTAssertFalse(illFormed, "\(units)"); XCTAssertEqual(utf8, decoded)
                case .failure(let error): XCTAssertTrue(illFormed, "\(units)"); XCTAssertEqual((error as? PlistError)?.kind, .encoding)
                }
            }
        }
    }

    func testUTF32ValuesThatAreNoScalarsAreReplaced() throws {
        let text = "x\u{10FFFF}"
        var bytes: [UInt8] = [0x00, 0x00, 0xFE, 0xFF]
        for scalar in text.unicodeScalars { bytes += withUnsafeBytes(of: scalar.value.bigEndian, Array.init) }
        bytes += withUnsafeBytes(of: UInt32(0x11_0000).bigEndian, Array.init)
        let decoded = try bytes.withUnsafeBytes { try TextDecoding.decodeToUTF8($0, mode: .replacing) }
        XCTAssertEqual(String(decoding: decoded, as: UTF8.self), text + "\u{FFFD}")
        XCTAssertThrowsError(try bytes.withUnsafeBytes { try TextDecoding.decodeToUTF8($0, mode: .strict) }) { error in
            XCTAssertEqual((error as? PlistError)?.message, "0x110000 is not a Unicode scalar")
        }
    }
}
