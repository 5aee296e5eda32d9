import ArchivistCore

/// The Swift source of `codegen --upgrade` beyond the classes: each reader's
/// conversion to version 2, `upgradeArchive(_:)` and the types they share.
enum UpgradeRenderer {
    /// A reader's conformance to `Version1Object`: version 2's memberwise
    /// initializer called with the reader's fields, renamed, boxed and
    /// converted as the rules say.
    static func conversion(of r: UpgradePlan.Reader, plan: UpgradePlan) throws -> String {
        let readerNames = SecureCodingRenderer.propertyNames(r.reader.fields)
        var arguments: [String] = []
        for (g, name) in SecureCodingRenderer.propertyNames(r.target.fields) {
            guard let f = plan.legacyField(becoming: g.key, in: r),
                  let property = readerNames.first(where: { PlistKeys.same($0.field.key, f.key) })?.name else {
                guard g.optional else { throw unconvertible(r, g.key, "version 1 has no field that becomes it") }
                arguments.append("\(name): nil")
                continue
            }
            let converted = try value(property, from: f.storage, to: g.storage, optional: f.optional, plan: plan, r, g.key)
            // Version 2 requires what version 1 may hold nil for: an object that lacks it throws.
            arguments.append("\(name): " + (f.optional && !g.optional ? Self.required(converted, field: "\(r.targetType).\(name)") : converted))
        }
        return """
            extension \(r.reader.swiftType): Version1Object {
                func upgraded(_ conversion: Version1Conversion) throws -> \(r.targetType) {
                    \(r.targetType)(\(arguments.joined(separator: ", ")))
                }
            }

            """
    }

    /// An expression unwrapping an optional version-1 value that version 2
    /// requires (`requiredField`, which throws naming the field when it is nil).
    static func required(_ expression: String, field: String) -> String {
        "try requiredField(\(expression), \(PlistValue.quoted(field)))"
    }

    /// The expression converting a version-1 field to version 2's type.
    private static func value(_ expression: String, from old: SecureCodingClass.Storage, to new: SecureCodingClass.Storage, optional: Bool,
                              plan: UpgradePlan, _ r: UpgradePlan.Reader, _ key: String) throws -> String {
        switch (old, new) {
        case (.inline(let a), .inline(let b)), (.inline(let a), .object(.number(let b)?)), (.object(.number(let a)?), .object(.number(let b)?)):
            if a == b { return expression }
            guard a != .bool, b != .bool else { throw unconvertible(r, key, "version 1 holds a \(a.swift), version 2 a \(b.swift)") }
            return optional ? "\(expression).map { \(b.swift)($0) }" : "\(b.swift)(\(expression))"
        case (.object(let shape?), .object):
            return try converted(expression, shape, optional: optional, depth: 0, plan: plan, r, key)
        case (.object(nil), .object):
            return expression
        case (.object, .inline), (.inline, .object):
            throw unconvertible(r, key, "version 1 and version 2 hold values of different kinds")
        }
    }

    /// An expression converting a value of a version-1 shape: itself when it
    /// holds no reader, else its readers upgraded (through the conversion, so
    /// shared objects stay shared).
    private static func converted(_ expression: String, _ shape: SecureFieldShape, optional: Bool, depth: Int,
                                  plan: UpgradePlan, _ r: UpgradePlan.Reader, _ key: String) throws -> String {
        guard shape.customTypes.contains(where: plan.isChanged) else { return expression }
        let item = "item\(depth)"
        if optional {
            return "try \(expression).map { \(item) in \(try converted(item, shape, optional: false, depth: depth + 1, plan: plan, r, key)) }"
        }
        switch shape {
        case .custom(let type, _) where plan.isChanged(type):
            return "try conversion.upgrade(\(expression))"
        case .list(let className, let element?):
            let each = "try \(expression).map { \(item) in \(try converted(item, element, optional: false, depth: depth + 1, plan: plan, r, key)) }"
            return SecureFieldShape.bridge(of: className) == .set ? "Set(\(each))" : each
        case .map(_, let keyShape, let valueShape?) where !(keyShape?.customTypes.contains(where: plan.isChanged) ?? false):
            return "try \(expression).mapValues { \(item) in \(try converted(item, valueShape, optional: false, depth: depth + 1, plan: plan, r, key)) }"
        case .custom, .list, .map, .foundation, .number, .bridged:
            throw unconvertible(r, key, "it holds version-1 objects in \(shape.swift), which the upgrade cannot convert")
        }
    }

