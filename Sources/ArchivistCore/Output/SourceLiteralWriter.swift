/// Writes a property-list tree as the Swift or Objective-C source of a
/// literal, as `plutil -convert swift|objc` does: a comment naming the file it
/// came from, then one constant named after it, one entry a line, tab
/// indentation, a comma after every element, keys sorted by UTF-16 code units
/// (as Core Foundation sorts them) unless `options.keepKeyOrder` is set.
///
/// ```swift
/// /// Generated from Info.plist
/// let Info: [String: Any] = [
/// 	"CFBundleName" : "My App",
/// 	"Sizes" : [
/// 		1,
/// 		2.5,
/// 	] as [Any],
/// ]
/// ```
///
/// ```objc
/// /// Generated from Info.plist
/// __attribute__((visibility("hidden")))
/// NSDictionary * const Info = @{
/// 	@"CFBundleName" : @"My App",
/// 	@"Sizes" : @[
/// 		@1,
/// 		@2.5,
/// 	],
/// };
/// ```
///
/// In Swift a container whose elements are not all strings, all integers,
/// all reals or all booleans is written with its type (`as [Any]`,
/// `as [String: Any]`), so it compiles and keeps every element's type.
/// Literals hold strings, numbers, booleans, arrays and dictionaries only:
/// like plutil, the writer refuses dates and data (and UIDs and null) with an
/// error naming their key path.
package enum SourceLiteralWriter {
    /// The source of `tree` as a constant `name`, with a comment naming `origin`.
    package static func write(_ tree: PlistTree, language: SourceLanguage, name: String, origin: String,
                             options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        let out = ByteSink()
        try tree.withView { try write(&$0, language: language, name: name, origin: origin, options: options, into: out) }
        return out.bytes()
    }

    /// Appends the source of `source` to `out`, ending with a newline.
    package static func write<S: PlistNodes>(_ source: inout S, language: SourceLanguage, name: String, origin: String,
                                             options: WriteOptions = WriteOptions(), into out: ByteSink) throws {
        let syntax = SourceLiteralSyntax(language: language)
        let identifier = SourceLanguage.identifier(from: name)
        out.append(utf8: "/// Generated from \(SourceLanguage.commentSafe(origin))\n")
        out.append(utf8: syntax.declaration(identifier, of: try source.item(source.rootNode)))
        var walk = PlistTraversal(sortKeys: !options.keepKeyOrder)
        var scratch: [UInt8] = []
        // Per open container: the kind its elements share so far (nil: mixed or none yet).
        var shared: [SourceLiteralSyntax.ElementKind?] = []
        while let step = try walk.next(in: &source) {
            switch step {
            case .scalar(let scalar, let slot):
                try begin(slot, depth: walk.depth, syntax: syntax, source: &source, scratch: &scratch, into: out)
                guard let kind = try syntax.appendScalar(scalar, scratch: &scratch, into: out) else {
                    let path = walk.keyPath(to: slot, in: &source)
                    walk.abandon(in: &source)
                    throw syntax.notRepresentable(scalar.kind, at: path)
                }
                note(kind, at: slot, in: &shared)
                finish(slot, into: out)
            case .beginArray(_, let slot), .beginDictionary(_, let slot):
                try begin(slot, depth: walk.depth - 1, syntax: syntax, source: &source, scratch: &scratch, into: out)
                note(.container, at: slot, in: &shared)
                if case .beginArray = step { out.append(syntax.openArray) } else { out.append(syntax.openDictionary) }
                shared.append(.empty)
            case .endArray(let count, let slot), .endDictionary(let count, let slot):
                let isArray: Bool
                if case .endArray = step { isArray = true } else { isArray = false }
                let elements = shared.popLast() ?? nil
                if count == 0 {
                    out.append(isArray ? syntax.emptyArray : syntax.emptyDictionary)
                } else {
                    out.append(0x0A)
                    out.append(repeating: 0x09, count: walk.depth)
                    out.append(isArray ? syntax.closeArray : syntax.closeDictionary)
                }
                if case .root = slot {} else if syntax.needsType(elements: elements, count: count) {
                    out.append(isArray ? syntax.arrayType : syntax.dictionaryType)
                }
                finish(slot, into: out)
            }
        }
        out.append(syntax.statementEnd)
        out.append(0x0A)
    }

    /// Records the kind of a container's element (the root has no container).
    private static func note(_ kind: SourceLiteralSyntax.ElementKind, at slot: PlistTraversal.Slot,
                             in shared: inout [SourceLiteralSyntax.ElementKind?]) {
        if case .root = slot { return }
        guard let t = shared.indices.last else { return }
        if shared[t] == .empty {
            shared[t] = kind
        } else if shared[t] != kind {
            shared[t] = nil
        }
    }

    /// The line break, indent and key that come before a node.
    private static func begin<S: PlistNodes>(_ slot: PlistTraversal.Slot, depth: Int, syntax: SourceLiteralSyntax,
                                             source: inout S, scratch: inout [UInt8], into out: ByteSink) throws {
        switch slot {
        case .root:
            break
        case .element:
            out.append(0x0A)
            out.append(repeating: 0x09, count: depth)
        case .entry(let key, _):
            guard case .string(let text) = try source.item(key) else {
                throw PlistError(.invalidValue, "a dictionary key is not a string")
            }
            out.append(0x0A)
            out.append(repeating: 0x09, count: depth)
            syntax.appendString(text, scratch: &scratch, into: out)
            out.append(" : ")
        }
    }

    /// The comma after every element and entry.
    private static func finish(_ slot: PlistTraversal.Slot, into out: ByteSink) {
        if case .root = slot { return }
        out.append(UInt8(ascii: ","))
    }
}
