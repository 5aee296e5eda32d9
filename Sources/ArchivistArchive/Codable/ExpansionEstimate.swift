import ArchivistCore

/// How many values an export will count, worked out on the object graph
/// before anything is expanded: each object's count is computed once, bottom
/// up (an object counts itself, its inline values and the counts of the
/// objects its fields refer to), so a small archive of shared objects that
/// describes billions of values is refused at the cost of its own size.
///
/// The estimate never exceeds what the export counts: it follows only the
/// references the export certainly writes (fields not removed by a rule,
/// elements of Foundation collections, values of dictionaries), and a
/// reference back to an object being counted (a cycle), a reference past the
/// objects or an object of a class the rules must map but do not adds
/// nothing beyond itself. So an archive the export would refuse for such a
/// reason is refused for its size first when it is too big, and a cycle
/// cannot hide a large expansion.
extension CodableExporter {
    /// One object being counted: its own count so far and its references
    /// still to add (a range of the shared reference stack).
    private struct Frame {
        let node: Int
        let start: Int
        var next: Int
        var total: Int
    }

    /// Throws the export's own limit error, at `path` (none when empty), when
    /// the objects at `roots` expand to more values than the budget left.
    mutating func refuseExpansion(of roots: [Int], path: String) throws {
        guard expandedCount(of: roots, cap: budget) > budget else { return }
        throw PlistError(.limitExceeded, "the JSON would hold more than \(options.maxValues) values (shared objects are written at every reference)",
                         at: path.isEmpty ? .unknown : .archive(object: nil, keyPath: path))
    }

    /// The values the objects at `roots` expand to, saturating just past `cap`.
    func expandedCount(of roots: [Int], cap: Int) -> Int {
        let ceiling = cap == Int.max ? cap : cap + 1
        func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow || sum > ceiling ? ceiling : sum
        }
        // -1: not counted yet; -2: being counted (on the stack).
        var counts = [Int](repeating: -1, count: graph.nodes.count)
        var references: [Int] = []
        var frames: [Frame] = []
        var total = 0
        for root in roots where graph.nodes.indices.contains(root) {
            guard counts[root] == -1 else {
                total = add(total, max(0, counts[root]))
                continue
            }
            let own = enter(root, references: &references, ceiling: ceiling)
            counts[root] = -2
            frames.append(Frame(node: root, start: references.count - own.references, next: references.count - own.references, total: own.count))
            while var frame = frames.popLast() {
                if frame.next == references.count || frame.total >= ceiling {
                    // Every reference added: the object's count is known.
                    references.removeSubrange(frame.start...)
                    counts[frame.node] = frame.total
                    if var parent = frames.popLast() {
                        parent.total = add(parent.total, frame.total)
                        frames.append(parent)
                    } else {
                        total = add(total, frame.total)
                    }
                    continue
                }
                let child = references[frame.next]
                frame.next += 1
                guard graph.nodes.indices.contains(child) else {
                    frames.append(frame)
                    continue
                }
                switch counts[child] {
                case -2:
                    // A cycle: the export omits the reference or fails on it.
                    frames.append(frame)
                case -1:
                    frames.append(frame)
                    let start = references.count
                    let own = enter(child, references: &references, ceiling: ceiling)
                    counts[child] = -2
                    frames.append(Frame(node: child, start: start, next: start, total: own.count))
                default:
                    frame.total = add(frame.total, counts[child])
                    frames.append(frame)
                }
            }
            if total >= ceiling { return total }
        }
        return total
    }

    /// What one node counts by itself, after pushing the references whose
    /// counts add to it.
    private func enter(_ index: Int, references: inout [Int], ceiling: Int) -> (count: Int, references: Int) {
        let before = references.count
        switch graph.nodes[index] {
        case .null, .classDescription:
            return (0, 0)
        case .value(let v):
            return (Self.plainCount(v, ceiling: ceiling), 0)
        case .object(let o):
            let rule = rules.rule(for: o.className)
            // The export stops at a class the rules must map and do not, and
            // counts an unwrapped wrapper's field only: both count as themselves.
            if options.requireClassRules, rule == nil, !SecurePolicy.isFrameworkClass(o.className) { return (1, 0) }
            if rules.codableRule(for: o.className)?.unwrap != nil { return (1, 0) }
            if let foundation = FoundationValue.standIn(o, in: graph) {
                switch foundation {
                case .list(let refs):
                    references += refs
                case .counted(let entries):
                    references += entries.map(\.object)
                case .map(let keys, let values):
                    for (k, v) in zip(keys, values) {
                        references.append(k)
                        if case .null? = graph.nodes[safe: k] { continue }
                        references.append(v)
                    }
                case .line(let line):
                    references += line.references
                case .string, .data, .date, .described, .url, .null, .attributedString:
                    break
                }
                return (1, references.count - before)
            }
            var count = 1
            for field in o.fields {
                if rule?.key(archivedAs: field.key)?.remove == true { continue }
                switch field.value {
                case .inline(let v):
                    let (sum, overflow) = count.addingReportingOverflow(Self.plainCount(v, ceiling: ceiling))
                    count = overflow ? ceiling : min(sum, ceiling)
                case .reference(let r):
                    references.append(r)
                case .references(let rs):
                    references += rs
                }
            }
            return (count, references.count - before)
        }
    }

    /// The values `plain` counts for a value: one for it and one for each
    /// value inside it (data holding an archive counts as one), saturating at `ceiling`.
    static func plainCount(_ value: PlistValue, ceiling: Int, depth: Int = 0) -> Int {
        var count = 1
        guard depth < 512 else { return count }
        switch value {
        case .array(let items):
            for item in items where count < ceiling { count += min(ceiling - count, plainCount(item, ceiling: ceiling, depth: depth + 1)) }
        case .dictionary(let d):
            for (_, item) in d where count < ceiling { count += min(ceiling - count, plainCount(item, ceiling: ceiling, depth: depth + 1)) }
        case .string, .integer, .real, .bool, .date, .data, .uid, .null:
            break
        }
        return count
    }
}
