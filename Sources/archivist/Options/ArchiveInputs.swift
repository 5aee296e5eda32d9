import ArchivistArchive
import ArchivistBatch
import ArchivistCore

/// The inputs of `schema` and `codegen`: files named on the command line, the
/// files below named folders (recursively, in sorted order) that hold a keyed
/// archive, and the blobs of a store's column (`--sqlite`); others found in
/// folders (images, plain property lists) are skipped. Each document is
/// labelled with its path, or its store, column and row.
enum ArchiveInputs {
    /// The documents read; problems are printed (`PATH: error: ...`) and make
    /// `failed` true, the other inputs are still read. A store that cannot be
    /// read (no such table or column, no blobs) throws.
    static func read(_ paths: [String], store: StoreRowOptions) throws -> (documents: [(label: String, tree: PlistTree)], failed: Bool) {
        var (documents, failed) = try read(paths)
        try store.forEachRow { row in
            do {
                documents.append((row.label, try PropertyList.read(row.bytes).tree))
            } catch let error as PlistError {
                Console.error(error.hinted(path: row.label))
                failed = true
            }
        }
        return (documents, failed)
    }

    /// The rules file (empty rules without one) and the documents, with the
    /// rules checked against the documents' classes as every `--rules`
    /// command checks them (exit 64 on a rules mistake).
    static func readWithRules(_ paths: [String], store: StoreRowOptions, rulesPath: String?) throws
        -> (rules: MigrationRules, documents: [(label: String, tree: PlistTree)], failed: Bool) {
        let rules = try rulesPath.map { try RulesFile.load($0) } ?? MigrationRules()
        let (documents, failed) = try read(paths, store: store)
        if let rulesPath {
            var census = RulesCensus()
            for document in documents { census.add(document.tree) }
            try RulesFile.check(rules, against: census, rulesPath: rulesPath)
        }
        return (rules, documents, failed)
    }

    /// The merged schema of documents: a document that cannot be described is
    /// printed as an error (and makes `failed` true); fields seen with several
    /// types are printed as warnings.
    static func schema(of documents: [(label: String, tree: PlistTree)], rules: MigrationRules) throws -> (schema: CodableSchema, failed: Bool) {
        var schema = CodableSchema(rules: rules)
        var failed = false
        for document in documents {
            do {
                try schema.add(document.tree, label: document.label)
            } catch let error as PlistError {
                Console.error(error.hinted(path: document.label))
                failed = true
            }
        }
        for conflict in schema.conflicts { Console.error("warning: \(conflict)") }
        return (schema, failed)
    }

    private static func read(_ paths: [String]) throws -> (documents: [(label: String, tree: PlistTree)], failed: Bool) {
        var documents: [(label: String, tree: PlistTree)] = []
        var failed = false
        for path in paths {
            let found: [BatchItem]
            let inFolder = path != "-" && FileIO.isDirectory(path)
            do {
                // Files found in a folder are read below its descriptor, with no link followed.
                found = inFolder ? try BatchPlan.items([path], selection: BatchSelection(recursive: true)) { problem in
                    Console.error(FolderOptions.line(for: problem))
                    if problem.isError { failed = true }
                } : [BatchItem(source: path)]
            } catch let error as PlistError {
                Console.error(error.hinted(path: path))
                failed = true
                continue
            }
            for item in found {
                let file = item.source
                do {
                    let bytes = try FileIO.read(item)
                    if inFolder, !BatchPlan.readsInWalk(file, bytes) { continue }
                    let tree = try PropertyList.read(bytes).tree
                    if inFolder, Migrator(rules: MigrationRules()).classNames(in: tree).isEmpty { continue }
                    documents.append((file, tree))
                } catch let error as PlistError {
                    Console.error(error.hinted(path: file))
                    failed = true
                }
            }
        }
        return (documents, failed)
    }
}
