import ArchivistCore

/// A three-way merge of property lists by structure: BASE, the common
/// ancestor, and OURS and THEIRS, two descendants.
///
/// Dictionaries merge by key: what only one side changed takes that side,
/// what both changed alike is taken once, and what both changed differently
/// is a conflict at its key path. Keys that THEIRS added go after the key
/// they follow in THEIRS. In an Xcode project (a dictionary with `objects`
/// and `rootObject`), an array whose items are all keys of `objects` (a
/// phase's `files`, a group's `children`, `targets`, `buildPhases`, ...)
/// keeps both sides' additions and removals, in order, and never conflicts.
/// Other arrays merge as sequences: edits that do not overlap are combined,
/// one stretch both sides changed differently is a conflict (items changed
/// one for one are merged item by item).
///
/// The merged value holds OURS' side at each conflict; each conflict says
/// what THEIRS' side is. Work is linear in the size of the three values
/// times their depth (`work`).
package struct PlistMerge {
    /// The merge, OURS' side at each conflict.
    package private(set) var merged: PlistValue?
    /// The conflicts, in the order of the merged value.
    package private(set) var conflicts: [MergeConflict] = []
    /// The steps done.
    package private(set) var work = MergeWork()

    /// The most edits between two arrays matched item by item; beyond, the changed middle is one stretch.
    package static let maxArrayEdits = 500

    /// The object IDs of an Xcode project (the keys of `objects` on any side); empty for other property lists.
    private var objectIDs: Set<String> = []
    private var path: [MergeStep] = []

    /// Merges `ours` and `theirs`, descendants of `base`.
    package init(base: PlistValue, ours: PlistValue, theirs: PlistValue) {
        for side in [base, ours, theirs] {
            if let objects = XcodeProject.objects(of: side) {
                objectIDs.formUnion(objects.keys)
                work.add(objects.count)
            }
        }
        merged = merge(base, ours, theirs)
        if !objectIDs.isEmpty { checkReferences(base: base, ours: ours, theirs: theirs) }
    }

    // MARK: Values

    private mutating func merge(_ b: PlistValue?, _ o: PlistValue?, _ t: PlistValue?) -> PlistValue? {
        work.add()
        switch (o, t) {
        case (nil, nil):
            return nil
        case (let o?, nil):
            guard let b else { return o }
            if same(o, b) { return nil }
            conflict(.value(nil, after: nil), "OURS changed it, THEIRS removed it")
            return o
        case (nil, let t?):
            guard let b else { return t }
            if same(t, b) { return nil }
            conflict(.value(t, after: nil), "OURS removed it, THEIRS changed it")
            return nil
        case (let o?, let t?):
            if let b {
                if same(o, b) { return t }
                if same(t, b) { return o }
            }
            if same(o, t) { return o }
            switch (b, o, t) {
            case (.dictionary(let bd)?, .dictionary(let od), .dictionary(let td)):
                return .dictionary(mergeDictionaries(bd, od, td))
            case (nil, .dictionary(let od), .dictionary(let td)):
                return .dictionary(mergeDictionaries(PlistDictionary(), od, td))
            case (.array(let ba)?, .array(let oa), .array(let ta)):
                return .array(mergeArrays(ba, oa, ta))
            case (nil, .array(let oa), .array(let ta)):
                return .array(mergeArrays([], oa, ta))
            default:
                conflict(.value(t, after: nil), b == nil ? "both sides added it, differently" : "both sides changed it, differently")
                return o
            }
        }
    }

    private mutating func conflict(_ theirs: MergeReplacement, _ reason: String) {
        conflicts.append(MergeConflict(steps: path, theirs: theirs, reason: reason))
    }

    // MARK: Xcode projects

    /// A merge that breaks a project's references is a conflict: an object
    /// one side removed that the other still uses (OURS keeps it where OURS
    /// has it), and a build file the merge put in two phases, or in none.
    private mutating func checkReferences(base: PlistValue, ours: PlistValue, theirs: PlistValue) {
        guard var result = merged else { return }
        let oursObjects = XcodeProject.objects(of: ours), theirsObjects = XcodeProject.objects(of: theirs)
        let baseObjects = XcodeProject.objects(of: base)
        for missing in XcodeProject.missingObjects(in: result, knownIDs: objectIDs, work: &work) {
            let steps: [MergeStep] = [.key("objects"), .key(missing.id)]
            if let kept = oursObjects?[missing.id] {
                result = MergeConflict.apply(.value(kept, after: nil), at: steps[...], in: result) ?? result
                conflicts.append(MergeConflict(steps: steps, theirs: .value(nil, after: nil),
                                               reason: "THEIRS removed this object, which \(missing.place) uses"))
            } else if let other = theirsObjects?[missing.id] ?? baseObjects?[missing.id] {
                conflicts.append(MergeConflict(steps: steps, theirs: .value(other, after: nil),
                                               reason: "OURS removed this object, which \(missing.place) uses"))
            }
        }
        guard let objects = XcodeProject.objects(of: result) else { return }
        let inResult = XcodeProject.phases(ofBuildFilesIn: result, work: &work)
        let inOurs = XcodeProject.phases(ofBuildFilesIn: ours, work: &work)
        let inTheirs = XcodeProject.phases(ofBuildFilesIn: theirs, work: &work)
        for (id, object) in objects {
            guard object["isa"]?.stringValue == "PBXBuildFile", let phases = inResult[id], phases.count != 1,
                  (inOurs[id]?.count ?? 1) == 1, (inTheirs[id]?.count ?? 1) == 1 else { continue }
            if phases.isEmpty {
                conflicts.append(MergeConflict(steps: [.key("objects"), .key(id)], theirs: .value(nil, after: nil),
                                               reason: "this build file belongs to no build phase after the merge"))
            } else {
                // OURS' side: the build file only where OURS has it; THEIRS' side: also where THEIRS put it.
                let oursPhases = inOurs[id] ?? []
                for phase in phases.sorted() where !oursPhases.contains(phase) {
                    guard case .array(let files)? = objects[phase]?["files"] else { continue }
                    let steps: [MergeStep] = [.key("objects"), .key(phase), .key("files")]
                    let without = PlistValue.array(files.filter { $0.stringValue != id })
                    result = MergeConflict.apply(.value(without, after: nil), at: steps[...], in: result) ?? result
                    conflicts.append(MergeConflict(steps: steps, theirs: .value(.array(files), after: nil),
                                                   reason: "build file \(id) is in \(phases.count) build phases after the merge (\(phases.sorted().joined(separator: ", ")))"))
                }
            }
        }
        merged = result
    }

    // MARK: Dictionaries

    private mutating func mergeDictionaries(_ b: PlistDictionary, _ o: PlistDictionary, _ t: PlistDictionary) -> PlistDictionary {
        let baseIndex = KeyIndex(b), theirsIndex = KeyIndex(t), oursIndex = KeyIndex(o)
        work.add(b.count + o.count + t.count)
        // THEIRS' new keys, by the key of the result they follow (nil: first).
        var front: [String] = []
        var following: [PlistKey: [String]] = [:]
        var anchor: String?
        var theirsOnly: [PlistKey: Bool] = [:]
        for (i, key) in t.keys.enumerated() {
            if oursIndex.position(of: key, in: o) != nil {
                anchor = key
                continue
            }
            _ = i
            theirsOnly[PlistKey(key)] = true
            if let anchor { following[PlistKey(anchor), default: []].append(key) } else { front.append(key) }
        }
        var out = PlistDictionary(minimumCapacity: o.count + theirsOnly.count)
        var lastKept: String?
        func place(_ key: String, into out: inout PlistDictionary, _ merge: inout PlistMerge) {
            let bv = baseIndex.position(of: key, in: b).map { b.values[$0] }
            let tv = theirsIndex.position(of: key, in: t).map { t.values[$0] }
            merge.path.append(.key(key))
            let before = merge.conflicts.count
            let value = merge.merge(bv, nil, tv)
            // A key OURS removed and THEIRS changed comes back after the key it follows.
            for c in before..<merge.conflicts.count where merge.conflicts[c].steps.count == merge.path.count {
                if case .value(let v, _) = merge.conflicts[c].theirs { merge.conflicts[c].theirs = .value(v, after: lastKept) }
            }
            merge.path.removeLast()
            if let value {
                out.appendUnchecked(key: key, value: value)
                lastKept = key
            }
        }
        for key in front { place(key, into: &out, &self) }
        for (key, ov) in o {
            let bv = baseIndex.position(of: key, in: b).map { b.values[$0] }
            let tv = theirsIndex.position(of: key, in: t).map { t.values[$0] }
            path.append(.key(key))
            if let value = merge(bv, ov, tv) {
                out.appendUnchecked(key: key, value: value)
                lastKept = key
            }
            path.removeLast()
            if let added = following[PlistKey(key)] {
                for key in added { place(key, into: &out, &self) }
            }
        }
        return out
    }

    // MARK: Arrays

    private mutating func mergeArrays(_ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue]) -> [PlistValue] {
        if !objectIDs.isEmpty, isIDArray(b), isIDArray(o), isIDArray(t), !(b.isEmpty && o.isEmpty && t.isEmpty) {
            return mergeIDs(b, o, t)
        }
        return mergeSequences(b, o, t)
    }

    private mutating func isIDArray(_ items: [PlistValue]) -> Bool {
        work.add(items.count)
        return items.allSatisfy { if case .string(let s) = $0 { return objectIDs.contains(s) } else { return false } }
    }

    /// Both sides' additions and removals of object IDs, in order: OURS'
    /// order, without what THEIRS removed, with what THEIRS added after the
    /// item it follows in THEIRS.
    private mutating func mergeIDs(_ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue]) -> [PlistValue] {
        let base = Set(b.compactMap(\.stringValue)), theirs = Set(t.compactMap(\.stringValue))
        work.add(b.count + o.count + t.count)
        var kept: [String] = []
        var present: Set<String> = []
        for case .string(let id) in o where !(base.contains(id) && !theirs.contains(id)) && !present.contains(id) {
            kept.append(id)
            present.insert(id)
        }
        var front: [String] = []
        var following: [String: [String]] = [:]
        var anchor: String?
        for case .string(let id) in t {
            if present.contains(id) {
                anchor = id
            } else if !base.contains(id) {
                if let anchor { following[anchor, default: []].append(id) } else { front.append(id) }
            }
        }
        var out: [PlistValue] = []
        out.reserveCapacity(kept.count + front.count + following.count)
        var placed: Set<String> = []
        func add(_ id: String) {
            if placed.insert(id).inserted { out.append(.string(id)) }
        }
        front.forEach(add)
        for id in kept {
            add(id)
            following[id]?.forEach(add)
        }
        return out
    }

    /// diff3 over items: stretches between items all three keep are taken
    /// from the side that changed them; both changed alike is taken once;
    /// both changed differently is a conflict (merged item by item when the
    /// three stretches are as long).
    private mutating func mergeSequences(_ b: [PlistValue], _ o: [PlistValue], _ t: [PlistValue]) -> [PlistValue] {
        let bf = b.map { fingerprint($0) }, of = o.map { fingerprint($0) }, tf = t.map { fingerprint($0) }
        let toOurs = confirmed(SequenceMatch.match(bf, of, maxEdits: Self.maxArrayEdits, work: &work), b, o)
        let toTheirs = confirmed(SequenceMatch.match(bf, tf, maxEdits: Self.maxArrayEdits, work: &work), b, t)
        var out: [PlistValue] = []
        out.reserveCapacity(max(o.count, t.count))
        var ib = 0, io = 0, it = 0
        while ib < b.count || io < o.count || it < t.count {
            work.add()
            var k = ib
            while k < b.count, toOurs[k] == nil || toTheirs[k] == nil { k += 1 }
            let eo = k < b.count ? toOurs[k] ?? o.count : o.count
            let et = k < b.count ? toTheirs[k] ?? t.count : t.count
            if k == ib, eo == io, et == it {
                if k < b.count { out.append(o[io]) }
                ib += 1; io += 1; it += 1
                continue
            }
            let bs = b[ib..<k], os = o[io..<eo], ts = t[it..<et]
            if sameItems(os, bs) {
                out.append(contentsOf: ts)
            } else if sameItems(ts, bs) || sameItems(os, ts) {
                out.append(contentsOf: os)
            } else if bs.count == os.count, os.count == ts.count {
                for j in 0..<bs.count {
                    path.append(.index(out.count))
                    if let v = merge(bs[bs.startIndex + j], os[os.startIndex + j], ts[ts.startIndex + j]) { out.append(v) }
                    path.removeLast()
                }
            } else {
                conflicts.append(MergeConflict(steps: path, theirs: .stretch(out.count..<(out.count + os.count), Array(ts)),
                                               reason: "both sides changed items \(ib)..<\(k) differently"))
                out.append(contentsOf: os)
            }
            ib = k; io = eo; it = et
        }
        return out
    }

    /// Matches whose items are equal, not only alike in fingerprint.
    private mutating func confirmed(_ matches: [Int?], _ a: [PlistValue], _ b: [PlistValue]) -> [Int?] {
        var out = matches
        for (i, j) in matches.enumerated() {
            if let j, !same(a[i], b[j]) { out[i] = nil }
        }
        return out
    }

    private mutating func sameItems(_ a: ArraySlice<PlistValue>, _ b: ArraySlice<PlistValue>) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where !same(x, y) { return false }
        return true
    }

    // MARK: Comparing

    /// Equal values (dictionaries in any key order), counting the work.
    private mutating func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
        work.add()
        switch (a, b) {
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for i in x.indices where !same(x[i], y[i]) { return false }
            return true
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            if x.keys.elementsEqual(y.keys, by: PlistKeys.same) {
                work.add(x.count)
                for i in x.values.indices where !same(x.values[i], y.values[i]) { return false }
                return true
            }
            let index = KeyIndex(y)
            work.add(x.count + y.count)
            for (k, v) in x {
                guard let j = index.position(of: k, in: y), same(v, y.values[j]) else { return false }
            }
            return true
        default:
            return a == b
        }
    }

    /// A hash of a value that equal values share.
    private mutating func fingerprint(_ v: PlistValue) -> Int {
        var hasher = Hasher()
        feed(v, &hasher)
        return hasher.finalize()
    }

    private mutating func feed(_ v: PlistValue, _ hasher: inout Hasher) {
        work.add()
        switch v {
        case .string(let s): hasher.combine(0); hasher.combine(PlistKey(s))
        case .integer(let i): hasher.combine(1); hasher.combine(i)
        case .real(let r): hasher.combine(2); hasher.combine(r.value)
        case .bool(let x): hasher.combine(3); hasher.combine(x)
        case .date(let d): hasher.combine(4); hasher.combine(d)
        case .data(let d): hasher.combine(5); hasher.combine(d)
        case .array(let items):
            hasher.combine(6); hasher.combine(items.count)
            for item in items { feed(item, &hasher) }
        case .dictionary(let d):
            // Key order does not count: an order-free sum of the entries.
            hasher.combine(7); hasher.combine(d.count)
            var sum = 0
            for (k, item) in d {
                var entry = Hasher()
                entry.combine(PlistKey(k))
                feed(item, &entry)
                sum &+= entry.finalize()
            }
            hasher.combine(sum)
        case .uid(let u): hasher.combine(8); hasher.combine(u)
        case .null: hasher.combine(9)
        }
    }
}

/// Where keys are in a dictionary: a scan for small ones, a hash index for large ones.
struct KeyIndex {
    private let positions: [PlistKey: Int]?

    init(_ d: PlistDictionary) {
        guard d.count > 16 else { positions = nil; return }
        var map = [PlistKey: Int](minimumCapacity: d.count)
        for (i, k) in d.keys.enumerated() where map[PlistKey(k)] == nil { map[PlistKey(k)] = i }
        positions = map
    }

    func position(of key: String, in d: PlistDictionary) -> Int? {
        if let positions { return positions[PlistKey(key)] }
        return d.index(forKey: key)
    }
}
