import ArchivistTestSupport
import Foundation
import XCTest

/// Foundation's real secure decoder as an oracle:
/// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` with the version-2
/// classes, mapped from archived names with `setClass(_:forClassName:)`.
enum SecureDecoding {
    static let foundationClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSString.self, NSNumber.self, NSDate.self, NSData.self]

    /// Decodes in this process: only for archives expected to decode, since a
    /// class that is not allowed can trap the process on Linux.
    static func decode(_ data: Data, names: [String: String]) throws -> Any? {
        for (archived, model) in names {
            guard let cls = secureModelClasses[model] else { throw CocoaError(.coderInvalidValue) }
            NSKeyedUnarchiver.setClass(cls, forClassName: archived)
        }
        return try NSKeyedUnarchiver.unarchivedObject(ofClasses: Array(secureModelClasses.values) + foundationClasses, from: data)
    }

    /// What a child process made of an archive.
    struct ChildOutcome {
        /// The child's exit status (a trap gives a signal's status).
        var status: Int32
        /// `DECODED <description>` or `THREW <error>`, or nil when the child
        /// died before saying either.
        var line: String?
        /// Everything the child printed.
        var output: String

        var decoded: String? { line.flatMap { $0.hasPrefix("DECODED ") ? String($0.dropFirst(8)) : nil } }
    }

    /// Decodes a file in a child process (this test binary running
    /// `SecureDecodeChild`), so that a trap cannot take the tests down;
    /// `secure: false` decodes without secure coding, any class allowed.
    static func decodeInChild(_ file: URL, names: [String: String], secure: Bool = true) throws -> ChildOutcome {
        var env: [String: String] = [
            "ARCHIVIST_DECODE_FILE": file.path,
            "ARCHIVIST_DECODE_NAMES": names.map { "\($0.key)=\($0.value)" }.joined(separator: ";"),
        ]
        env["ARCHIVIST_DECODE_INSECURE"] = secure ? nil : "1"
        let child = try ProcessRunner.runTestChild("ArchivistArchiveTests.SecureDecodeChild/testDecodeFileFromEnvironment", environment: env)
        let output = child.stdout
        let line = output.split(separator: "\n").first { $0.hasPrefix("DECODED ") || $0.hasPrefix("THREW ") }.map(String.init)
        return ChildOutcome(status: child.status, line: line, output: output)
    }
}

/// The child side of `SecureDecoding.decodeInChild`; skipped in a normal run.
final class SecureDecodeChild: XCTestCase {
    func testDecodeFileFromEnvironment() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env["ARCHIVIST_DECODE_FILE"] else {
            throw XCTSkip("runs only as the child process of the secure-decoding tests")
        }
        var names: [String: String] = [:]
        for pair in (env["ARCHIVIST_DECODE_NAMES"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { names[parts[0]] = parts[1] }
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let line: String
        do {
            let value: Any?
            if env["ARCHIVIST_DECODE_INSECURE"] == "1" {
                let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
                unarchiver.requiresSecureCoding = false
                unarchiver.decodingFailurePolicy = .setErrorAndReturn
                value = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
                if let error = unarchiver.error { throw error }
            } else {
                value = try SecureDecoding.decode(data, names: names)
            }
            let text = value.map { String(describing: $0) } ?? "nil"
            // Without secure coding, whole graphs are printed: on one line.
            line = "DECODED \(env["ARCHIVIST_DECODE_INSECURE"] == "1" ? text.split(separator: "\n").joined(separator: " ") : text)\n"
        } catch {
            line = "THREW \(error)\n"
        }
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
