/// Reads JSON (RFC 8259, strictly) into a property-list tree.
///
/// Objects become dictionaries (key order kept), arrays arrays, strings strings,
/// `true`/`false` booleans. Numbers without fraction or exponent in
/// `Int64.min...UInt64.max` become exact integers; all other numbers become
/// correctly rounded reals. `null` has no property-list equivalent and is an
/// error. A repeated key keeps its last value (as Apple's parsers do) and is
/// reported as a diagnostic, as is a lone surrogate escape (read as U+FFFD).
/// UTF-8 input may start with a BOM; UTF-16 and UTF-32 input is recognised by
/// its BOM or, without one, by the NUL bytes around the first characters.
package enum JSONPlistReader {
    /// Reads the JSON text in `buffer`. Errors carry the line and column.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try TextInput.withUTF8Text(buffer, limits: options.limits, detectsUnmarkedUTF16or32: true) { text in
            var parser = JSONParser(text: text, limits: options.limits)
            let tree = try parser.parseDocument()
            return PlistDocument(tree: tree, format: .json, diagnostics: parser.diagnostics)
        }
    }

    /// Reads JSON from bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }
}
