/// Long key paths cut for messages: README promises that an error shows at
/// most 24 steps of a path, its start and its end (`root.a.a.….a.bad`), so a
/// path 500 levels deep does not fill the screen.
package enum KeyPathText {
    /// The most steps a path in a message shows.
    package static let shownSteps = 24

    /// `path` (dotted, `\.` for a dot inside a step) cut to its first
    /// `shownSteps / 3` and last steps with `…` between them when it has more
    /// than `shownSteps` steps; nil when it is short enough. Linear in its length.
    package static func shortened(_ path: Substring) -> String? {
        var dots: [String.Index] = []
        var escaped = false
        for i in path.indices {
            let c = path[i]
            if escaped {
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "." {
                dots.append(i)
            }
        }
        guard dots.count + 1 > shownSteps else { return nil }
        let head = shownSteps / 3
        let tail = shownSteps - head
        return String(path[..<dots[head - 1]]) + ".…." + String(path[path.index(after: dots[dots.count - tail])...])
    }

    /// `path` cut as `shortened` cuts it, or as it is.
    package static func shown(_ path: String) -> String {
        shortened(path[...]) ?? path
    }

    /// `message` with each space-separated word that is a path of more than
    /// `shownSteps` steps cut as `shortened` cuts it. Linear in its length.
    package static func shorteningPaths(in message: String) -> String {
        // Only a word with more than `shownSteps - 1` dots can need a cut.
        var dots = 0
        for b in message.utf8 where b == UInt8(ascii: ".") { dots += 1 }
        guard dots >= shownSteps - 1 else { return message }
        return message.split(separator: " ", omittingEmptySubsequences: false)
            .map { shortened($0) ?? String($0) }
            .joined(separator: " ")
    }
}
