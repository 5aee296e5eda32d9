import ArchivistCore
import XCTest

/// Error kinds are open values: a layer adds its own, and equal names are equal kinds.
final class PlistErrorKindTests: XCTestCase {
    func testKindsCompareByName() {
        XCTAssertEqual(PlistError.Kind.syntax, PlistError.Kind("syntax"))
        XCTAssertNotEqual(PlistError.Kind.syntax, PlistError.Kind.corrupt)
        XCTAssertEqual(PlistError.Kind.limitExceeded.description, "limitExceeded")
        XCTAssertEqual(Set([PlistError.Kind.io, .io, .encoding]).count, 2)
    }

    func testAReaderErrorCarriesItsKind() {
        XCTAssertThrowsError(try PropertyList.read(Array("{\"a\": [1,]}".utf8))) { error in
            let kind = (error as? PlistError)?.kind
            switch kind {
            case .syntax?: break
            default: XCTFail("\(error)")
            }
        }
        XCTAssertThrowsError(try PropertyList.read(Array("bplist00".utf8))) { error in
            XCTAssertEqual((error as? PlistError)?.kind, .corrupt, "\(error)")
        }
    }
}