    private static func unconvertible(_ r: UpgradePlan.Reader, _ key: String, _ why: String) -> PlistError {
        PlistError(.unsupported, "\(r.targetType).\(key) cannot be upgraded: \(why)")
    }

    /// `decodeUpgradedArchive(_:)` (version 2 decoded first, then version 1,
    /// each on a fresh unarchiver) and `upgradeArchive(_:)`, which archives
    /// what it decodes.
    static func upgradeArchive(version2: (roots: [String], names: [(String, String)]), version1: (roots: [String], names: [(archived: String, type: String)]),
                               readers: [String]) -> String {
        func classes(_ types: [String]) -> String { "[" + types.map { $0 + ".self" }.joined(separator: ", ") + "]" }
        func names(_ pairs: [(String, String)]) -> String {
            pairs.isEmpty ? "[]" : "[\n" + pairs.map { "        (\(PlistValue.quoted($0.0)), \($0.1).self),\n" }.joined() + "    ]"
        }
        let archived = version2.names.map(\.0)
        let nameSet = "[" + archived.map { PlistValue.quoted($0) }.joined(separator: ", ") + "]"
        var moduleNames: [String] = []
        for name in archived {
            let readable = ClassName(archived: name).readable
            if let dot = readable.firstIndex(of: "."), !moduleNames.contains(String(readable[..<dot])) { moduleNames.append(String(readable[..<dot])) }
        }
        let modules = moduleNames.isEmpty ? "the one the rules name" : SwiftNames.comment(moduleNames.joined(separator: " and "))
        let modulesLiteral = PlistValue.quoted(moduleNames.joined(separator: " and "))
        var conversions = ""
        for reader in readers where version1.roots.contains(reader) {
            if conversions.isEmpty { conversions = "        let conversion = Version1Conversion()\n" }
            conversions += "        if let old = root as? \(reader) { return (try conversion.upgrade(old), false) }\n"
        }
        return """
            /// The root object of version 1 or version 2 data as version 2's classes, and
            /// whether the data was version 2 already. Version 1 is read with the version-1
            /// readers and converted. Anything else throws an `ArchiveUpgradeError` naming
            /// what the data holds.
            func decodeUpgradedArchive(_ data: Data) throws -> (root: Any, wasVersion2: Bool) {
                let version2: [(name: String, type: AnyClass)] = \(names(version2.names))
                let currentError: any Error
                // Version 1 data of a class whose archived name version 2 shares (only its
                // fields changed) fails here, and Foundation on Linux then prints a line
                // ending in "The data may be corrupt." to standard error: the data is
                // fine, and version 1 reads it next. (Names version 2 lacks are not tried.)
                switch decodeArchiveRoot(data, allowing: \(classes(version2.roots)), classNames: version2) {
                case .success(let root): return (root, true)
                case .failure(let error): currentError = error
                }
                let version1: [(name: String, type: AnyClass)] = \(names(version1.names.map { ($0.archived, $0.type) }))
                switch decodeArchiveRoot(data, allowing: \(classes(version1.roots)), classNames: version1) {
                case .success(let root):
            \(conversions)        return (root, false)
                case .failure(let legacyError):
                    throw ArchiveUpgradeError(found: data, version2: currentError, version1: legacyError)
                }
            }

            /// The archive as version 2 writes it: version 2 data comes back unchanged;
            /// version 1 data is read with the version-1 readers, converted and archived
            /// again with secure coding. Anything else throws an `ArchiveUpgradeError`
            /// naming what the data holds. `NSKeyedArchiver` names a Swift class by the
            /// module it is built in, so the class names written are checked: built into a
            /// module other than \(modules), this throws naming the module, rather than
            /// writing an archive version 2 cannot read.
            func upgradeArchive(_ data: Data) throws -> Data {
                let decoded = try decodeUpgradedArchive(data)
                if decoded.wasVersion2 { return data }
                let upgraded = try NSKeyedArchiver.archivedData(withRootObject: decoded.root, requiringSecureCoding: true)
                let version2: Set<String> = \(nameSet)
                if let wrong = archivedClassNames(upgraded)?.first(where: { isSwiftClassName($0) && !version2.contains($0) }) {
                    throw ArchiveUpgradeError("this build archives \\(wrong), which version 2 does not read: build this file into module " + \(modulesLiteral))
                }
                return upgraded
            }

            """
    }

