import ArchivistTestSupport
import ArchivistCore
import XCTest
@testable import ArchivistArchive

/// The secure-coding check visits each object reached from `$top` once,
/// however many references lead to it, and finds its violations in that one
/// visit (counted by the work counter, not timed).
final class SecureCheckWorkTests: XCTestCase {
    /// 3,000 objects of a custom class, each referred to by its two
    /// predecessors and holding an inline integer; 1,000 more no reference
    /// reaches. Every reached object is visited once and reported once.
    func testSecureCheckVisitsEachObjectOnce() throws {
        let n = 3_000, unreached = 1_000
        // $objects: $null, the class (UID 1), then the objects from UID 2.
        var objects: [PlistValue] = [ArchiveBuilder.classEntry("App.Node")]
        for i in 0..<(n + unreached) {
            var fields: [(String, PlistValue)] = [("value", .int(Int64(i)))]
            if i + 1 < n { fields.append(("next", .uid(UInt64(i + 3)))) }
            if i + 2 < n { fields.append(("skip", .uid(UInt64(i + 4)))) }
            objects.append(ArchiveBuilder.object(fields, classAt: 1))
        }
        let archive = try PlistTree(ArchiveBuilder.archive(objects, top: [("root", .uid(2))]))
        let counter = WorkCounter()
        let errors = try WorkCounter.$current.withValue(counter) {
            try SecureCodingCheck.errors(in: archive, policy: SecurePolicy(allowing: ["App.Node"]))
        }
        XCTAssertEqual(counter.count(of: .secureObjectVisit), n)
        XCTAssertEqual(errors.count, n)
        XCTAssertEqual(errors.first?.location, .archive(object: 2, keyPath: "root.value"))
        guard case .archive(let last, _)? = errors.last?.location else { return XCTFail("no archive location") }
        XCTAssertEqual(last, n + 1)
        // The same violations as the graph's own check, in the same order.
        let graph = try ObjectGraph(archive)
        XCTAssertEqual(SecureCodingCheck.violations(in: graph, policy: SecurePolicy(allowing: ["App.Node"])).map(\.error.message),
                       errors.map(\.message))
    }
}
