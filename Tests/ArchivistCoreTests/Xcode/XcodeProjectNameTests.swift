@testable import ArchivistCore
import XCTest

/// The project name taken from a `project.pbxproj`'s folder, asked of every
/// file a batch writes.
final class XcodeProjectNameTests: XCTestCase {
    func testTheFolderNamesTheProject() {
        XCTAssertEqual(XcodeProjectName.fromPath("App.xcodeproj/project.pbxproj"), "App")
        XCTAssertEqual(XcodeProjectName.fromPath("/src/My App.xcodeproj/project.pbxproj"), "My App")
        XCTAssertEqual(XcodeProjectName.fromPath("/src/Ünïcode.xcodeproj//project.pbxproj/"), "Ünïcode")
        XCTAssertEqual(XcodeProjectName.fromPath("a/b/x.y.xcodeproj/project.pbxproj"), "x.y")
    }

    func testOtherPathsNameNoProject() {
        for path in ["", "project.pbxproj", "/project.pbxproj", ".xcodeproj/project.pbxproj", "/.xcodeproj/project.pbxproj",
                     "App.xcodeproj/project.pbxproj.bak", "App.xcodeproj/xproject.pbxproj", "App.xcodeprojx/project.pbxproj",
                     "App/project.pbxproj", "App.xcodeproj", "Info.plist", "/tmp/w4/f0001.bplist"] {
            XCTAssertNil(XcodeProjectName.fromPath(path), path)
        }
    }
}
