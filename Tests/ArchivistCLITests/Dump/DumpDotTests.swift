import ArchivistTestSupport
import Foundation
import XCTest

/// A vertex of a small graph: a name, an inline weight, edges to others and
/// an owner (a reference back up, closing a cycle).
final class Vertex: NSObject, NSCoding {
    let name: String
    let weight: Int
    var next: [Vertex] = []
    var owner: Vertex?
    init(_ name: String, weight: Int) { self.name = name; self.weight = weight }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(weight, forKey: "weight")
        coder.encode(next, forKey: "next")
        coder.encode(owner, forKey: "owner")
    }
    init?(coder: NSCoder) { nil }
}

/// `dump --format dot`, rendered by Graphviz's real `dot`.
extension CLITests {
    /// One `<g class="node|edge">` of an SVG: its title, texts, and whether it is dashed.
    struct SVGElement {
        var kind: String
        var title: String
        var texts: [String]
        var dashed: Bool
    }

    static func unescapeSVG(_ s: String) -> String {
        s.replacingOccurrences(of: "&#45;", with: "-").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#160;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
    }

    func svgElements(_ svg: String) throws -> [SVGElement] {
        let group = try NSRegularExpression(pattern: #"<g id="[^"]*" class="(node|edge)">\s*<title>(.*?)</title>(.*?)</g>"#, options: [.dotMatchesLineSeparators])
        let text = try NSRegularExpression(pattern: #"<text[^>]*>(.*?)</text>"#)
        return group.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).compactMap { m in
            guard let kind = Range(m.range(at: 1), in: svg), let title = Range(m.range(at: 2), in: svg), let body = Range(m.range(at: 3), in: svg) else { return nil }
            let inner = String(svg[body])
            let texts = text.matches(in: inner, range: NSRange(inner.startIndex..., in: inner)).compactMap { t in
                Range(t.range(at: 1), in: inner).map { Self.unescapeSVG(String(inner[$0])) }
            }
            return SVGElement(kind: String(svg[kind]), title: Self.unescapeSVG(String(svg[title])), texts: texts, dashed: inner.contains("stroke-dasharray"))
        }
    }

    /// Graphviz's `dot`; CI installs it, so there its absence is a failure.
    func graphvizDot() throws -> URL? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            XCTFail("Graphviz's dot is not installed; tools/test installs the graphviz package")
            return nil
        }
        throw XCTSkip("Graphviz's dot is not installed (tools/test installs it: apt-get install graphviz)")
    }

    func testDumpDotRendersWithGraphviz() throws {
        guard let dot = try graphvizDot() else { return }
        // a -> [b, c], b -> [c]: c is shared; c's owner is a: a cycle.
        let a = Vertex("a", weight: 1), b = Vertex("b", weight: 2), c = Vertex("c", weight: 3)
        a.next = [b, c]
        b.next = [c]
        c.owner = a
        let data = try NSKeyedArchiver.archivedData(withRootObject: a, requiringSecureCoding: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: work.appendingPathComponent("graph.plist").path, contents: data))

        let dump = try run(["dump", "--format", "dot", "graph.plist"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let rendered = try ProcessRunner.run(dot, ["-Tsvg"], stdin: .bytes(dump.output))
        let svg = rendered.stdout, dotErrors = rendered.stderr
        XCTAssertEqual(rendered.status, 0, dotErrors)
        XCTAssertEqual(dotErrors, "", "dot reads the file without a warning")

        let elements = try svgElements(svg)
        let nodes = elements.filter { $0.kind == "node" }, edges = elements.filter { $0.kind == "edge" }
        // $top, three vertices and their three arrays: each object once.
        XCTAssertEqual(nodes.count, 7, "\(nodes.map(\.texts))")
        let className = NSStringFromClass(Vertex.self)
        func vertex(_ name: String) throws -> SVGElement {
            try XCTUnwrap(nodes.first { $0.texts.contains("name = \"\(name)\"") }, "\(name) in \(nodes.map(\.texts))")
        }
        for (name, weight) in [("a", 1), ("b", 2), ("c", 3)] {
            let v = try vertex(name)
            XCTAssertEqual(v.texts.first, className)
            XCTAssertTrue(v.texts.contains("weight = \(weight) (inline integer)"), "\(v.texts)")
        }
        XCTAssertEqual(nodes.filter { $0.texts.first == "NSArray" }.count, 3)
        let (aID, bID, cID) = (try vertex("a").title, try vertex("b").title, try vertex("c").title)
        func into(_ id: String) -> [SVGElement] { edges.filter { $0.title.hasSuffix("->" + id) } }
        XCTAssertEqual(into(aID).flatMap(\.texts).sorted(), ["owner", "root"], "root from $top, owner from c")
        XCTAssertEqual(into(cID).count, 2, "the shared vertex is drawn once and referred to twice")
        XCTAssertEqual(into(bID).map(\.texts), [["0"]])
        // The reference that closes the cycle is the one dashed back-edge.
        let dashed = edges.filter(\.dashed)
        XCTAssertEqual(dashed.map(\.title), ["\(cID)->\(aID)"])
        XCTAssertEqual(dashed.first?.texts, ["owner"])
        XCTAssertEqual(Set(edges.flatMap(\.texts)), ["root", "next", "0", "1", "owner"])

        // A plain property list has no graph to draw; a key path leads into a nested archive.
        let plain = try run(["dump", "--format", "dot", corpus("foundation/info-plist.bplist")])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.contains("draws keyed archives"), plain.stderr)
        let nested = try run(["dump", "--format", "dot", "--key-path", "currentUser.root", corpus("archives/preferences-with-user.plist")])
        XCTAssertEqual(nested.status, 0, nested.stderr)
        XCTAssertTrue(nested.stdout.contains(#"age = 36 (inline integer)"#), nested.stdout)
        XCTAssertEqual(try run(["dump", "--format", "dot", "--raw", "graph.plist"]).status, 64)
    }
}
