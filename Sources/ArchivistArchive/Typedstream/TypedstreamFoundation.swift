import ArchivistCore

/// Foundation's classes as NSArchiver writes them, put in the keyed form
/// NSKeyedArchiver gives them, so the views show them as values. Which
/// classes are written in which form is the catalogue's
/// (``ClassDescription/typedstream``); this turns each form into fields.
enum TypedstreamFoundation {
    /// An attributed string's attribute dictionaries, in the order written
    /// (each run is `iI`, its attribute number and length, and the dictionary
    /// follows the first run that uses it).
    static func attributeDictionaries(_ values: [TypedstreamValue]) -> [Int] {
        values.dropFirst().compactMap { v -> Int? in
            if case .object(let i) = v, i > 0 { return i }
            return nil
        }
    }

    /// `NSAttributeInfo` as NSKeyedArchiver writes it for several runs: each
    /// run's length and 0-based dictionary number as unsigned LEB128; nil for
    /// one run or runs of another shape.
    static func attributeInfo(_ rest: ArraySlice<TypedstreamValue>) -> [UInt8]? {
        var info: [UInt8] = []
        var runs = 0
        var pending: Int64?
        for v in rest {
            switch v {
            case .int(let number) where pending == nil: pending = number
            case .uint(let length):
                guard let number = pending, number >= 1 else { return nil }
                leb128(length, into: &info)
                leb128(UInt64(number - 1), into: &info)
                pending = nil
                runs += 1
            case .object: continue
            default: return nil
            }
        }
        return runs > 1 && pending == nil ? info : nil
    }

    private static func leb128(_ value: UInt64, into out: inout [UInt8]) {
        var v = value
        repeat {
            let low = UInt8(v & 0x7F)
            v >>= 7
            out.append(v == 0 ? low : low | 0x80)
        } while v != 0
    }

    /// NSString (`+`), NSNumber (`*` type, then the number) and NSData (`i`
    /// length, then `[Nc]`) as the plain values a keyed archive holds.
    static func plainValue(_ form: TypedstreamForm?, _ values: [TypedstreamValue]) -> PlistValue? {
        switch form {
        case .string?:
            guard values.count == 1, case .text(let b) = values[0] else { return nil }
            return .string(String(decoding: b, as: UTF8.self))
        case .number?:
            guard values.count == 2, case .text = values[0] else { return nil }
            switch values[1] {
            case .int, .uint, .real, .bool: return values[1].plist
            default: return nil
            }
        case .data?:
            guard values.count == 2, let n = count(values[0]), case .bytes(let b) = values[1], b.count == n else { return nil }
            return .data(b)
        default:
            return nil
        }
    }

    /// The keyed fields of collections (a count, then the members: keys and
    /// values alternating for dictionaries), NSURL (`NS.base`, `NS.relative`)
    /// and attributed strings (the string, then its attribute runs:
    /// `NSAttributes`, `NSAttributeInfo` for several runs, and the runs as
    /// written in fields `1`, `2`, ...).
    ///
    /// `attributes` is an attributed string's `NSAttributes`: its one
    /// dictionary, or an NSArray of its dictionaries (``attributeDictionaries(_:)``).
    static func keyedFields(_ form: TypedstreamForm, _ values: [TypedstreamValue], attributes: Int? = nil) -> [(String, PlistValue)]? {
        switch form {
        case .list, .map:
            guard let first = values.first, let n = count(first) else { return nil }
            let members = values.dropFirst().compactMap { v -> UInt64? in
                if case .object(let i) = v { return UInt64(i) }
                return nil
            }
            guard members.count == values.count - 1 else { return nil }
            if form == .list {
                guard members.count == n else { return nil }
                return [("NS.objects", .array(members.map { .uid($0) }))]
            }
            guard members.count % 2 == 0, members.count / 2 == n else { return nil }
            let keys = stride(from: 0, to: members.count, by: 2).map { PlistValue.uid(members[$0]) }
            let objects = stride(from: 1, to: members.count, by: 2).map { PlistValue.uid(members[$0]) }
            return [("NS.keys", .array(keys)), ("NS.objects", .array(objects))]
        case .url:
            // `c` 1 and the base URL, or `c` 0; then the string.
            guard let last = values.last, case .object(let relative) = last, values.count == 2 || values.count == 3 else { return nil }
            var base = 0
            if values.count == 3, case .object(let b) = values[1] { base = b }
            return [("NS.base", .uid(UInt64(base))), ("NS.relative", .uid(UInt64(relative)))]
        case .attributedString:
            guard case .object(let string)? = values.first, string > 0 else { return nil }
            var fields: [(String, PlistValue)] = [("NSString", .uid(UInt64(string)))]
            if let attributes { fields.append(("NSAttributes", .uid(UInt64(attributes)))) }
            let rest = values.dropFirst()
            if let info = attributeInfo(rest) { fields.append(("NSAttributeInfo", .data(info))) }
            // The runs as written (attribute numbers, lengths, dictionaries), numbered as other objects' values are.
            for (i, v) in rest.enumerated() { fields.append((String(i + 1), v.plist)) }
            return fields
        case .string, .number, .data:
            return nil
        }
    }

    /// A non-negative count.
    private static func count(_ v: TypedstreamValue) -> Int? {
        switch v {
        case .int(let i) where i >= 0: return Int(i)
        case .uint(let u) where u <= UInt64(Int.max): return Int(u)
        default: return nil
        }
    }
}