    /// `upgradeDefaults(_:forKey:)` and `upgradeFiles(in:named:)`, with the
    /// `UpgradeReport` the latter returns: `upgradeArchive(_:)` applied where
    /// the archives are.
    static let places = """
        /// Replaces the archive stored under `key` with its upgrade. Returns true when
        /// that changed the stored data, false when the key holds nothing or version 2
        /// already (so a second call returns false). Throws an `ArchiveUpgradeError`
        /// when the key holds something other than data or data that is no archive of
        /// either version; the value is then left as it was.
        func upgradeDefaults(_ defaults: UserDefaults, forKey key: String) throws -> Bool {
            guard let value = defaults.object(forKey: key) else { return false }
            guard let data = value as? Data else {
                throw ArchiveUpgradeError("the value for \\(key) is \\(type(of: value)), not data")
            }
            let upgraded = try upgradeArchive(data)
            guard upgraded != data else { return false }
            defaults.set(upgraded, forKey: key)
            return true
        }

        /// What `upgradeFiles(in:named:)` did, file by file.
        struct UpgradeReport {
            /// The files rewritten as version 2.
            var upgraded: [URL] = []
            /// The files that were version 2 already.
            var unchanged: [URL] = []
            /// The files that could not be read, upgraded or replaced, and why; each is
            /// left as it was.
            var failed: [(file: URL, error: any Error)] = []
        }

        /// Upgrades every file named `name` in `folder` and the folders below it (not
        /// through symbolic links). Each file is replaced atomically: the upgrade is
        /// written to a new file beside it and flushed to disk, and only then renamed
        /// over the original. A file that fails is reported and left as it was; the
        /// others are upgraded. Throws only when `folder` itself cannot be listed.
        func upgradeFiles(in folder: URL, named name: String) throws -> UpgradeReport {
            var report = UpgradeReport()
            var folders = [folder]
            var first = true
            while let next = folders.popLast() {
                let entries: [URL]
                do {
                    entries = try FileManager.default.contentsOfDirectory(at: next, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey])
                } catch {
                    if first { throw error }
                    report.failed.append((next, error))
                    continue
                }
                first = false
                for entry in entries.sorted(by: { $0.path < $1.path }) {
                    let kind = try? entry.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
                    if kind?.isSymbolicLink == true { continue }
                    if kind?.isDirectory == true {
                        folders.append(entry)
                    } else if entry.lastPathComponent == name {
                        do {
                            let data = try Data(contentsOf: entry)
                            let upgraded = try upgradeArchive(data)
                            if upgraded == data {
                                report.unchanged.append(entry)
                            } else {
                                try replaceAtomically(entry, with: upgraded)
                                report.upgraded.append(entry)
                            }
                        } catch {
                            report.failed.append((entry, error))
                        }
                    }
                }
            }
            return report
        }

        /// Writes `data` to a new file beside `file` with its permissions, flushes it to
        /// disk and renames it over `file`; on failure `file` is untouched and the new
        /// file removed.
        private func replaceAtomically(_ file: URL, with data: Data) throws {
            let manager = FileManager.default
            let permissions = try manager.attributesOfItem(atPath: file.path)[.posixPermissions]
            let temporary = file.deletingLastPathComponent().appendingPathComponent(".\\(file.lastPathComponent).upgrade-\\(UUID().uuidString)")
            guard manager.createFile(atPath: temporary.path, contents: nil, attributes: permissions.map { [.posixPermissions: $0] }) else {
                throw ArchiveUpgradeError("cannot create \\(temporary.path)")
            }
            do {
                let handle = try FileHandle(forWritingTo: temporary)
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
                try handle.synchronize()
                guard rename(temporary.path, file.path) == 0 else {
                    throw ArchiveUpgradeError("cannot replace \\(file.path): \\(String(cString: strerror(errno)))")
                }
            } catch {
                try? manager.removeItem(at: temporary)
                throw error
            }
        }

        """

