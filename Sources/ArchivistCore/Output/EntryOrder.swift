/// Which entries of a dictionary every writer writes, and in which order:
/// each key once (a repeated key at its first position with its first value,
/// as CoreFoundation reads a binary plist, the only source that can repeat keys), in stored order or sorted by UTF-16 code units as
/// CoreFoundation sorts keys.
///
/// Arrays of records repeat the same keys, so the order of the last
/// dictionary is kept and reused when the next one has the same key nodes.
struct EntryOrder {
    /// Whether keys are sorted (otherwise kept in stored order).
    let sorted: Bool
    /// Key nodes of the last dictionary resolved, and what it resolved to.
    private var lastKeys: [Int] = []
    private var lastEntries: [Int] = []
    private var hasLast = false
    /// Reused buffers.
    private var texts: [TextBytes] = []
    private var order: [Int] = []

    init(sorted: Bool) {
        self.sorted = sorted
    }

    /// Appends the entries of dictionary `node` (of `count` stored entries)
    /// to `entries` as pairs (entry of the key, entry of the value) and
    /// returns how many pairs; returns nil, appending nothing, when the
    /// stored entries are written as they stand.
    mutating func resolve<S: PlistNodes>(_ node: Int, count: Int, of source: inout S, into entries: inout [Int]) throws -> Int? {
        guard sorted || !S.keysAreUnique else { return nil }
        guard count > 1 else { return nil }
        if hasLast, lastKeys.count == count {
            var same = true
            for i in 0..<count where try source.key(i, of: node) != lastKeys[i] {
                same = false
                break
            }
            if same {
                entries.append(contentsOf: lastEntries)
                return lastEntries.count / 2
            }
        }
        lastKeys.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let key = try source.key(i, of: node)
            lastKeys.append(key)
            guard case .string(let text) = try source.item(key) else {
                throw PlistError(.invalidValue, "a dictionary key is not a string")
            }
            texts.append(text)
        }
        sortByKey(count: count)
        lastEntries.removeAll(keepingCapacity: true)
        if S.keysAreUnique {
            for i in order {
                lastEntries.append(i)
                lastEntries.append(i)
            }
        } else {
            appendWithoutRepeats()
        }
        hasLast = true
        entries.append(contentsOf: lastEntries)
        return lastEntries.count / 2
    }

    /// Sets `order` to the entries sorted by key, equal keys in stored order.
    private mutating func sortByKey(count: Int) {
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: 0..<count)
        let texts = self.texts
        var inOrder = true
        for i in 1..<count where !TextBytes.precedesInUTF16(texts[i - 1], texts[i]) {
            inOrder = false
            break
        }
        if inOrder { return }
        // Stable: equal keys (a source with repeats) keep their stored order.
        let precedes = { (a: Int, b: Int) -> Bool in
            TextBytes.precedesInUTF16(texts[a], texts[b]) || (a < b && !TextBytes.precedesInUTF16(texts[b], texts[a]))
        }
        if count <= 16 {
            for i in 1..<count {
                let current = order[i]
                var j = i
                while j > 0, precedes(current, order[j - 1]) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = current
            }
        } else {
            order.sort(by: precedes)
        }
    }

    /// Fills `lastEntries` from the sorted `order`: each run of equal keys
    /// once, with its first entry's key and value, sorted or
    /// (unless sorting) at the first entry's stored position.
    private mutating func appendWithoutRepeats() {
        var k = 0
        var repeats = false
        while k < order.count {
            var last = k
            while last + 1 < order.count, TextBytes.sameText(texts[order[k]], texts[order[last + 1]]) { last += 1 }
            lastEntries.append(order[k])
            lastEntries.append(order[k])
            if last > k { repeats = true }
            k = last + 1
        }
        guard !sorted else { return }
        guard repeats else {
            lastEntries.removeAll(keepingCapacity: true)
            for i in 0..<order.count {
                lastEntries.append(i)
                lastEntries.append(i)
            }
            return
        }
        // Stored order: by the position of each key's first entry.
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(lastEntries.count / 2)
        for p in stride(from: 0, to: lastEntries.count, by: 2) { pairs.append((lastEntries[p], lastEntries[p + 1])) }
        pairs.sort { $0.0 < $1.0 }
        lastEntries.removeAll(keepingCapacity: true)
        for (key, value) in pairs {
            lastEntries.append(key)
            lastEntries.append(value)
        }
    }
}
