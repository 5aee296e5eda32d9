/// Long key paths cut for messages: the guide (safety.md, Limits) promises that an error shows at
/// most 24 steps of a path, its start and its end (`root.a.a.….a.bad`), so a
/// path 500 levels deep does not fill the screen.
package enum KeyPathText {
    /// The most steps a path in a message shows.
    package static let shownSteps = 24

    /// `path` cut to its first `shownSteps / 3` and last steps with `…`
    /// between them when it has more than `shownSteps` steps; nil when it is
    /// short enough. Steps are dotted as `get` takes them (`\.` for a dot
    /// inside a step) or indexes in brackets as the writers name places
    /// (`items[2].name`). Linear in its length.
    package static func shortened(_ path: Substring) -> String? {
        // Where each step after the first starts, and where the one before ends.
        var starts: [(end: String.Index, start: String.Index)] = []
        var escaped = false
        for i in path.indices {
            let c = path[i]
            if escaped {
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "." {
                starts.append((i, path.index(after: i)))
            } else if c == "[", i != path.startIndex, path[path.index(before: i)] != "." {
                starts.append((i, i))
            }
        }
        guard starts.count + 1 > shownSteps else { return nil }
        let head = shownSteps / 3
        let tail = shownSteps - head
        let rest = path[starts[starts.count - tail].start...]
        return String(path[..<starts[head - 1].end]) + (rest.first == "[" ? ".…" : ".….") + String(rest)
    }

    /// `path` cut as `shortened` cuts it, or as it is.
    package static func shown(_ path: String) -> String {
        shortened(path[...]) ?? path
    }

    /// `message` with each space-separated word that is a path of more than
    /// `shownSteps` steps cut as `shortened` cuts it. Linear in its length.
    package static func shorteningPaths(in message: String) -> String {
        // Only a word with more than `shownSteps - 1` separators can need a cut.
        var separators = 0
        for b in message.utf8 where b == UInt8(ascii: ".") || b == UInt8(ascii: "[") { separators += 1 }
        guard separators >= shownSteps - 1 else { return message }
        return message.split(separator: " ", omittingEmptySubsequences: false)
            .map { shortened($0) ?? String($0) }
            .joined(separator: " ")
    }
}
