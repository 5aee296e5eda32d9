import ArchivistCore

/// What a file is, at a glance: format, size, values, depth; a binary
/// plist's trailer; a keyed archive's envelope, classes and secure-coding
/// verdict; where archives are nested in data. As a tree (for `--json`) and
/// as text lines.
package struct FileInfo: Sendable {
    /// The report, keys in a fixed order.
    package let report: PlistDictionary

    /// Inspects a file's bytes. An NSArchiver typedstream is reported as
    /// format `typedstream`, with the archive section of the keyed archive it
    /// reads as (archiver `NSArchiver`). A binary cookie store is reported as
    /// format `binarycookies`, with its cookie count; a bookmark file as
    /// `bookmark` (or `alias`, a Finder alias file), with its target path; an
    /// iOS compiled nib as `nibarchive`, with the archive it reads as
    /// (archiver `NIBArchive`); a `.DS_Store` file as `dsstore`, with the
    /// number of file names it has records for.
    package init(_ bytes: [UInt8]) throws {
        let read = bytes.withUnsafeBytes { FormatSniffer.kind($0) }.flatMap(\.formatName)
        let cookies = read == "binarycookies"
        let typedstream = Typedstream.looksLikeTypedstream(bytes)
        let document = try Typedstream.readDocument(bytes)
        let bplist = document.format == .binary && !typedstream && read == nil
        var r = PlistDictionary()
        r["format"] = .string(read ?? (typedstream ? "typedstream" : document.format.rawValue))
        if read == "bookmark" || read == "alias" {
            let bookmark = Bookmark.decode(bytes)
            r["bookmarkTables"] = .int(Int64(bookmark?.tables.count ?? 0))
            if case .dictionary(let d)? = bookmark?.value, case .string(let path)? = d["path"] { r["target"] = .string(path) }
        }
        if cookies { r["cookies"] = .int(Int64(document.tree.count(of: document.tree.root))) }
        if read == "dsstore" { r["fileNames"] = .int(Int64(document.tree.count(of: document.tree.root))) }
        if bplist {
            r["version"] = .string("bplist00")
        }
        r["size"] = .int(Int64(bytes.count))
        let tree = document.tree
        let counter = TreeCounter(tree)
        r["values"] = .int(Int64(counter.values))
        r["maxDepth"] = .int(Int64(counter.maxDepth))
        if bplist {
            let b = try BinaryPlistInfo(bytes)
            r["trailer"] = .dictionary(PlistDictionary([
                ("offsetSize", .int(Int64(b.offsetSize))), ("referenceSize", .int(Int64(b.referenceSize))),
                ("objects", .int(Int64(b.objectCount))), ("topObject", .int(Int64(b.topObject))),
                ("offsetTable", .int(Int64(b.offsetTableOffset))), ("objectsWrittenMoreThanOnce", .int(Int64(b.duplicateObjects))),
            ]))
        }
        if KeyedArchive.looksLikeArchive(tree) {
            r["archive"] = try Self.archive(tree)
        }
        let nested = Self.nested(in: tree)
        if !nested.isEmpty { r["nestedArchives"] = .array(nested) }
        report = r
    }

    private static func archive(_ tree: PlistTree) throws -> PlistValue {
        let archive = try KeyedArchive(tree)
        let graph = ObjectGraph(archive)
        var census = ClassCensus()
        census.add(graph)
        let violations = SecureCodingCheck.violations(in: graph, policy: SecurePolicy(allowing: []))
        var notAllowed: [String] = []
        var inline = 0
        for v in violations {
            switch v.problem {
            case .classNotAllowed: if !notAllowed.contains(v.className.readable) { notAllowed.append(v.className.readable) }
            case .inlinePrimitive: inline += 1
            }
        }
        let objects = graph.objectCount
        return .dictionary(PlistDictionary([
            ("archiver", .string(archive.readFrom ?? archive.archiver)), ("version", .integer(archive.version)),
            ("topKeys", .array(archive.topEntries.map { .string($0.key) })),
            ("objects", .int(Int64(objects))), ("entries", .int(Int64(archive.objects.count))),
            ("classes", .array(census.entries.map { e in
                .dictionary(PlistDictionary([("name", .string(e.name.readable)), ("archived", .string(e.name.archived)),
                                             ("count", .int(Int64(e.count))), ("foundation", .bool(e.isFoundation)),
                                             ("framework", .string(e.framework))]))
            })),
            ("secure", .dictionary(PlistDictionary([
                ("passesWithoutAllowlist", .bool(violations.isEmpty)),
                ("classesToAllow", .array(notAllowed.map { .string($0) })),
                ("inlinePrimitives", .int(Int64(inline))),
            ]))),
        ]))
    }

    /// Archives held in data values (at any level), by key path.
    private static func nested(in tree: PlistTree) -> [PlistValue] {
        var out: [PlistValue] = []
        try? NestedArchiveWalk.archives(in: tree, broken: .skip) { archive in
            guard archive.level > 0 else { return }
            let format = archive.kind.map { kind -> String in
                switch kind {
                case .keyedArchive(let f), .propertyList(let f): return f.rawValue
                case .typedstream: return "typedstream"
                case .bookmark: return "bookmark"
                case .json: return "json"
                }
            } ?? ""
            var census = ClassCensus()
            census.add(archive.graph)
            out.append(.dictionary(PlistDictionary([("keyPath", .string(archive.keyPath)), ("format", .string(format)),
                                                    ("size", .int(Int64(archive.size))),
                                                    ("classes", .array(census.entries.map { .string($0.name.readable) }))])))
        }
        return out
    }

    /// The report as indented text lines.
    package var lines: [String] {
        var out: [String] = []
        func int(_ v: PlistValue?) -> String { if case .integer(let i)? = v { return i.description } else { return "?" } }
        func str(_ v: PlistValue?) -> String { v?.stringValue ?? "?" }
        out.append("format: \(str(report["format"]))\(report["version"].map { " (\(str($0)))" } ?? ""), \(int(report["size"])) bytes")
        if let cookies = report["cookies"] { out.append("cookies: \(int(cookies))") }
        if let names = report["fileNames"] { out.append("file names: \(int(names))") }
        if let tables = report["bookmarkTables"] {
            out.append(int(tables) == "0" ? "bookmark: not decoded" : "bookmark: \(int(tables)) table(s) of contents\(report["target"].map { ", target \(str($0))" } ?? "")")
        }
        out.append("values: \(int(report["values"])), depth: \(int(report["maxDepth"]))")
        if case .dictionary(let t)? = report["trailer"] {
            out.append("trailer: offset size \(int(t["offsetSize"])), reference size \(int(t["referenceSize"])), \(int(t["objects"])) objects, top object \(int(t["topObject"])), offset table at \(int(t["offsetTable"]))")
            out.append("objects written more than once: \(int(t["objectsWrittenMoreThanOnce"]))")
        }
        if case .dictionary(let a)? = report["archive"] {
            let tops = (a["topKeys"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
            // A typedstream's envelope version is the one it is read into, not the stream's own.
            let typedstream = str(a["archiver"]) == "NSArchiver", nib = str(a["archiver"]) == "NIBArchive"
            let kind = typedstream ? "NSArchiver typedstream" : nib ? "NIBArchive (iOS compiled nib)"
                : "keyed archive: \(str(a["archiver"])) version \(int(a["version"]))"
            out.append("\(kind), top keys: \(tops), \(int(a["objects"])) objects in \(int(a["entries"])) entries")
            for c in a["classes"]?.arrayValue ?? [] {
                guard case .dictionary(let d) = c else { continue }
                // The framework as `classes` labels it (the class catalogue's).
                let kind = d["framework"]?.stringValue ?? (d["foundation"] == .bool(true) ? "Foundation" : "custom")
                let archived = str(d["archived"]) == str(d["name"]) ? "" : " (\(str(d["archived"])))"
                out.append("  class \(str(d["name"]))\(archived): \(int(d["count"])) (\(kind))")
            }
            if case .dictionary(let s)? = a["secure"] {
                let passes = s["passesWithoutAllowlist"] == .bool(true)
                var why: [String] = []
                if !passes {
                    let classes = (s["classesToAllow"]?.arrayValue ?? []).compactMap(\.stringValue)
                    if !classes.isEmpty { why.append("allow \(classes.joined(separator: ", "))") }
                    if int(s["inlinePrimitives"]) != "0" { why.append("box \(int(s["inlinePrimitives"])) inline primitives") }
                }
                if typedstream || nib {
                    // NSUnarchiver and UINibDecoder have no secure coding: what lint --secure checks is the objects' classes and fields.
                    let verdict = passes ? "they pass with no allowlist" : "they fail (\(why.joined(separator: "; ")))"
                    let reader = typedstream ? "a typedstream (NSUnarchiver" : "a nib (UINibDecoder"
                    out.append("secure coding: none in \(reader) reads it, no secure decoder); lint --secure checks its objects as a keyed archive's: \(verdict)")
                } else if passes {
                    out.append("secure coding: passes lint --secure with no allowlist")
                } else {
                    out.append("secure coding: fails lint --secure (\(why.joined(separator: "; ")))")
                }
            }
        }
        for n in report["nestedArchives"]?.arrayValue ?? [] {
            guard case .dictionary(let d) = n else { continue }
            let classes = (d["classes"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
            out.append("nested archive at \(str(d["keyPath"])): \(str(d["format"])), \(int(d["size"])) bytes\(classes.isEmpty ? "" : ", classes \(classes)")")
        }
        return out
    }
}

/// Counts values and nesting depth without recursion limits beyond the reader's.
/// How many values a tree shows (a shared node counted at each place, as a
/// reader's value form expands it) and how deep it nests: each node is
/// counted once and its totals reused, so sharing costs nothing.
struct TreeCounter {
    private(set) var values = 0
    private(set) var maxDepth = 0

    init(_ tree: PlistTree) {
        // Children are finished before their parents: a node is pushed again
        // (as done) after its children.
        var total = [Int](repeating: -1, count: tree.nodeCount)
        var depth = [Int](repeating: 0, count: tree.nodeCount)
        var stack: [(node: Int, done: Bool)] = [(tree.root, false)]
        while let (node, done) = stack.popLast() {
            let kind = tree.kind(of: node)
            let children = kind == .array || kind == .dictionary ? tree.count(of: node) : 0
            func child(_ i: Int) -> Int { kind == .array ? tree.element(i, of: node) : tree.entry(i, of: node).value }
            if !done {
                guard total[node] < 0 else { continue }
                stack.append((node, true))
                for i in 0..<children where total[child(i)] < 0 { stack.append((child(i), false)) }
                continue
            }
            var sum = 1, deepest = 0
            for i in 0..<children {
                let c = child(i)
                sum = sum.addingReportingOverflow(max(total[c], 0)).partialValue
                if sum < 0 { sum = Int.max }
                deepest = max(deepest, depth[c])
            }
            total[node] = sum
            depth[node] = deepest + 1
        }
        values = max(total[tree.root], 0)
        maxDepth = depth[tree.root]
    }
}
