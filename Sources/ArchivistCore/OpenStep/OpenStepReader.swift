/// Reads old-style (NeXTSTEP/OpenStep) property lists, including `.strings`
/// files and Xcode `project.pbxproj` files, accepting what Core Foundation
/// accepts:
///
/// - `{ key = value; ... }` dictionaries (every pair ends with `;`; `key;` is
///   short for `key = key;`), `( a, b, )` arrays (a trailing comma is allowed),
///   `<0fbd 7777>` data, and strings: quoted with `"` or `'`, or unquoted when
///   made of `[A-Za-z0-9_$/:.-]`. Every scalar is a string: OpenStep has no
///   numbers, booleans or dates.
/// - Escapes `\n \t \r \a \b \f \v`, `\UXXXX` (UTF-16, pairs combine), octal
///   `\NNN` (a NeXTSTEP-encoded byte); any other escaped character is itself.
/// - `//` and `/* */` comments wherever whitespace may be.
/// - A top level of `key = value;` pairs without braces (a strings file) is a
///   dictionary; empty or whitespace-only text is an empty dictionary.
/// - UTF-8 text, with or without a BOM; UTF-16/32 text with a BOM.
///
/// Stricter than Core Foundation in one place: text left over after a strings
/// file's last pair is an error (CF stops reading there and ignores the rest).
/// A repeated key keeps its last value and is reported as a diagnostic, as is a
/// lone surrogate escape (read as U+FFFD).
package enum OpenStepReader {
    /// Reads the OpenStep text in `buffer`. Errors carry the line and column.
    package static func read(_ buffer: UnsafeRawBufferPointer, options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try TextInput.withUTF8Text(buffer, limits: options.limits) { text in
            var parser = OpenStepParser(text: text, limits: options.limits)
            let tree = try parser.parseDocument()
            var document = PlistDocument(tree: tree, format: .openstep, diagnostics: parser.diagnostics)
            document.xcodeProjectName = XcodeProjectName.inComments(text.assumingMemoryBound(to: UInt8.self))
            document.stringsTemplate = StringsFileTemplate.make(text: text, raw: buffer, tree: tree)
            return document
        }
    }

    /// Reads OpenStep text from bytes.
    package static func read(_ bytes: [UInt8], options: ReadOptions = ReadOptions()) throws -> PlistDocument {
        try bytes.withUnsafeBytes { try read($0, options: options) }
    }
}