    /// The types every upgrade uses: the conversion, the error and the decoding.
    static let support = """
        /// A version-1 object read to be upgraded.
        protocol Version1Object: AnyObject {
            associatedtype Version2
            /// Version 2 of the object; the objects it holds are upgraded through `conversion`.
            func upgraded(_ conversion: Version1Conversion) throws -> Version2
        }

        /// The value of a version-1 field that version 2 requires; throws when this
        /// archive holds nil there (or lacks the field).
        func requiredField<Value>(_ value: Value?, _ field: String) throws -> Value {
            guard let value else {
                throw ArchiveUpgradeError("\\(field) is nil in this version-1 archive, and version 2 requires it")
            }
            return value
        }

        /// Upgrades version-1 objects, each once, so that objects the archive shares stay shared.
        final class Version1Conversion {
            private var done: [ObjectIdentifier: Any] = [:]
            private var inProgress: Set<ObjectIdentifier> = []

            /// Version 2 of `old`, made once.
            func upgrade<Old: Version1Object>(_ old: Old) throws -> Old.Version2 {
                let id = ObjectIdentifier(old)
                if let new = done[id] as? Old.Version2 { return new }
                guard inProgress.insert(id).inserted else {
                    throw ArchiveUpgradeError("a \\(Old.self) holds itself through its fields; upgrade it by hand")
                }
                let new = try old.upgraded(self)
                inProgress.remove(id)
                done[id] = new
                return new
            }
        }

        /// Why data cannot be upgraded: what it holds, and why neither version reads it.
        struct ArchiveUpgradeError: Error, CustomStringConvertible {
            let description: String

            init(_ description: String) {
                self.description = description
            }

            /// The error for data neither version reads, naming what it holds.
            init(found data: Data, version2: any Error, version1: any Error) {
                let found: String
                if let names = archivedClassNames(data) {
                    found = "a keyed archive of " + (names.isEmpty ? "no class" : names.joined(separator: ", "))
                } else if (try? PropertyListSerialization.propertyList(from: data, format: nil)) != nil {
                    found = "a property list that is no keyed archive"
                } else if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil {
                    found = "JSON (\\(data.count) bytes)"
                } else {
                    found = "not a property list (\\(data.count) bytes)"
                }
                description = found + ", which neither version reads (version 2: \\(Self.reason(version2)); version 1: \\(Self.reason(version1)))"
            }

            private static func reason(_ error: any Error) -> String {
                if let upgrade = error as? ArchiveUpgradeError { return upgrade.description }
                let nsError = error as NSError
                return nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
            }
        }

        /// The class names (`$classname`) of a keyed archive's objects, each once; nil
        /// for data that is no keyed archive.
        private func archivedClassNames(_ data: Data) -> [String]? {
            guard let archive = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any],
                  archive["$archiver"] as? String == "NSKeyedArchiver" else { return nil }
            var names: [String] = []
            for case let object as [String: Any] in archive["$objects"] as? [Any] ?? [] {
                if let name = object["$classname"] as? String, !names.contains(name) { names.append(name) }
            }
            return names
        }

        /// True for the archived name of a Swift class (its module and name, or its
        /// mangled name); Foundation's classes have neither.
        private func isSwiftClassName(_ name: String) -> Bool {
            name.contains(".") || name.hasPrefix("_Tt")
        }

        /// The root object of an archive, decoded under secure coding on a fresh
        /// unarchiver (a failed decoding spoils one) that maps `classNames` to their
        /// classes and allows `classes` at the top. An archive holding a Swift class
        /// that `classNames` does not map is refused before decoding: Foundation on
        /// Linux would print "Invalid class ... The data may be corrupt" to standard
        /// error for it, as if the user's data were damaged.
        private func decodeArchiveRoot(_ data: Data, allowing classes: [AnyClass], classNames: [(name: String, type: AnyClass)]) -> Result<Any, any Error> {
            if let unknown = archivedClassNames(data)?.first(where: { name in isSwiftClassName(name) && !classNames.contains { $0.name == name } }) {
                return .failure(ArchiveUpgradeError("no class of it is archived as \\(unknown)"))
            }
            do {
                let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
                unarchiver.decodingFailurePolicy = .setErrorAndReturn
                unarchiver.requiresSecureCoding = true
                for mapping in classNames { unarchiver.setClass(mapping.type, forClassName: mapping.name) }
                let root = unarchiver.decodeObject(of: classes, forKey: NSKeyedArchiveRootObjectKey)
                unarchiver.finishDecoding()
                if let error = unarchiver.error { return .failure(error) }
                guard let root else { return .failure(ArchiveUpgradeError("the archive has no root object")) }
                return .success(root)
            } catch {
                return .failure(error)
            }
        }

        """
}
