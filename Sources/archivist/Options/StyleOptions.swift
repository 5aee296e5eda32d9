import ArchivistCore
import ArgumentParser

/// How results are laid out.
struct StyleOptions: ParsableArguments {
    @Flag(name: .customLong("keep-key-order"), help: "XML and OpenStep: keep dictionary keys in the order read instead of sorting them.")
    var keepKeyOrder = false

    @Flag(help: "JSON: indent for people instead of one compact line.")
    var pretty = false

    /// The library's write options for these flags.
    var writeOptions: WriteOptions { WriteOptions(keepKeyOrder: keepKeyOrder, pretty: pretty) }
}
