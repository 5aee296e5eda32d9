import ArchivistCore

/// An archive's object graph in Graphviz's DOT language (`dump --format dot`):
/// one node per object reachable from `$top` (custom objects and Foundation
/// collections) labelled with its class and its scalar fields, one edge per
/// reference to another object labelled with its key (or index), an object
/// referenced from several places drawn once, and each reference that closes
/// a cycle drawn as a dashed back-edge. Strings, numbers, dates and other
/// Foundation values are shown in the node that holds them.
package enum ArchiveGraphviz {
    /// The most fields a node lists; the rest are counted.
    static let maxLines = 64
    /// The longest value text shown; longer ones end with `…`.
    static let maxValueLength = 80

    /// The DOT text of a graph, from its `$top` entries.
    package static func render(_ graph: ObjectGraph) -> String {
        var writer = Writer(graph: graph)
        return writer.render(top: graph.topEntries, title: "$top")
    }

    /// The DOT text of the part of a graph reachable from one object (what a
    /// key path leads to), the start named by that path.
    package static func render(_ graph: ObjectGraph, from node: Int, named name: String) -> String {
        var writer = Writer(graph: graph)
        return writer.render(top: [(name, .object(node))], title: "")
    }

    /// One reference from a node: where it points and what it is called.
    struct Edge {
        var label: String
        var target: Int
    }

    struct Writer {
        let graph: ObjectGraph
        var out = DumpBuffer(ByteSink())
        /// 0: not met, 1: on the current path, 2: done.
        var state: [UInt8]
        /// Whether each entry is drawn as a node, once known (a large shared
        /// collection is examined once, however many refer to it).
        var drawn: [Bool?]

        init(graph: ObjectGraph) {
            self.graph = graph
            state = [UInt8](repeating: 0, count: graph.nodes.count)
            drawn = [Bool?](repeating: nil, count: graph.nodes.count)
        }

        mutating func render(top: [(key: String, entry: TopEntry)], title: String) -> String {
            out += "digraph archive {\n"
            out += "  node [shape=box, fontname=\"Helvetica\"];\n"
            out += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
            var topLines: [String] = []
            var roots: [Edge] = []
            for (key, entry) in top {
                let index: Int
                switch entry {
                case .object(let object): index = object
                case .value(let v):
                    topLines.append("\(key) = \(Self.clipped(DumpText.scalar(v)))" + Self.inlineNote(v))
                    continue
                }
                if isNode(index) { roots.append(Edge(label: key, target: index)) } else { topLines.append("\(key) = \(text(index))") }
            }
            out += "  top [shape=plaintext, label=\(Self.quoted(Self.label(title, topLines)))];\n"
            for root in roots {
                out += "  top -> o\(root.target) [label=\(Self.quoted(Self.escaped(root.label)))];\n"
                walk(from: root.target)
            }
            out += "}\n"
            return out.text
        }

        /// Depth first without recursion (object chains can be long): each
        /// node is written when first met; an edge to a node on the current
        /// path is a back-edge.
        private mutating func walk(from start: Int) {
            guard state[start] == 0 else { return }
            var stack: [(node: Int, edges: [Edge], next: Int)] = [(start, enter(start), 0)]
            while let top = stack.indices.last {
                let node = stack[top].node, next = stack[top].next
                guard next < stack[top].edges.count else {
                    state[node] = 2
                    stack.removeLast()
                    continue
                }
                stack[top].next += 1
                let edge = stack[top].edges[next]
                let back = state[edge.target] == 1
                out += "  o\(node) -> o\(edge.target) [label=\(Self.quoted(Self.escaped(edge.label)))"
                out += back ? ", style=dashed, constraint=false];\n" : "];\n"
                if state[edge.target] == 0 { stack.append((edge.target, enter(edge.target), 0)) }
            }
        }

        /// Writes a node and returns its edges.
        private mutating func enter(_ index: Int) -> [Edge] {
            state[index] = 1
            var lines: [String] = []
            var edges: [Edge] = []
            func add(_ name: String, _ target: Int) {
                if isNode(target) { edges.append(Edge(label: name, target: target)) } else { lines.append("\(name) = \(text(target))") }
            }
            guard case .object(let o) = graph.nodes[index] else { return [] }
            let value = FoundationValue.interpret(o, in: graph)
            switch value {
            case .list(let refs)?:
                for (i, r) in refs.enumerated() { add(String(i), r) }
            case .map(let keys, let values)?:
                for (k, v) in zip(keys, values) { add(graph.string(.reference(k)) ?? text(k), v) }
            case .counted(let entries)?:
                for (i, entry) in entries.enumerated() { add("\(i) × \(entry.count)", entry.object) }
            case .string?, .data?, .date?, .described?, .url?, .null?, .attributedString?, .line?, nil:
                if case .line(let line)? = value { lines.append(Self.clipped(line.text(in: graph))) }
                for field in o.fields {
                    switch field.value {
                    case .inline(let v):
                        lines.append("\(field.key) = \(Self.clipped(DumpText.scalar(v)))" + Self.inlineNote(v))
                    case .reference(let r):
                        add(field.key, r)
                    case .references(let refs):
                        for (i, r) in refs.enumerated() { add("\(field.key).\(i)", r) }
                    }
                }
            }
            out += "  o\(index) [label=\(Self.quoted(Self.label(o.className.description, lines)))];\n"
            return edges
        }

        /// Objects drawn as nodes: custom objects and Foundation collections.
        private mutating func isNode(_ index: Int) -> Bool {
            guard case .object(let o)? = graph.nodes[safe: index] else { return false }
            if let known = drawn[index] { return known }
            let node: Bool
            let value = FoundationValue.interpret(o, in: graph)
            switch value?.shape {
            case nil, .sequence?, .map?, .countedSet?, .opaque?: node = true
            // A line (a connector, a record ID) or caption is drawn with its fields, so its references stay edges.
            case .scalar? where value?.isLine == true: node = true
            case .text?, .attributedText?, .bytes?, .date?, .reference?, .null?, .scalar?: node = false
            }
            drawn[index] = node
            return node
        }

        /// A value shown inside a node, as `dump` spells it on one line.
        private func text(_ index: Int) -> String {
            switch graph.nodes[safe: index] {
            case .null?, nil: return "nil"
            case .classDescription(let name, _)?: return "<class \(name)>"
            case .value(let v)?: return Self.clipped(DumpText.scalar(v))
            case .object(let o)?:
                switch FoundationValue.interpret(o, in: graph) {
                case .string(let s)?: return Self.clipped(DumpText.quoted(s))
                case .attributedString(let a)?: return "\(o.className.readable) " + Self.clipped(DumpText.quoted(a.text))
                case .data(let bytes)?: return DumpText.data(bytes)
                case .date(let t)?: return DumpText.scalar(.date(PlistDate(secondsSinceReferenceDate: t))) + " (\(o.className.readable))"
                case .described(let d)?:
                    switch d.lead {
                    case .className: return Self.clipped("\(o.className.readable) \(d.text)")
                    case .word(let word): return Self.clipped(word + " " + d.text)
                    case .none: return Self.clipped(d.text)
                    }
                case .url(let base, let relative)?:
                    let rel = relative.flatMap { graph.string(.reference($0)) }.map(DumpText.quoted) ?? "nil"
                    let b = base.flatMap { graph.string(.reference($0)) }.map { " relative to " + DumpText.quoted($0) } ?? ""
                    return Self.clipped("URL " + rel + b)
                case .null?: return ClassDescription.nsNull.name
                case nil, .list?, .map?, .counted?, .line?: return o.className.readable
                }
            }
        }

        private static func inlineNote(_ v: PlistValue) -> String {
            switch v {
            case .integer: return " (inline integer)"
            case .real: return " (inline real)"
            case .bool: return " (inline bool)"
            case .string, .date, .data, .array, .dictionary, .uid, .null: return ""
            }
        }

        private static func clipped(_ s: String) -> String {
            s.count > maxValueLength ? String(s.prefix(maxValueLength)) + "…" : s
        }

        /// A box label: the title centred, then one left-aligned line per field.
        static func label(_ title: String, _ lines: [String]) -> String {
            var out = escaped(title)
            guard !lines.isEmpty else { return out }
            out += "\\n"
            for line in lines.prefix(maxLines) { out += escaped(line) + "\\l" }
            if lines.count > maxLines { out += "… \(lines.count - maxLines) more\\l" }
            return out
        }

        /// Text made safe inside a DOT label: backslashes, quotes and line breaks escaped.
        static func escaped(_ s: String) -> String {
            var out = ""
            out.reserveCapacity(s.utf8.count)
            for c in s {
                switch c {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                case "\n", "\r", "\r\n": out += "\\n"
                default: out.append(c)
                }
            }
            return out
        }

        /// A DOT string whose escapes (`\l`, `\n`) are already in place.
        static func quoted(_ s: String) -> String {
            "\"" + s + "\""
        }
    }
}
