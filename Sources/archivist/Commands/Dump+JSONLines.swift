import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `dump --json-lines`: JSON Lines over files and store rows.
extension Dump {
    /// Writes one line per file (`{"file", "value"}`) or per store row
    /// (`{"row", "label", "labelColumn", "value"}`, the labels with
    /// --label-column), each made whole before it is written and sent out
    /// at once, so a reader sees every line as soon as its input was read
    /// and a file or row that fails leaves no part of a line behind (its
    /// error goes to standard error; the status is then 1).
    func runJSONLines() throws {
        let sink = Console.dataSink()
        var ok = true
        if store.isSet {
            ok = try store.forEachRowReportingErrors { row in
                let document = try DocumentReading.read(row.bytes)
                try writeLine(into: sink) { json in
                    try rowFields(row, into: &json)
                    try jsonView(document, into: &json)
                }
            }
        } else {
            for file in files {
                do {
                    let document = try DocumentReading.read(file: file)
                    try writeLine(into: sink) { json in
                        json.key("file")
                        json.string(file)
                        json.key("value")
                        try jsonView(document, into: &json)
                    }
                } catch let error as PlistError {
                    Console.error(error.hinted(path: file))
                    ok = false
                }
            }
        }
        try sink.finish()
        if !ok { throw ExitCode.failure }
    }

    /// One object on one line: made in memory, then written and flushed.
    private func writeLine(into sink: ByteSink, _ fields: (inout JSONStream) throws -> Void) throws {
        let line = ByteSink()
        var json = JSONStream(into: line, compact: true)
        json.beginObject()
        try fields(&json)
        json.endObject()
        json.finish()
        sink.append(line.bytes())
        try sink.finish()
    }
}
