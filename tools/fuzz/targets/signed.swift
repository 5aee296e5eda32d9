// libFuzzer target: signed profiles (a CMS SignedData envelope, DER or BER).
// The input is read as an envelope (swift-asn1 and swift-certificates
// underneath), its content as a property list, and what `info` shows of it
// is made.
import ArchivistCore
import ArchivistSigned

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSigned(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let envelope = try? SignedEnvelope(bytes) else { return 0 }
    let content = try? SignedPlist.content(of: envelope)
    guard let report = try? SignedProfileReport(envelope, content: content?.tree.value ?? .bool(false),
                                           now: PlistDate(secondsSinceReferenceDate: 0)) else { return 0 }
    _ = report.lines
    return 0
}
