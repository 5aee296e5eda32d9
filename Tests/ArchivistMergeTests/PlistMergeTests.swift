import ArchivistCore
@testable import ArchivistMerge
import XCTest

final class PlistMergeTests: XCTestCase {
    private func d(_ pairs: [(String, PlistValue)]) -> PlistValue { .dictionary(PlistDictionary(pairs)) }
    private func a(_ items: [String]) -> PlistValue { .array(items.map { .string($0) }) }

    func testKeysOnlyOneSideChangedTakeThatSide() {
        let base = d([("a", .string("1")), ("b", .string("2")), ("c", .string("3"))])
        let ours = d([("a", .string("1")), ("b", .string("20")), ("c", .string("3")), ("o", .string("new"))])
        let theirs = d([("a", .string("10")), ("b", .string("2")), ("t", .string("added"))])
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        XCTAssertTrue(merge.conflicts.isEmpty)
        XCTAssertEqual(merge.merged?.dictionaryValue?.keys, ["a", "b", "t", "o"], "THEIRS' new key follows the key it follows in THEIRS; c removed")
        XCTAssertEqual(merge.merged, d([("a", .string("10")), ("b", .string("20")), ("t", .string("added")), ("o", .string("new"))]))
    }

    func testBothChangingOneKeyDifferentlyIsOneConflictAtItsPath() {
        let base = d([("s", d([("V", .string("1")), ("W", .string("x"))]))])
        let ours = d([("s", d([("V", .string("2")), ("W", .string("x"))]))])
        let theirs = d([("s", d([("V", .string("3")), ("W", .string("y"))]))])
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(merge.conflicts.map(\.path), ["s.V"])
        XCTAssertEqual(merge.merged, d([("s", d([("V", .string("2")), ("W", .string("y"))]))]))
        XCTAssertEqual(merge.conflicts.first.map { $0.applyingTheirs(to: merge.merged ?? .null) }, d([("s", d([("V", .string("3")), ("W", .string("y"))]))]))
    }

