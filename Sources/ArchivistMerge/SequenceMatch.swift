/// The longest common subsequence of two sequences of fingerprints, found
/// with Myers' O((N+M)·D) algorithm after the common start and end are set
/// aside: for each item of `a`, the position of its match in `b`, or nil.
/// Items equal in fingerprint must still be confirmed equal by the caller.
/// When more than `maxEdits` insertions and deletions separate the middles,
/// or the search would take more than a few steps per item, the middles are
/// left unmatched (a bounded answer, linear in the items: the merge then sees
/// one stretch changed as a whole).
enum SequenceMatch {
    static func match(_ a: [Int], _ b: [Int], maxEdits: Int, work: inout MergeWork) -> [Int?] {
        var result = [Int?](repeating: nil, count: a.count)
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] {
            result[start] = start
            start += 1
        }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] {
            endA -= 1
            endB -= 1
            result[endA] = endB
        }
        work.add(a.count + b.count)
        let n = endA - start, m = endB - start
        guard n > 0, m > 0 else { return result }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        var budget = 8 * (n + m) + 4 * limit * limit
        outer: for d in 0...limit {
            trace.append(v)
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                let snakeStart = x
                while x < n, y < m, a[start + x] == b[start + y] {
                    x += 1
                    y += 1
                }
                budget -= 1 + x - snakeStart
                work.add()
                v[offset + k] = x
                if budget < 0 { break outer }
                if x >= n, y >= m {
                    found = true
                    break outer
                }
                k += 2
            }
        }
        guard found else { return result }
        // Back through the trace: each snake's diagonal steps are matches.
        var x = n, y = m
        var d = trace.count - 1
        while d >= 0, x > 0 || y > 0 {
            let vd = trace[d]
            let k = x - y
            let previousK: Int
            if d == 0 {
                previousK = 0
            } else if k == -d || (k != d && vd[offset + k - 1] < vd[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : vd[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                result[start + x] = start + y
            }
            work.add()
            if d > 0 {
                x = previousX
                y = previousY
            }
            d -= 1
        }
        return result
    }
}
