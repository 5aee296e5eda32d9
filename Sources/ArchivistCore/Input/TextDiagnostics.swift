/// Diagnostics of a text reader, collected with byte offsets while scanning and
/// turned into line:column positions once at the end, so that many of them
/// cost one pass over the text instead of one pass each.
struct TextDiagnostics {
    private struct Pending {
        var kind: PlistDiagnostic.Kind
        var message: String
        var offset: Int
        var related: Int?
    }

    private var pending: [Pending] = []

    /// Records a diagnostic at a byte offset, with the offset of a second place.
    mutating func add(_ kind: PlistDiagnostic.Kind, _ message: String, at offset: Int, related: Int? = nil) {
        pending.append(Pending(kind: kind, message: message, offset: offset, related: related))
    }

    /// Forgets everything recorded (for a reader that starts over).
    mutating func removeAll() {
        pending.removeAll()
    }

    /// The diagnostics with positions in `text`, in the order they were recorded.
    func resolved(in text: UnsafeRawBufferPointer) -> [PlistDiagnostic] {
        guard !pending.isEmpty else { return [] }
        let lines = LineTable(text)
        return pending.map { p in
            PlistDiagnostic(p.kind, p.message, at: lines.location(of: p.offset), related: p.related.map { lines.location(of: $0) })
        }
    }
}

/// Where each line of a text starts, counting CR, LF and CRLF as one line break
/// each: positions agree with `SourceLocation.text(in:offset:)`.
struct LineTable {
    private let text: UnsafeRawBufferPointer
    /// `starts[k]` is the offset where line `k + 1` starts.
    private var starts: [Int] = [0]

    init(_ text: UnsafeRawBufferPointer) {
        self.text = text
        let n = text.count
        var i = 0
        while i < n {
            let b = text[i]
            if b == 0x0A {
                starts.append(i + 1)
            } else if b == 0x0D {
                if i + 1 < n, text[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
    }

    /// The 1-based line and byte column of an offset.
    func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), text.count)
        // The last line start at or before the offset.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        // The LF of a CRLF is counted as the start of the next line.
        if offset < text.count, offset > 0, text[offset] == 0x0A, text[offset - 1] == 0x0D {
            return .text(line: low + 2, column: 1)
        }
        return .text(line: low + 1, column: offset - starts[low] + 1)
    }
}
