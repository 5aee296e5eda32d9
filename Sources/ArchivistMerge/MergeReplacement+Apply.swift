import ArchivistCore

extension MergeConflict {
    /// `value` with THEIRS' side of this conflict in place of OURS'.
    package func applyingTheirs(to value: PlistValue) -> PlistValue {
        Self.apply(theirs, at: steps[...], in: value) ?? value
    }

    /// `value` with `replacement` at `steps`; nil when a step is not there.
    static func apply(_ replacement: MergeReplacement, at steps: ArraySlice<MergeStep>, in value: PlistValue) -> PlistValue? {
        guard let step = steps.first else {
            switch replacement {
            case .stretch(let range, let items):
                guard case .array(var array) = value, range.lowerBound >= 0, range.upperBound <= array.count else { return nil }
                array.replaceSubrange(range, with: items)
                return .array(array)
            case .value:
                return nil
            }
        }
        let rest = steps.dropFirst()
        switch (step, value) {
        case (.key(let key), .dictionary(var d)):
            if rest.isEmpty, case .value(let new, let after) = replacement {
                return .dictionary(Self.setting(key, to: new, after: after, in: d))
            }
            guard let i = d.index(forKey: key), let inner = apply(replacement, at: rest, in: d.values[i]) else { return nil }
            d.setValue(inner, at: i)
            return .dictionary(d)
        case (.index(let i), .array(var array)):
            guard array.indices.contains(i) else { return nil }
            if rest.isEmpty, case .value(let new?, _) = replacement {
                array[i] = new
                return .array(array)
            }
            guard let inner = apply(replacement, at: rest, in: array[i]) else { return nil }
            array[i] = inner
            return .array(array)
        default:
            return nil
        }
    }

    /// `d` with `key` set to `value` (nil: removed); a key not in `d` goes right after `after` (nil: first).
    static func setting(_ key: String, to value: PlistValue?, after: String?, in d: PlistDictionary) -> PlistDictionary {
        if d.index(forKey: key) != nil {
            var d = d
            d[key] = value
            return d
        }
        guard let value else { return d }
        var out = PlistDictionary(minimumCapacity: d.count + 1)
        if after == nil { out.appendUnchecked(key: key, value: value) }
        for (k, v) in d {
            out.appendUnchecked(key: k, value: v)
            if let after, PlistKeys.same(k, after) { out.appendUnchecked(key: key, value: value) }
        }
        if let after, d.index(forKey: after) == nil { out.appendUnchecked(key: key, value: value) }
        return out
    }
}
