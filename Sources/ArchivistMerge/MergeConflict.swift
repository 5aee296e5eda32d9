import ArchivistCore

/// One place where both sides changed the same thing differently (or where
/// the merge would break an Xcode project's references). The merged value
/// holds OURS' side there; `theirs` says what THEIRS' side puts in its place.
package struct MergeConflict: Sendable {
    /// Where, as steps from the top (dictionary keys, array indexes in the merged value).
    package var steps: [MergeStep]
    /// What THEIRS' side is at `steps`.
    package var theirs: MergeReplacement
    /// Why, in words: "both sides changed it", "OURS removed it, THEIRS changed it".
    package var reason: String

    /// The key path as `get` takes it (dotted, `\.` for a dot in a key), cut
    /// as messages cut long paths (`KeyPathText`).
    package var path: String { KeyPathText.shown(MergeStep.text(steps)) }
}

/// One step of a key path into a merged value.
package enum MergeStep: Sendable, Equatable {
    case key(String)
    case index(Int)

    /// Steps as `get` takes them: dotted, `\.` for a dot and `\\` for a backslash in a key.
    package static func text(_ steps: [MergeStep]) -> String {
        var out = ""
        for (i, step) in steps.enumerated() {
            if i > 0 { out += "." }
            switch step {
            case .index(let n): out += String(n)
            case .key(let k):
                for c in k {
                    if c == "." || c == "\\" { out.append("\\") }
                    out.append(c)
                }
            }
        }
        return out.isEmpty ? "(top level)" : out
    }
}

/// THEIRS' side of a conflict, applied to the merged value to show it.
package enum MergeReplacement: Sendable {
    /// The value at the path is THEIRS' value; nil: THEIRS has none (it removed
    /// it). A key that OURS removed comes back after `after` (nil: first).
    case value(PlistValue?, after: String?)
    /// In the array at the path, the items `range` (OURS' stretch) are THEIRS' `items`.
    case stretch(Range<Int>, [PlistValue])
}
