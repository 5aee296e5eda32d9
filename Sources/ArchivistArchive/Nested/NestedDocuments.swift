import ArchivistCore

/// The one service into the documents `<data>` values hold. Every command
/// that looks into data goes through it, so they all agree on what a data
/// value holds (``NestedData/read(_:)``), on how deep data inside data is
/// followed (``NestedData/maxLevels``, counted the same way by all: the
/// data values entered from the input to here) and on where an error inside
/// a nested document is (its key path under the data's own). Three uses:
///
/// - visit: ``NestedArchiveWalk`` goes to every archive a tree holds;
/// - step: ``step(into:level:at:)`` follows one key into data (key paths,
///   `set`, `remove`), and ``open(_:level:)`` does the same for a view that
///   shows plain data where nothing is held (`dump`, `diff`, the Codable
///   export and schema);
/// - rewrite: ``rewrite(_:level:at:unwritable:_:)`` hands the document
///   to an edit and writes what comes back in the format it was read from,
///   as the bytes to splice into the `<data>` node (`migrate`, `set`,
///   `remove`).
package enum NestedDocuments {
    /// What to do with data holding a document that cannot be written back
    /// (a typedstream, a bookmark).
    package enum Unwritable {
        /// Leave the data as it is (`migrate`).
        case skip
        /// Throw, naming what the data holds (`set`, `remove`).
        case fail
    }

    /// True when data `level` levels down (0: a data value of the input)
    /// may be opened.
    package static func mayOpen(level: Int) -> Bool {
        level < NestedData.maxLevels
    }

    /// What data `level` levels down holds; nil when it holds none of
    /// ``NestedData``'s kinds, or past the level limit (the view shows the
    /// data as data then).
    package static func open(_ bytes: [UInt8], level: Int) -> NestedData? {
        guard mayOpen(level: level) else { return nil }
        return NestedData.read(bytes)
    }

    /// What data `level` levels down holds, to step into at key path
    /// `path` (the components up to the key looked for); throws when it
    /// holds nothing to look into or is past the level limit.
    package static func step(into bytes: [UInt8], level: Int, at path: String) throws -> NestedData {
        guard let nested = NestedData.read(bytes) else {
            throw PlistError(.invalidValue, "\(path): data of \(bytes.count) bytes holds no property list, archive, typedstream, bookmark or JSON to look into")
        }
        guard mayOpen(level: level) else {
            throw PlistError(.limitExceeded, "\(path): data nested more than \(NestedData.maxLevels) levels deep")
        }
        return nested
    }

    /// The bytes to put in place of data `level` levels down after `edit`
    /// changed the document it holds, written in the format it was read
    /// from; nil when `edit` returns nil (nothing changed) or when the data
    /// holds nothing writable and `unwritable` is `.skip`. `edit` is given
    /// the document and the level of the data inside it. With `.fail`, data
    /// that holds nothing (or nothing writable) is an error at `path`.
    package static func rewrite(_ bytes: [UInt8], level: Int, at path: String, unwritable: Unwritable,
                                _ edit: (NestedData, _ level: Int) throws -> PlistTree?) throws -> [UInt8]? {
        guard let (nested, format) = try writable(bytes, level: level, at: path, unwritable) else { return nil }
        guard let edited = try edit(nested, level + 1) else { return nil }
        return try PropertyList.write(edited, as: format)
    }

    /// As ``rewrite(_:level:at:unwritable:_:)`` for an edit that builds a value.
    package static func rewrite(_ bytes: [UInt8], level: Int, at path: String, unwritable: Unwritable,
                                _ edit: (NestedData, _ level: Int) throws -> PlistValue?) throws -> [UInt8]? {
        guard let (nested, format) = try writable(bytes, level: level, at: path, unwritable) else { return nil }
        guard let edited = try edit(nested, level + 1) else { return nil }
        return try PropertyList.write(edited, as: format)
    }

    private static func writable(_ bytes: [UInt8], level: Int, at path: String, _ unwritable: Unwritable) throws -> (NestedData, PlistFormat)? {
        let nested: NestedData
        switch unwritable {
        case .skip:
            guard let found = open(bytes, level: level) else { return nil }
            nested = found
        case .fail:
            nested = try step(into: bytes, level: level, at: path)
        }
        guard let format = nested.writableFormat else {
            guard unwritable == .fail else { return nil }
            throw PlistError(.invalidValue, "\(path): data of \(bytes.count) bytes holds \(nested.label), which cannot be written back")
        }
        return (nested, format)
    }

    /// The key path of the data in inline field `key` of object `o`
    /// reached at `base`, as `get` takes it: `base.key`, or `base` for an
    /// object that stands for its data (NSData), which `get` steps through.
    package static func path(ofField key: String, of o: ArchivedObject, at base: String, in graph: ObjectGraph) -> String {
        if case .data? = FoundationValue.interpret(o, in: graph) { return base }
        return ArchivePaths.joined(base, key)
    }

    /// `error` as met inside a document held in data at `keyPath`: an error
    /// located in an archive gets the data's key path in front of its own
    /// (`currentUser` + `root.age`); others stay as they are, or with
    /// `naming` say the archive they are in.
    package static func relocated(_ error: PlistError, under keyPath: String, naming: Bool = false) -> PlistError {
        guard !keyPath.isEmpty else { return error }
        var error = error
        if case .archive(let object, let inner) = error.location {
            error.location = .archive(object: object, keyPath: ArchivePaths.nested(inner, in: keyPath))
        } else if naming {
            error.message = "in the archive at \(keyPath): " + error.message
        }
        return error
    }

    /// Runs `body`, re-locating a `PlistError` it throws under `keyPath`.
    package static func located<T>(under keyPath: String, naming: Bool = false, _ body: () throws -> T) throws -> T {
        guard !keyPath.isEmpty else { return try body() }
        do {
            return try body()
        } catch let error as PlistError {
            throw relocated(error, under: keyPath, naming: naming)
        }
    }
}
