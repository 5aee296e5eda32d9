import ArchivistCore

/// The breadth-first spanning tree of an archive: for each object, the object
/// and field through which it is first reached from `$top`. Paths are built on
/// demand, so a long chain of objects costs one entry per object rather than
/// one ever-longer string per object.
public struct ArchivePaths: Sendable {
    /// How an object is first reached.
    enum Link: Sendable {
        case unreached
        case top(String)
        case field(parent: Int, field: String)
        /// `key[index]`, kept apart until a path is shown.
        case element(parent: Int, key: String, index: Int)
    }

    private(set) var links: [Link]

    /// The most steps a path shows; longer ones keep their start and end.
    public static let shownSteps = 24

    init(count: Int) {
        links = Array(repeating: .unreached, count: count)
    }

    func isReached(_ object: Int) -> Bool {
        guard links.indices.contains(object), case .unreached = links[object] else { return true }
        return false
    }

    mutating func set(_ object: Int, _ link: Link) {
        links[object] = link
    }

    /// The key path by which `object` is first reached from `$top`
    /// (`root.cpu_coder.cores[1]`), or nil when it is unreachable. A path of
    /// more than ``shownSteps`` steps keeps its first and last steps with `…`
    /// between them.
    public func path(to object: Int) -> String? {
        // Walk up to $top; breadth-first parents are strictly nearer $top, so
        // the walk ends, and it is bounded by the object count besides.
        var fields: [String] = []
        var current = object
        for _ in 0...links.count {
            guard links.indices.contains(current) else { return nil }
            switch links[current] {
            case .unreached:
                return nil
            case .top(let key):
                fields.append(key)
                return Self.render(Array(fields.reversed()))
            case .field(let parent, let field):
                fields.append(field)
                current = parent
            case .element(let parent, let key, let index):
                fields.append("\(key)[\(index)]")
                current = parent
            }
        }
        return nil
    }

    private static func render(_ steps: [String]) -> String {
        let shown: [String]
        if steps.count > shownSteps {
            let head = shownSteps / 3
            shown = steps[..<head] + ["…"] + steps[(steps.count - (shownSteps - head))...]
        } else {
            shown = steps
        }
        var out = ""
        for step in shown {
            if out.isEmpty { out = step } else if step.hasPrefix("[") { out += step } else { out += "." + step }
        }
        return out
    }
}
