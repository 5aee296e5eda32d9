import ArchivistTestSupport
import Foundation
import XCTest

/// A test case whose standard output is shown only when it fails: the
/// snippets print what the articles show (generated Swift among it), which
/// would fill the test log with hundreds of lines when all is well.
class QuietTestCase: XCTestCase {
    override func invokeTest() {
        let capture = StandardOutputCapture()
        let failuresBefore = testRun?.totalFailureCount ?? 0
        capture.start()
        super.invokeTest()
        let printed = capture.stop()
        if (testRun?.totalFailureCount ?? 0) > failuresBefore, !printed.isEmpty {
            print("--- \(name) failed; what it printed:\n\(printed)\(printed.hasSuffix("\n") ? "" : "\n")--- end of \(name)")
        }
    }
}

final class StandardOutputCaptureTests: XCTestCase {
    func testWhatIsPrintedMeanwhileIsHeldBackAndReturned() {
        let capture = StandardOutputCapture()
        XCTAssertTrue(capture.start())
        XCTAssertFalse(capture.start(), "not nested")
        print("generated line 1")
        print("generated line 2", terminator: "")
        XCTAssertEqual(capture.stop(), "generated line 1\ngenerated line 2")
        XCTAssertEqual(capture.stop(), "", "stopped once")
        // Written to the descriptor, not through print's buffer.
        XCTAssertTrue(capture.start())
        FileHandle.standardOutput.write(Data("written to the descriptor\n".utf8))
        XCTAssertEqual(capture.stop(), "written to the descriptor\n")
    }
}
