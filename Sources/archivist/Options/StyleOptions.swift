import ArchivistCore
import ArgumentParser

/// How results are laid out.
struct StyleOptions: ParsableArguments {
    @Flag(name: .customLong("keep-key-order"), help: "XML and OpenStep: keep dictionary keys in the order read instead of sorting them.")
    var keepKeyOrder = false

    @Flag(help: "JSON: indent for people instead of one compact line.")
    var pretty = false

    @Flag(name: .customLong("generic-layout"),
          help: "OpenStep and JSON: the generic layout for Xcode projects and string catalogs too, instead of Xcode's own.")
    var genericLayout = false

    /// The library's write options for these flags.
    var writeOptions: WriteOptions {
        var options = WriteOptions(keepKeyOrder: keepKeyOrder, pretty: pretty)
        options.layout = genericLayout ? .generic : .automatic
        return options
    }
}
