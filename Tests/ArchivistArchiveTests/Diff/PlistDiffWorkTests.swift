import ArchivistCore
import ArchivistTestSupport
import XCTest
@testable import ArchivistArchive

/// The structural diff of archives does work linear in their objects: each
/// pair of objects is compared once, however many references lead to it and
/// however many cycles pass through it.
final class PlistDiffWorkTests: XCTestCase {
    /// A group of `count` members (an `NSArray`), each pointing back at the
    /// group and at its partner (members 2k and 2k+1 point at each other):
    /// every member lies on two cycles. Member `changed` holds -1 instead of
    /// its number.
    private func pairedGroup(_ count: Int, changed: Int? = nil) throws -> PlistTree {
        let firstMember = 5, memberClass = UInt64(5 + count)
        let members = (0..<count).map { (i: Int) -> PlistValue in
            let partner = UInt64(firstMember + (i ^ 1))
            let number = Int64(i == changed ? -1 : i)
            let fields: [(String, PlistValue)] = [("group", .uid(1)), ("partner", .uid(partner)), ("number", .int(number))]
            return ArchiveBuilder.object(fields, classAt: memberClass)
        }
        let memberUIDs = (0..<count).map { (i: Int) -> PlistValue in .uid(UInt64(firstMember + i)) }
        let objects = [
            ArchiveBuilder.object([("members", .uid(2))], classAt: 3),
            ArchiveBuilder.object([("NS.objects", .array(memberUIDs))], classAt: 4),
            ArchiveBuilder.classEntry("Group"),
            ArchiveBuilder.classEntry("NSArray"),
        ] + members + [ArchiveBuilder.classEntry("Member")]
        return try PlistTree(ArchiveBuilder.archive(objects))
    }

    func testAGraphOf100000ObjectsWithCyclesDiffsInLinearWork() throws {
        let count = 100_000
        let a = try pairedGroup(count), b = try pairedGroup(count, changed: 50_001)
        let counter = WorkCounter()
        let diff = try WorkCounter.$current.withValue(counter) { try PlistDiff(a, b) }
        // Reported once, where the walk first meets the member: as member 50,000's partner.
        XCTAssertEqual(diff.lines, ["~ root.members.50000.partner.number: inline integer 50001 -> inline integer -1"])
        // A member is compared once with its fields (the group, met again,
        // its partner and its number), not once per path that leads to it:
        // two and a half comparisons a member.
        let steps = counter.count(of: .diffStep)
        XCTAssertGreaterThanOrEqual(steps, 2 * count)
        XCTAssertLessThanOrEqual(steps, 3 * count, "\(steps) comparisons for \(count) objects")
    }
}
