import ArchivistArchive
import ArchivistCore
import ArchivistTestSupport
import Foundation
import XCTest

/// One walk into nested data: every command that looks into `<data>` agrees,
/// through the built binary, on what each data value of the real-world files
/// holds and on its key path. For each data value holding a document (a
/// property list, keyed archive, typedstream, bookmark or JSON), `get` shows
/// it decoded as `dump` does, `dump --json` shows it as `{"data", KIND}`, a
/// key inside it is reached by `get`, edited by `set` and `remove` (or, in a
/// typedstream or bookmark, refused as unwritable, named as `get` names it)
/// and found by `diff` at the same key path; `info`, `lint --secure` and
/// `migrate` name nested archives by that key path too.
extension CLITests {
    /// A data value of a file's tree that holds a document, one level down.
    private struct HeldDocument {
        var path: String
        var kind: NestedData.Kind
        var label: String
        var bytes: [UInt8]
        /// The first key inside the document (a `$top` key of an archive, a
        /// dictionary's first key, `0` of an array); nil for a scalar or an
        /// empty container.
        var firstKey: String?
    }

    /// The data values of `tree` that hold documents, with the key paths
    /// `get` takes: a plain tree's data nodes, an archive's data values and
    /// inline data fields (an NSData's as the NSData's own path).
    private static func heldDocuments(in tree: PlistTree) throws -> [HeldDocument] {
        var found: [([UInt8], String)] = []
        if KeyedArchive.looksLikeArchive(tree) {
            let graph = try ObjectGraph(tree)
            let paths = graph.paths()
            for (index, node) in graph.nodes.enumerated() {
                guard let base = paths.path(to: index) else { continue }
                switch node {
                case .value(.data(let bytes)): found.append((bytes, base))
                case .object(let o):
                    for field in o.fields {
                        if case .inline(.data(let bytes)) = field.value {
                            found.append((bytes, NestedDocuments.path(ofField: field.key, of: o, at: base, in: graph)))
                        }
                    }
                case .null, .value, .classDescription: continue
                }
            }
        } else {
            NestedArchiveWalk.dataNodes(in: tree, keyPath: "") { node, path in found.append((tree.data(at: node) ?? [], path)) }
        }
        return found.compactMap { bytes, path in
            guard !path.isEmpty, let nested = NestedDocuments.open(bytes, level: 0) else { return nil }
            return HeldDocument(path: path, kind: nested.kind, label: nested.label, bytes: bytes, firstKey: firstKey(of: nested))
        }
    }

    private static func firstKey(of nested: NestedData) -> String? {
        if let graph = nested.objectGraph { return graph.topEntries.first?.key }
        let tree = nested.document.tree
        switch tree.kind(of: tree.root) {
        case .dictionary: return tree.count(of: tree.root) > 0 ? tree.string(at: tree.entry(0, of: tree.root).key) : nil
        case .array: return tree.count(of: tree.root) > 0 ? "0" : nil
        case .string, .integer, .real, .bool, .date, .data, .uid, .null: return nil
        }
    }

    /// The `{"data": BASE64, KIND: ...}` objects of a `dump --json` view, as
    /// BASE64 and KIND.
    private static func nestedObjects(inJSON output: Data) throws -> Set<String> {
        var out: Set<String> = []
        var stack: [Any] = [try JSONSerialization.jsonObject(with: output, options: [.fragmentsAllowed])]
        while let item = stack.popLast() {
            if let d = item as? [String: Any] {
                if let data = d["data"] as? String {
                    for key in ["plist", "archive", "typedstream", "bookmark", "json"] where d[key] != nil { out.insert(key + " " + data) }
                }
                stack.append(contentsOf: d.values)
            } else if let a = item as? [Any] {
                stack.append(contentsOf: a)
            }
        }
        return out
    }

    private static func jsonKey(_ kind: NestedData.Kind) -> String {
        switch kind {
        case .propertyList: return "plist"
        case .keyedArchive: return "archive"
        case .typedstream: return "typedstream"
        case .bookmark: return "bookmark"
        case .json: return "json"
        }
    }

    /// The key paths of located errors (`FILE: $objects[N] (PATH): error: ...`).
    private static func errorKeyPaths(_ output: String) -> Set<String> {
        var out: Set<String> = []
        for line in output.split(separator: "\n") {
            guard let open = line.range(of: "] ("), let close = line.range(of: "): error: ", range: open.upperBound..<line.endIndex) else { continue }
            out.insert(String(line[open.upperBound..<close.lowerBound]))
        }
        return out
    }

    func testCommandsAgreeOnWhatRealWorldDataHoldsAndWhere() throws {
        let rules = work.appendingPathComponent("rules.json")
        try Data("{}".utf8).write(to: rules)
        var checked: [String: Int] = [:]
        for row in try realWorldPropertyLists() {
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: row.file), row.path)
            guard let tree = try? PropertyList.read([UInt8](bytes)).tree else { continue }
            let held = try Self.heldDocuments(in: tree)
            guard !held.isEmpty else { continue }
            // One of each kind and two more per file keep the run short.
            var picked: [HeldDocument] = []
            for doc in held where !picked.contains(where: { $0.kind == doc.kind }) { picked.append(doc) }
            for doc in held where picked.count < 3 && !picked.contains(where: { $0.path == doc.path }) { picked.append(doc) }