    func testRemovedOnOneSideChangedOnTheOtherIsAConflict() {
        let base = d([("k.x", .string("1")), ("z", .string("0"))])
        let merge = PlistMerge(base: base, ours: d([("z", .string("0"))]), theirs: d([("k.x", .string("2")), ("z", .string("0"))]))
        XCTAssertEqual(merge.conflicts.map(\.path), [#"k\.x"#])
        XCTAssertEqual(merge.merged, d([("z", .string("0"))]))
        XCTAssertEqual(merge.conflicts.first.map { $0.applyingTheirs(to: merge.merged ?? .null) }?.dictionaryValue?.keys, ["k.x", "z"])
    }

    /// A key holding a line break cannot break a marker line, and each
    /// conflict is its own block with only its lines.
    func testMarkersAreOneBlockPerConflictWithTheirKeyPathOnOneLine() throws {
        let base = d([("a\nb", .string("1")), ("c", .string("1")), ("d", .string("1"))])
        let merge = PlistMerge(base: base, ours: d([("a\nb", .string("2")), ("c", .string("1")), ("d", .string("2"))]),
                               theirs: d([("a\nb", .string("3")), ("c", .string("3")), ("d", .string("3"))]))
        XCTAssertEqual(merge.conflicts.map(\.path), ["a\nb", "d"])
        let text = try ConflictMarkers.render(try XCTUnwrap(merge.merged), conflicts: merge.conflicts) {
            try PropertyList.write($0, as: .openstep, options: WriteOptions(keepKeyOrder: true))
        }
        XCTAssertEqual(String(decoding: text, as: UTF8.self), """
            {
            <<<<<<< ours: a\\nb
            \t"a\\nb" = 2;
            =======
            \t"a\\nb" = 3;
            >>>>>>> theirs: a\\nb
            \tc = 3;
            <<<<<<< ours: d
            \td = 2;
            =======
            \td = 3;
            >>>>>>> theirs: d
            }

            """)
    }

    func testArraysMergeAsSequences() {
        let base = a(["a", "b", "c", "d", "e"])
        let merge = PlistMerge(base: base, ours: a(["a", "B", "c", "d", "e"]), theirs: a(["a", "b", "c", "d", "e", "f"]))
        XCTAssertTrue(merge.conflicts.isEmpty)
        XCTAssertEqual(merge.merged, a(["a", "B", "c", "d", "e", "f"]))
        let clash = PlistMerge(base: base, ours: a(["a", "b", "X", "Y", "e"]), theirs: a(["a", "b", "Z", "e"]))
        XCTAssertEqual(clash.conflicts.map(\.path), ["(top level)"])
        XCTAssertEqual(clash.merged, a(["a", "b", "X", "Y", "e"]))
        XCTAssertEqual(clash.conflicts.first.map { $0.applyingTheirs(to: clash.merged ?? .null) }, a(["a", "b", "Z", "e"]))
    }

    /// Arrays edited everywhere on both sides (the worst case of a diff) take
    /// bounded, linear work: items changed one for one merge item by item;
    /// otherwise the changed middle is one stretch, one conflict.
    func testArraysChangedEverywhereTakeLinearWork() {
        let n = 100_000
        let base = a((0..<n).map { "item\($0)" })
        let ours = a((0..<n).map { $0 % 2 == 0 ? "ours\($0)" : "item\($0)" })
        let theirs = a((0..<n).map { $0 % 3 == 0 ? "theirs\($0)" : "item\($0)" })
        let replaced = PlistMerge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(replaced.conflicts.count, (n + 5) / 6, "the items both replaced")
        XCTAssertEqual(replaced.merged?[3], .string("theirs3"))
        XCTAssertEqual(replaced.merged?[4], .string("ours4"))
        XCTAssertLessThanOrEqual(replaced.work.steps, 60 * n)

        let inserted = a((0..<n).flatMap { $0 % 2 == 0 ? ["item\($0)", "new\($0)"] : ["item\($0)"] })
        let removed = a((0..<n).filter { $0 % 3 != 0 }.map { "item\($0)" })
        let merge = PlistMerge(base: base, ours: inserted, theirs: removed)
        XCTAssertEqual(merge.conflicts.count, 1)
        XCTAssertEqual(merge.merged, inserted, "OURS' side of the one conflict")
        XCTAssertLessThanOrEqual(merge.work.steps, 60 * n)
    }

    func testItemsChangedOneForOneMergeByKey() {
        let base = PlistValue.array([d([("n", .string("1")), ("m", .string("1"))])])
        let merge = PlistMerge(base: base, ours: .array([d([("n", .string("2")), ("m", .string("1"))])]),
                               theirs: .array([d([("n", .string("1")), ("m", .string("2"))])]))
        XCTAssertTrue(merge.conflicts.isEmpty)
        XCTAssertEqual(merge.merged, .array([d([("n", .string("2")), ("m", .string("2"))])]))
    }

    func testObjectIDArraysKeepBothSidesAdditionsInOrder() {
        let base = GeneratedProject.value(files: 4)
        let ours = GeneratedProject.value(files: 4, extra: [100, 101])
        let theirs = GeneratedProject.value(files: 3, extra: [200])
        let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(merge.conflicts.map(\.path), [])
        let objects = merge.merged?["objects"]?.dictionaryValue
        let children = objects?[GeneratedProject.group]?["children"]?.arrayValue?.compactMap(\.stringValue)
        XCTAssertEqual(children, [0, 1, 2, 200, 100, 101].map { GeneratedProject.id("F", $0) })
        XCTAssertNil(objects?[GeneratedProject.id("F", 3)])
        XCTAssertNotNil(objects?[GeneratedProject.id("B", 200)])
    }

    func testAnObjectOneSideRemovedAndTheOtherUsesIsAConflict() throws {
        let base = GeneratedProject.value(files: 2)
        // OURS removes file 1 (its reference, build file and places); THEIRS adds a second build file of it.
        let ours = GeneratedProject.value(files: 1)
        guard case .dictionary(var top) = base, case .dictionary(var objects)? = top["objects"] else { return XCTFail() }
        objects["EXTRA0000000000000000000"] = .dictionary(PlistDictionary([("isa", .string("PBXBuildFile")), ("fileRef", .string(GeneratedProject.id("F", 1)))]))
        var phase = try XCTUnwrap(objects[GeneratedProject.phase]?.dictionaryValue)
        phase["files"] = .array((phase["files"]?.arrayValue ?? []) + [.string("EXTRA0000000000000000000")])
        objects[GeneratedProject.phase] = .dictionary(phase)
        top["objects"] = .dictionary(objects)
        let merge = PlistMerge(base: base, ours: ours, theirs: .dictionary(top))
        XCTAssertEqual(merge.conflicts.map(\.path), ["objects.\(GeneratedProject.id("F", 1))"])
        XCTAssertEqual(merge.conflicts.first?.reason, "OURS removed this object, which objects.EXTRA0000000000000000000.fileRef uses")
    }

    func testABuildFileInTwoPhasesIsAConflict() throws {
        let base = GeneratedProject.value(files: 2)
        let moving = GeneratedProject.id("B", 1)
        /// Build file 1 moved from the sources phase to a new phase.
        func moved(to newPhase: String, isa: String) throws -> PlistValue {
            guard case .dictionary(var top) = base, case .dictionary(var objects)? = top["objects"] else { throw XCTSkip("shape") }
            objects[newPhase] = .dictionary(PlistDictionary([("isa", .string(isa)), ("files", a([moving]))]))
            var phase = try XCTUnwrap(objects[GeneratedProject.phase]?.dictionaryValue)
            phase["files"] = .array((phase["files"]?.arrayValue ?? []).filter { $0.stringValue != moving })
            objects[GeneratedProject.phase] = .dictionary(phase)
            top["objects"] = .dictionary(objects)
            return .dictionary(top)
        }
        let resources = try moved(to: "0000000000000000000000P1", isa: "PBXResourcesBuildPhase")
        XCTAssertEqual(PlistMerge(base: base, ours: resources, theirs: resources).conflicts.count, 0, "both moved it alike")
        let copies = try moved(to: "0000000000000000000000P2", isa: "PBXCopyFilesBuildPhase")
        let merge = PlistMerge(base: base, ours: resources, theirs: copies)
        XCTAssertEqual(merge.conflicts.map(\.path), ["objects.0000000000000000000000P2.files"])
        XCTAssertEqual(merge.conflicts.first?.reason,
                       "build file \(moving) is in 2 build phases after the merge (0000000000000000000000P1, 0000000000000000000000P2)")
    }

    /// A merge of a project of 40,000 files (a 10 MB `project.pbxproj`)
    /// takes work linear in its size: within a small factor of the values
    /// it holds, and twice the work for twice the project.
    func testAMergeOfATenMegabyteProjectIsLinear() throws {
        func work(files: Int) throws -> (work: Int, values: Int) {
            let base = GeneratedProject.value(files: files)
            let ours = GeneratedProject.value(files: files, extra: Array(files..<(files + 10)), settings: [("A", "1")])
            let theirs = GeneratedProject.value(files: files - 5, extra: Array((files + 10)..<(files + 20)), settings: [("B", "2")])
            let merge = PlistMerge(base: base, ours: ours, theirs: theirs)
            XCTAssertEqual(merge.conflicts.map(\.path), [])
            let objects = try XCTUnwrap(merge.merged?["objects"]?.dictionaryValue)
            XCTAssertEqual(objects.count, 2 * (files + 15) + 6, "both sides' files, without the 5 THEIRS removed, and 6 other objects")
            return (merge.work.steps, [base, ours, theirs].reduce(0) { $0 + GeneratedProject.count($1) })
        }
        let size = try PropertyList.write(GeneratedProject.value(files: 40_000), as: .openstep).count
        XCTAssertGreaterThan(size, 10_000_000)
        let big = try work(files: 40_000), half = try work(files: 20_000)
        XCTAssertLessThanOrEqual(big.work, 12 * big.values, "work per value of the inputs")
        XCTAssertLessThanOrEqual(Double(big.work), 2.2 * Double(half.work), "twice the project, twice the work")
    }
}
