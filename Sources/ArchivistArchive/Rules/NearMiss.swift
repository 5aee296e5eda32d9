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
        var finder = Finder(candidates)
        return finder.best(for: name)
    }

    /// Finds near misses of many names among the same candidates: candidates
    /// are indexed once by letters and by length, and all the comparisons
    /// share one budget, so a rules file naming thousands of absent classes
    /// checked against inputs of thousands of classes stays bounded (past the
    /// budget, names get no hint).
    package struct Finder {
        private let candidates: [String]
        /// Candidates' positions by their lowercased text.
        private var byLowercase: [String: [Int]] = [:]
        /// Positions of the candidates short enough to compare, by length in characters.
        private var byLength: [Int: [Int]] = [:]
        /// Edit-distance table cells still to spend.
        private(set) var cellsLeft: Int

        /// The most table cells one finder fills: about a second of work.
        static let defaultBudget = 50_000_000

        /// A finder among `candidates`, in their order of preference.
        package init(_ candidates: [String], budget: Int = Finder.defaultBudget) {
            self.candidates = candidates
            cellsLeft = budget
            for (position, candidate) in candidates.enumerated() {
                byLowercase[candidate.lowercased(), default: []].append(position)
                let length = candidate.count
                if length <= NearMiss.longestCompared { byLength[length, default: []].append(position) }
            }
        }

        /// Lowers what is left of the budget to `left` (what another finder
        /// sharing it left), never raising it.
        package mutating func spend(_ left: Int) {
            cellsLeft = min(cellsLeft, left)
        }

        /// `NearMiss.best(for:among:)` among this finder's candidates.
        package mutating func best(for name: String) -> String? {
            if let sameLetters = byLowercase[name.lowercased()]?.first(where: { candidates[$0] != name }) { return candidates[sameLetters] }
            let target = Array(name)
            guard target.count <= NearMiss.longestCompared else { return nil }
            let allowed = min(3, max(1, target.count / 3))
            var positions: [Int] = []
            for length in max(0, target.count - allowed)...(target.count + allowed) { positions += byLength[length] ?? [] }
            positions.sort()
            var best: (name: String, distance: Int)?
            for position in positions where candidates[position] != name {
                let other = Array(candidates[position])
                let cost = max(1, target.count * other.count)
                guard cost <= cellsLeft else { break }
                cellsLeft -= cost
                let d = NearMiss.distance(target, other)
                if d <= allowed, d < (best?.distance ?? Int.max) { best = (candidates[position], d) }
            }
            return best?.name
        }
    }

    /// The edit distance of two short character arrays: insertions,
    /// deletions, substitutions and swaps of neighbours ("Titel" is one edit
    /// from "Title"), each counting 1 (optimal string alignment).
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
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
