import ArchivistCore

/// Edits of an object graph, the ground migrations and Codable export stand on.
extension ObjectGraph {
    /// Appends a node and returns its index.
    ///
    /// - Parameter node: An object, or a value stored in `$objects`.
    /// - Returns: The node's index, for references to it.
    public mutating func append(_ node: ArchivedNode) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// Renames a class (either spelling of `from` matches) in every object and
    /// class chain; returns how many objects changed.
    ///
    /// - Parameters:
    ///   - from: The class's name, mangled or readable.
    ///   - to: The new name, as it is archived.
    /// - Returns: The number of objects changed.
    @discardableResult
    public mutating func renameClass(_ from: String, to: String) -> Int {
        var changed = 0
        for i in nodes.indices {
            guard case .object(var o) = nodes[i], o.className.matches(from) else { continue }
            let old = o.className.archived
            o.className = ClassName(archived: to)
            o.classChain = o.classChain.map { $0 == old ? to : $0 }
            nodes[i] = .object(o)
            changed += 1
        }
        return changed
    }

    /// Sets (adds or replaces) a field of an object.
    ///
    /// - Parameters:
    ///   - key: The field's key.
    ///   - value: Its new value.
    ///   - index: The object's index.
    /// - Throws: `PlistError` (`archive`) when `index` is not an object.
    public mutating func setField(_ key: String, to value: FieldValue, inObject index: Int) throws {
        guard case .object(var o) = nodes[safe: index] else {
            throw PlistError(.archive, "object \(index) is not an archived object", at: .archive(object: index, keyPath: key))
        }
        if let i = o.fields.firstIndex(where: { PlistKeys.same($0.key, key) }) {
            o.fields[i].value = value
        } else {
            o.fields.append(Field(key: key, value: value))
        }
        nodes[index] = .object(o)
    }

    /// Removes a field of an object; returns whether it was there.
    ///
    /// - Parameters:
    ///   - key: The field's key.
    ///   - index: The object's index.
    /// - Returns: True when the field was there.
    @discardableResult
    public mutating func removeField(_ key: String, fromObject index: Int) -> Bool {
        guard case .object(var o) = nodes[safe: index], let i = o.fields.firstIndex(where: { PlistKeys.same($0.key, key) }) else { return false }
        o.fields.remove(at: i)
        nodes[index] = .object(o)
        return true
    }

    /// Renames a field of an object; returns whether it was there.
    ///
    /// - Parameters:
    ///   - key: The field's key.
    ///   - newKey: Its new key.
    ///   - index: The object's index.
    /// - Returns: True when the field was there.
    @discardableResult
    public mutating func renameField(_ key: String, to newKey: String, inObject index: Int) -> Bool {
        guard case .object(var o) = nodes[safe: index], let i = o.fields.firstIndex(where: { PlistKeys.same($0.key, key) }) else { return false }
        o.fields[i].key = newKey
        nodes[index] = .object(o)
        return true
    }

    /// A number object holding `value`, appended to the graph, and the
    /// reference to it: how `encode(NSNumber(...), forKey:)` stores what
    /// `encode(_:forKey:)` of a primitive wrote inline.
    ///
    /// - Parameter value: A number or boolean.
    /// - Returns: The reference to the new number object.
    public mutating func box(_ value: PlistValue) -> FieldValue {
        .reference(append(.value(value)))
    }

    /// Boxes an inline primitive (integer, real, bool) into a referenced number
    /// object, as `encode(NSNumber(...), forKey:)` writes it; returns whether
    /// the field was an inline primitive.
    ///
    /// - Parameters:
    ///   - key: The field's key.
    ///   - index: The object's index.
    /// - Returns: True when the field was an inline primitive, now boxed.
    @discardableResult
    public mutating func boxInlinePrimitive(_ key: String, inObject index: Int) -> Bool {
        guard case .object(let o) = nodes[safe: index], case .inline(let v)? = o[key] else { return false }
        switch v {
        case .integer, .real, .bool:
            let boxed = box(v)
            if case .object(var edited) = nodes[index], let i = edited.fields.firstIndex(where: { PlistKeys.same($0.key, key) }) {
                edited.fields[i].value = boxed
                nodes[index] = .object(edited)
            }
            return true
        case .string, .date, .data, .array, .dictionary, .uid, .null:
            return false
        }
    }
}

extension Array {
    /// The element at an index, or nil outside the array.
    subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