            let text = try run(["dump", "--color", "never", row.file])
            XCTAssertEqual(text.status, 0, "\(row.path): \(text.stderr)")
            let json = try run(["dump", "--json", row.file])
            XCTAssertEqual(json.status, 0, "\(row.path): \(json.stderr)")
            let shownInJSON = try Self.nestedObjects(inJSON: json.output)
            let info = try run(["info", row.file])
            for doc in picked {
                let name = "\(row.path) at \(doc.path)"
                checked[Self.jsonKey(doc.kind), default: 0] += 1
                // get and both dumps: the same document, decoded the same way.
                let got = try run(["get", row.file, doc.path])
                XCTAssertEqual(got.status, 0, "\(name): \(got.stderr)")
                XCTAssertTrue(got.stdout.contains("> holding \(doc.label)"), "\(name): get shows \(got.stdout.prefix(200))")
                XCTAssertTrue(text.stdout.contains("> holding \(doc.label)"), "\(name): dump does not show \(doc.label)")
                let base64 = String(decoding: Base64.encode(doc.bytes), as: UTF8.self)
                XCTAssertTrue(shownInJSON.contains(Self.jsonKey(doc.kind) + " " + base64), "\(name): dump --json does not show it as \(Self.jsonKey(doc.kind))")
                if doc.kind == .typedstream || (doc.kind.isArchive) {
                    XCTAssertTrue(info.stdout.contains("nested archive at \(doc.path): "), "\(name): info names it elsewhere")
                }
                guard let key = doc.firstKey else { continue }
                let inner = doc.path + "." + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ".", with: "\\.")
                let reached = try run(["get", row.file, inner])
                XCTAssertEqual(reached.status, 0, "\(name): get \(inner): \(reached.stderr)")
                // set and remove step in where get does, and refuse what cannot be written back.
                let writable = doc.kind != .typedstream && doc.kind != .bookmark
                let set = try run(["set", row.file, inner, "agreed", "--type", "string", "-o", "set.out"])
                let remove = try run(["remove", row.file, inner, "-o", "remove.out"])
                guard writable else {
                    for r in [set, remove] {
                        XCTAssertEqual(r.status, 1, "\(name): \(r.stderr)")
                        XCTAssertTrue(r.stderr.contains("holds \(doc.label), which cannot be written back"), "\(name): \(r.stderr)")
                    }
                    continue
                }
                XCTAssertEqual(set.status, 0, "\(name): set \(inner): \(set.stderr)")
                let after = try run(["get", "set.out", inner])
                XCTAssertEqual(after.stdout, "agreed\n", "\(name): get after set \(inner): \(after.stderr)")
                // diff names the change by the key path set was given.
                let diff = try run(["diff", "--color", "never", row.file, "set.out"])
                XCTAssertEqual(diff.status, 1, "\(name): \(diff.stderr)")
                XCTAssertTrue(diff.stdout.split(separator: "\n").contains { $0.hasPrefix("~ \(inner): ") || $0.hasPrefix("~ \(doc.path): ") },
                              "\(name): diff names \(diff.stdout.prefix(300))")
                if doc.kind.isArchive {
                    XCTAssertEqual(remove.status, 1, "\(name): \(remove.stderr)")
                    XCTAssertTrue(remove.stderr.contains("a $top entry can only be replaced"), "\(name): \(remove.stderr)")
                } else {
                    XCTAssertEqual(remove.status, 0, "\(name): remove \(inner): \(remove.stderr)")
                    XCTAssertNotEqual(try run(["get", "remove.out", inner]).status, 0, "\(name): \(inner) still there after remove")
                }
            }
            // lint --secure and migrate locate the same objects, nested archives
            // under the key paths get takes.
            let lint = try run(["lint", "--secure", row.file])
            let migrate = try run(["migrate", row.file, "--rules", rules.path, "--dry-run"])
            let linted = Self.errorKeyPaths(lint.stdout + lint.stderr)
            // (migrate boxes inline primitives, so it refuses fewer places.)
            let refused = Self.errorKeyPaths(migrate.stdout + migrate.stderr)
            XCTAssertTrue(refused.isSubset(of: linted), "\(row.path): migrate names \(refused.subtracting(linted).sorted())")
            for doc in picked where doc.kind.isArchive {
                for path in linted where path.hasPrefix(doc.path + ".") {
                    XCTAssertEqual(try run(["get", row.file, doc.path]).status, 0, "\(row.path): \(path)")
                }
            }
        }
        // The real-world property lists hold these kinds in data (their
        // typedstreams are in a store's column, not in a property list).
        for kind in ["plist", "archive", "bookmark"] {
            XCTAssertGreaterThan(checked[kind] ?? 0, 0, "no real-world data value holds a \(kind): \(checked)")
        }
    }
}

extension NestedData.Kind {
    fileprivate var isArchive: Bool {
        if case .keyedArchive = self { return true }
        return false
    }
}
