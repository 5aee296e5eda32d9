/// Finds the name a misspelled one was probably meant to be, for "did you
/// mean" hints.
package enum NearMiss {
    /// Names longer than this (from hostile input) are never compared.
    static let longestCompared = 256

    /// The candidate closest to `name`: one equal to it but for letter case
    /// first, else the one with the smallest edit distance (insertions,
    /// deletions, substitutions, swaps of neighbours) of at most a third of the
    /// name's length (at least 1, at most 3); nil when none is that close.
    package static func best(for name: String, among candidates: [String]) -> String? {
        let lower = name.lowercased()
        if let sameLetters = candidates.first(where: { $0 != name && $0.lowercased() == lower }) { return sameLetters }
        let target = Array(name)
        guard target.count <= longestCompared else { return nil }
        let allowed = min(3, max(1, target.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let other = Array(candidate)
            guard other.count <= longestCompared, abs(other.count - target.count) <= allowed else { continue }
            let d = distance(target, other)
            if d <= allowed, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// The edit distance of two short character arrays: insertions,
    /// deletions, substitutions and swaps of neighbours ("Titel" is one edit
    /// from "Title"), each counting 1 (optimal string alignment).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                var d = min(previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), previous[j] + 1, current[j - 1] + 1)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, beforePrevious[j - 2] + 1) }
                current[j] = d
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
