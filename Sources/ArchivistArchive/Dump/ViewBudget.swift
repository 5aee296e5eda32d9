import ArchivistCore

/// What a view may still show, spent by the dumpers of one view, nested
/// archives included: values (`DumpOptions.maxValues`), and bytes of strings
/// and data shown again where a value or object is shared
/// (`DumpOptions.maxSharedBytes`), as the binary reader bounds shared
/// references: a small archive whose one long string is referred to from
/// many places cannot make a view of gigabytes.
struct ViewBudget {
    let limit: Int
    private(set) var left: Int
    let byteLimit: Int
    private(set) var bytesLeft: Int

    /// The values and bytes of a value.
    struct Size {
        var nodes: Int
        var bytes: Int
    }

    /// The budget of a view of an input that holds `inputBytes` bytes: the
    /// repeated bytes are bounded by `options.maxSharedBytes` and by
    /// `Limits.repeatBudget(forInput:)` (16 times the input, at least 4
    /// MiB), so what a view repeats grows with its input, not its sharing.
    init(_ options: DumpOptions, inputBytes: Int? = nil) {
        limit = options.maxValues
        left = limit
        var limits = Limits.default
        limits.maxSharedExpansion = options.maxSharedBytes
        byteLimit = inputBytes.map { limits.repeatBudget(forInput: $0) } ?? options.maxSharedBytes
        bytesLeft = byteLimit
    }

    /// Spends `values`; throws once the view would show more than the limit.
    mutating func spend(_ values: Int = 1, object: Int?) throws {
        left -= values
        guard left >= 0 else {
            throw PlistError(.limitExceeded, "the view would show more than \(limit) values (an object or value shared by many places counts at each)",
                             at: .archive(object: object, keyPath: ""))
        }
    }

    /// Spends the bytes of strings and data shown again; throws once the view
    /// would repeat more than the limit.
    mutating func spendRepeated(bytes: Int, object: Int?) throws {
        bytesLeft -= min(bytes, bytesLeft + 1)
        guard bytesLeft >= 0 else {
            throw PlistError(.limitExceeded, "the view would repeat more than \(byteLimit) bytes of shared strings and data (a value shared by many places counts at each)",
                             at: .archive(object: object, keyPath: ""))
        }
    }

    /// The bytes of a string (UTF-8) or data value; 0 for other scalars.
    static func bytes(of value: PlistValue) -> Int {
        switch value {
        case .string(let s): return s.utf8.count
        case .data(let b): return b.count
        case .integer, .real, .bool, .date, .uid, .null, .array, .dictionary: return 0
        }
    }

    /// The bytes of all strings (UTF-8) and data inside a value.
    static func allBytes(of value: PlistValue) -> Int {
        var total = 0
        var stack = [value]
        while let v = stack.popLast() {
            switch v {
            case .array(let items): stack.append(contentsOf: items)
            case .dictionary(let d): stack.append(contentsOf: d.values)
            case .string, .integer, .real, .bool, .date, .data, .uid, .null: total += bytes(of: v)
            }
        }
        return total
    }

    /// The number of nodes of `value` and the bytes of its strings and data,
    /// counting no further than `limit + 1` nodes (so a huge tree costs no
    /// more than the limit).
    func size(of value: PlistValue) -> Size {
        switch value {
        case .array, .dictionary: break
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return Size(nodes: 1, bytes: Self.bytes(of: value))
        }
        var size = Size(nodes: 0, bytes: 0)
        var stack = [value]
        while let v = stack.popLast(), size.nodes <= limit {
            size.nodes += 1
            switch v {
            case .array(let items): stack.append(contentsOf: items)
            case .dictionary(let d): stack.append(contentsOf: d.values)
            case .string, .integer, .real, .bool, .date, .data, .uid, .null: size.bytes += Self.bytes(of: v)
            }
        }
        return size
    }
}
