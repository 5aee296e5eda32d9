import ArchivistCore

/// What a view may still show (`DumpOptions.maxValues`), spent value by value
/// by the dumpers of one view, nested archives included.
struct ViewBudget {
    let limit: Int
    private(set) var left: Int

    init(_ limit: Int) {
        self.limit = limit
        left = limit
    }

    /// Spends `values`; throws once the view would show more than the limit.
    mutating func spend(_ values: Int = 1, object: Int?) throws {
        left -= values
        guard left >= 0 else {
            throw PlistError(.limitExceeded, "the view would show more than \(limit) values (an object or value shared by many places counts at each)",
                             at: .archive(object: object, keyPath: ""))
        }
    }

    /// The number of nodes of `value`, counting no further than `limit + 1`
    /// (so a huge tree costs no more than the limit).
    func nodes(of value: PlistValue) -> Int {
        switch value {
        case .array, .dictionary: break
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return 1
        }
        var count = 0
        var stack = [value]
        while let v = stack.popLast(), count <= limit {
            count += 1
            switch v {
            case .array(let items): stack.append(contentsOf: items)
            case .dictionary(let d): stack.append(contentsOf: d.values)
            case .string, .integer, .real, .bool, .date, .data, .uid, .null: break
            }
        }
        return count
    }
}
