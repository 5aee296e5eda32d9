import ArchivistCore

/// A text merge result with git's conflict markers: the merged value
/// written as it is (OURS' side at each conflict), and around the lines of
/// each conflict, one block
///
///     <<<<<<< ours: KEYPATH
///     (OURS' lines)
///     =======
///     (THEIRS' lines)
///     >>>>>>> theirs: KEYPATH
///
/// The lines of a conflict are where the text with THEIRS' side of that
/// conflict alone differs from the merged text (the common start and end
/// set aside), so every other line is the merged text's own. Conflicts
/// whose lines meet share one block. Each conflict costs one writing of the
/// value: beyond `maxBlocks` conflicts, or `maxWrittenBytes` written, the
/// lines from the first difference to the last are one block.
package enum ConflictMarkers {
    /// The most conflicts given a block each.
    package static let maxBlocks = 200
    /// The most bytes written to find the conflicts' lines (a 10 MB project gets 25 blocks).
    package static let maxWrittenBytes = 256 << 20

    /// The text; `write` writes a value as the result's format does.
    package static func render(_ merged: PlistValue, conflicts: [MergeConflict], write: (PlistValue) throws -> [UInt8]) throws -> [UInt8] {
        let ours = try write(merged)
        let lines = Lines(ours)
        var blocks: [Block] = []
        if conflicts.count <= min(maxBlocks, maxWrittenBytes / max(ours.count, 1)) {
            for (i, c) in conflicts.enumerated() {
                let theirs = try write(c.applyingTheirs(to: merged))
                if let block = Block(lines, Lines(theirs), conflicts: [i]) { blocks.append(block) }
            }
            blocks.sort { ($0.start, $0.end) < ($1.start, $1.end) }
            // Blocks that meet are one, THEIRS' side written with all of their conflicts.
            var joined: [Block] = []
            for block in blocks {
                if let last = joined.last, block.start < last.end {
                    let ids = last.conflicts + block.conflicts
                    var value = merged
                    for id in ids { value = conflicts[id].applyingTheirs(to: value) }
                    if let both = Block(lines, Lines(try write(value)), conflicts: ids) { joined[joined.count - 1] = both }
                } else {
                    joined.append(block)
                }
            }
            blocks = joined
        } else {
            var value = merged
            for c in conflicts { value = c.applyingTheirs(to: value) }
            if let block = Block(lines, Lines(try write(value)), conflicts: Array(conflicts.indices)) { blocks = [block] }
        }
        var out: [UInt8] = []
        out.reserveCapacity(ours.count + blocks.count * 64)
        var line = 0
        for block in blocks {
            out.append(contentsOf: lines.bytes(line..<block.start))
            // A key with a line break or other control character cannot break the marker line.
            let label = TerminalText.escaped(blocks.count == 1 && block.conflicts.count == conflicts.count && conflicts.count > 1
                ? "\(conflicts.count) conflicts"
                : block.conflicts.map { conflicts[$0].path }.joined(separator: ", "))
            out.append(contentsOf: Array("<<<<<<< ours: \(label)\n".utf8))
            out.append(contentsOf: terminated(lines.bytes(block.start..<block.end)))
            out.append(contentsOf: Array("=======\n".utf8))
            out.append(contentsOf: terminated(block.theirs))
            out.append(contentsOf: Array(">>>>>>> theirs: \(label)\n".utf8))
            line = block.end
        }
        out.append(contentsOf: lines.bytes(line..<lines.count))
        return out
    }

    private static func terminated(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let last = bytes.last, last != 0x0A else { return bytes }
        return bytes + [0x0A]
    }

    /// A text as lines (each with its line feed).
    struct Lines {
        let text: [UInt8]
        /// Where each line starts, and the end of the text last.
        let starts: [Int]

        init(_ text: [UInt8]) {
            self.text = text
            var starts = [0]
            for (i, b) in text.enumerated() where b == 0x0A && i + 1 < text.count { starts.append(i + 1) }
            if text.isEmpty { starts = [] }
            starts.append(text.count)
            self.starts = starts
        }

        var count: Int { starts.count - 1 }

        func line(_ i: Int) -> ArraySlice<UInt8> { text[starts[i]..<starts[i + 1]] }

        func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
            guard !range.isEmpty else { return [] }
            return text[starts[range.lowerBound]..<starts[range.upperBound]]
        }
    }

    /// The lines `start..<end` of OURS' text are `theirs` on THEIRS' side.
    struct Block {
        var start: Int
        var end: Int
        var theirs: ArraySlice<UInt8>
        var conflicts: [Int]

        /// Where `theirs` differs from `ours`; nil when it does not.
        init?(_ ours: Lines, _ theirs: Lines, conflicts: [Int]) {
            var head = 0
            while head < ours.count, head < theirs.count, ours.line(head) == theirs.line(head) { head += 1 }
            if head == ours.count, head == theirs.count { return nil }
            var tail = 0
            while tail < ours.count - head, tail < theirs.count - head,
                  ours.line(ours.count - 1 - tail) == theirs.line(theirs.count - 1 - tail) { tail += 1 }
            start = head
            end = ours.count - tail
            self.theirs = theirs.bytes(head..<(theirs.count - tail))
            self.conflicts = conflicts
        }
    }
}
