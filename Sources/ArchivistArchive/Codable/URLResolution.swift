/// Joins a relative URL to its base as RFC 3986 section 5.2 does, for NSURL
/// objects archived with `NS.base` and `NS.relative`.
enum URLResolution {
    /// The absolute form of `relative` against `base`.
    static func resolve(_ relative: String, against base: String) -> String {
        if scheme(of: relative) != nil { return relative }
        guard let baseScheme = scheme(of: base) else { return base + relative }
        let afterScheme = base.dropFirst(baseScheme.count + 1)
        var authority = ""
        var basePath = Substring(afterScheme)
        if afterScheme.hasPrefix("//") {
            let rest = afterScheme.dropFirst(2)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            authority = "//" + rest[..<end]
            basePath = rest[end...]
        }
        let pathEnd = basePath.firstIndex { $0 == "?" || $0 == "#" } ?? basePath.endIndex
        let path = basePath[..<pathEnd]
        let query = basePath[pathEnd...].prefix { $0 != "#" }
        if relative.isEmpty { return baseScheme + ":" + authority + path + query }
        if relative.hasPrefix("//") { return baseScheme + ":" + relative }
        if relative.hasPrefix("#") { return baseScheme + ":" + authority + path + query + relative }
        if relative.hasPrefix("?") { return baseScheme + ":" + authority + path + relative }
        let relEnd = relative.firstIndex { $0 == "?" || $0 == "#" } ?? relative.endIndex
        let relPath = String(relative[..<relEnd])
        let merged: String
        if relPath.hasPrefix("/") {
            merged = relPath
        } else if !authority.isEmpty && path.isEmpty {
            merged = "/" + relPath
        } else {
            merged = String(path[..<(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)]) + relPath
        }
        return baseScheme + ":" + authority + removeDotSegments(merged) + relative[relEnd...]
    }

    private static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) else { return nil }
        return String(candidate)
    }

    private static func removeDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
    }
}
