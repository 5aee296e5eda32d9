import XCTest
@testable import ArchivistArchive

final class SwiftDemanglerTests: XCTestCase {
    func testMangledClassNames() {
        XCTAssertEqual(SwiftDemangler.demangle("_TtC8MusicBox8Computer"), "MusicBox.Computer")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCV8MusicBox3CPU8CPUCoder"), "MusicBox.CPU.CPUCoder")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCC4Main5Outer5Inner"), "Main.Outer.Inner")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCO4Main4Kind3Box"), "Main.Kind.Box")
        XCTAssertEqual(SwiftDemangler.demangle("_TtCs12_SwiftObject"), "Swift._SwiftObject")
        XCTAssertEqual(SwiftDemangler.demangle("_TtGC4Main3BoxSS_"), "Main.Box<Swift.String>")
        XCTAssertEqual(SwiftDemangler.demangle("_TtGC4Main4PairSiV4Main5Point_"), "Main.Pair<Swift.Int, Main.Point>")
    }

    func testOtherNamesAreLeftAlone() {
        for name in ["NSString", "crap.Foo", "_Tt", "_TtC", "_TtC8Music", "_TtC99999999999Box", "_TtC8MusicBox8ComputerX",
                     "_TtGC4Main3Box_", "_TtC08MusicBox8Computer", "_TtCP33_ABCDEF4Main3Foo"] {
            XCTAssertNil(SwiftDemangler.demangle(name), name)
        }
    }

    func testClassNameMatchesEitherSpelling() {
        let name = ClassName(archived: "_TtCV8MusicBox3CPU8CPUCoder")
        XCTAssertEqual(name.readable, "MusicBox.CPU.CPUCoder")
        XCTAssertTrue(name.matches("MusicBox.CPU.CPUCoder"))
        XCTAssertTrue(name.matches("_TtCV8MusicBox3CPU8CPUCoder"))
        XCTAssertFalse(name.matches("MusicBox.CPU"))
        XCTAssertEqual(name.description, "MusicBox.CPU.CPUCoder (_TtCV8MusicBox3CPU8CPUCoder)")
    }
}
