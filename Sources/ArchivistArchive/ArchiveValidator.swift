import ArchivistCore

/// Checks every UID and class reference of `$objects` and finds, breadth first,
/// the key path by which each object is first reached from `$top`.
enum ArchiveValidator {
    static func validate(objects: [PlistValue], top: [(key: String, object: Int)]) throws -> ArchivePaths {
        let count = objects.count
        var paths = ArchivePaths(count: count)
        var queue: [Int] = []
        for (key, object) in top where !paths.isReached(object) {
            paths.set(object, .top(key))
            queue.append(object)
        }
        // Breadth-first from $top, so an error names the shortest way there.
        var head = 0
        var steps: [FieldStep] = []
        steps.reserveCapacity(8)
        while head < queue.count {
            let object = queue[head]
            head += 1
            let shape = ContainerShape(object, in: objects)
            try forEachUID(in: objects[object], steps: &steps) { uid, steps in
                guard uid < UInt64(count) else {
                    let base = paths.path(to: object) ?? "$objects[\(object)]"
                    let field = FieldStep.text(steps)
                    throw PlistError(.archive, "\(field.isEmpty ? "value" : field) refers to object \(uid), past the \(count) objects",
                                     at: .archive(object: object, keyPath: join(base, field)))
                }
                let target = Int(uid)
                if !paths.isReached(target), !FieldStep.isClass(steps) {
                    paths.set(target, shape.link(steps, parent: object))
                    queue.append(target)
                }
            }
        }
        // Every object, reachable or not: UIDs in range, classes well formed.
        for object in 0..<count {
            func base() -> String { paths.path(to: object) ?? "" }
            try forEachUID(in: objects[object], steps: &steps) { uid, steps in
                guard uid < UInt64(count) else {
                    let base = base()
                    let field = FieldStep.text(steps)
                    throw PlistError(.archive, "\(field.isEmpty ? "value" : field) refers to object \(uid), past the \(count) objects",
                                     at: .archive(object: object, keyPath: join(base, field)))
                }
            }
            guard case .dictionary(let d) = objects[object] else { continue }
            // A dictionary in $objects is an object (with $class) or a class description.
            guard let cls = d["$class"] else {
                if d["$classname"] != nil { continue }
                throw PlistError(.archive, "object \(object) is a dictionary with neither $class nor $classname",
                                 at: .archive(object: object, keyPath: base()))
            }
            guard case .uid(let c) = cls else {
                throw PlistError(.archive, "$class is \(cls.aTypeName), not a UID", at: .archive(object: object, keyPath: join(base(), "$class")))
            }
            try checkClass(Int(c), objects: objects, from: object, path: { join(base(), "$class") })
        }
        return paths
    }

    private static func checkClass(_ index: Int, objects: [PlistValue], from object: Int, path: () -> String) throws {
        guard case .dictionary(let cls) = objects[index] else {
            throw PlistError(.archive, "$class refers to object \(index), \(objects[index].aTypeName), not a class dictionary",
                             at: .archive(object: object, keyPath: path()))
        }
        guard case .string? = cls["$classname"] else {
            throw PlistError(.archive, "class dictionary at object \(index) has no $classname string",
                             at: .archive(object: index, keyPath: path() + ".$classname"))
        }
        if let chain = cls["$classes"] {
            guard case .array(let names) = chain, names.allSatisfy({ $0.stringValue != nil }) else {
                throw PlistError(.archive, "class dictionary at object \(index) has a $classes that is not an array of strings",
                                 at: .archive(object: index, keyPath: path() + ".$classes"))
            }
        }
    }

    private static func join(_ base: String, _ field: String) -> String {
        if field.isEmpty { return base }
        if base.isEmpty { return field }
        return base + "." + field
    }

    /// Calls `body` for each UID inside a value (not descending into other
    /// objects: UIDs are the edges), with the steps of the field path inside the
    /// value (made into text only where a path is kept or reported).
    private static func forEachUID(in value: PlistValue, steps: inout [FieldStep], depth: Int = 0,
                                   _ body: (UInt64, [FieldStep]) throws -> Void) throws {
        guard depth < 512 else { return }
        switch value {
        case .uid(let u): try body(u, steps)
        case .array(let items):
            for (i, item) in items.enumerated() {
                switch item {
                case .uid, .array, .dictionary:
                    steps.append(.index(i))
                    defer { steps.removeLast() }
                    try forEachUID(in: item, steps: &steps, depth: depth + 1, body)
                default:
                    continue
                }
            }
        case .dictionary(let d):
            for (k, v) in d {
                switch v {
                case .uid, .array, .dictionary:
                    steps.append(.key(k))
                    defer { steps.removeLast() }
                    try forEachUID(in: v, steps: &steps, depth: depth + 1, body)
                default:
                    continue
                }
            }
        case .string, .integer, .real, .bool, .date, .data, .null: return
        }
    }
}

/// One step of a field path inside an object: a key or an array index.
enum FieldStep {
    case key(String)
    case index(Int)

    /// `key.key.3.key`, escaped as key paths are (`NS\.objects.3`).
    static func text(_ steps: [FieldStep]) -> String {
        PlistKeyPath(components: steps.map { step in
            switch step {
            case .key(let k): return k
            case .index(let i): return String(i)
            }
        }).description
    }

    /// The object's own `$class` field.
    static func isClass(_ steps: [FieldStep]) -> Bool {
        guard steps.count == 1, case .key(let k) = steps[0] else { return false }
        return k == "$class"
    }
}

extension ContainerShape {
    /// The shape of an entry of `$objects` not yet validated: Foundation
    /// collections by their class name, dictionary keys where they are strings.
    init(_ object: Int, in objects: [PlistValue]) {
        guard case .dictionary(let d) = objects[object], case .uid(let c)? = d["$class"], c < UInt64(objects.count),
              case .dictionary(let cls) = objects[Int(c)], case .string(let name)? = cls["$classname"] else {
            self = .fields
            return
        }
        if FoundationValue.listClasses.contains(name) || name == "NSCountedSet" {
            self = .list
        } else if FoundationValue.mapClasses.contains(name), case .array(let keys)? = d["NS.keys"] {
            self = .map(keys: keys.map { key in
                guard case .uid(let k) = key, k < UInt64(objects.count) else { return nil }
                switch objects[Int(k)] {
                case .string(let s): return s
                case .dictionary(let o): return o["NS.string"]?.stringValue
                default: return nil
                }
            })
        } else {
            self = .fields
        }
    }
}
