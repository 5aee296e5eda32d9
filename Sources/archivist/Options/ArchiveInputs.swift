import ArchivistArchive
import ArchivistBatch
import ArchivistCore

/// The inputs of `schema` and `codegen`: files named on the command line, and
/// the files below named folders (recursively, in sorted order) that hold a
/// keyed archive; others found in folders (images, plain property lists) are
/// skipped. Each document is labelled with its path.
enum ArchiveInputs {
    /// The documents read; problems are printed (`PATH: error: ...`) and make
    /// `failed` true, the other inputs are still read.
    static func read(_ paths: [String]) throws -> (documents: [(label: String, value: PlistValue)], failed: Bool) {
        var documents: [(label: String, value: PlistValue)] = []
        var failed = false
        for path in paths {
            let found: [String]
            let inFolder = path != "-" && FileIO.isDirectory(path)
            do {
                found = inFolder ? try FileIO.files(under: path) : [path]
            } catch let error as PlistError {
                Console.error(error.formatted(path: path))
                failed = true
                continue
            }
            for file in found {
                do {
                    let bytes = try FileIO.read(file)
                    if inFolder, !BatchPlan.mayBePropertyList(bytes) { continue }
                    let value = try PropertyList.read(bytes).value
                    if inFolder, Migrator(rules: MigrationRules()).classNames(in: value).isEmpty { continue }
                    documents.append((file, value))
                } catch let error as PlistError {
                    Console.error(error.formatted(path: file))
                    failed = true
                }
            }
        }
        return (documents, failed)
    }
}
