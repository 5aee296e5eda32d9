// libFuzzer target: a binary plist read in place (BinaryPlistView), checked in
// document order and walked as a writer walks it, against the reader: the
// same error or the same diagnostics, or the input is a finding.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryView(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    // Limits small enough that shared containers reach them in a short run.
    var limits = Limits()
    limits.maxObjects = 100_000
    limits.maxSharedExpansion = 1 << 20
    let options = ReadOptions(limits: limits)
    let read: Result<[PlistDiagnostic], PlistError>
    do {
        read = .success(try BinaryPlistReader.read(buffer, options: options).diagnostics)
    } catch {
        read = .failure(error as? PlistError ?? PlistError(.io, "\(error)"))
    }
    let checked: Result<[PlistDiagnostic], PlistError>
    do {
        var view = try BinaryPlistView(buffer, limits: limits)
        try view.check()
        checked = .success(view.diagnostics)
        _ = BinaryPlistView.looksLikeArchive(buffer, limits: limits)
    } catch {
        checked = .failure(error as? PlistError ?? PlistError(.io, "\(error)"))
    }
    precondition(read == checked, "the view and the reader disagree: \(read) vs \(checked)")
    // A writer's walk, shared containers walked again at each use.
    if case .success = checked, var view = try? BinaryPlistView(buffer, limits: limits) {
        _ = try? visit(&view, view.rootNode, depth: 0)
    }
    return 0
}

private func visit(_ view: inout BinaryPlistView, _ node: Int, depth: Int) throws {
    switch try view.item(node) {
    case .array(let count):
        try view.enter(node, depth: depth)
        for i in 0..<count { try visit(&view, try view.element(i, of: node), depth: depth + 1) }
        view.leave(node)
    case .dictionary(let count):
        try view.enter(node, depth: depth)
        // Keys read twice (as a writer that sorts them), values once.
        for i in 0..<count { _ = try view.item(try view.key(i, of: node)) }
        for i in 0..<count {
            _ = try view.item(try view.key(i, of: node))
            try visit(&view, try view.value(i, of: node), depth: depth + 1)
        }
        view.leave(node)
    case .string, .data, .integer, .real, .bool, .date, .uid, .null:
        return
    }
}
