// swift-tools-version:6.0
// Archivist: property lists and NSKeyedArchiver archives for Linux and macOS.
// Licensed under the Apache License, Version 2.0 (see LICENSE).
import PackageDescription

let package = Package(
    name: "Archivist",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ArchivistCore", targets: ["ArchivistCore"]),
        .library(name: "ArchivistArchive", targets: ["ArchivistArchive"]),
        .library(name: "ArchivistDatabase", targets: ["ArchivistDatabase"]),
        .executable(name: "archivist", targets: ["archivist"]),
        .plugin(name: "ArchivistLintPlugin", targets: ["ArchivistLintPlugin"]),
        .plugin(name: "ArchivistCommandPlugin", targets: ["ArchivistCommandPlugin"]),
        .plugin(name: "ArchivistWriteCommandPlugin", targets: ["ArchivistWriteCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Documentation only (`swift package generate-documentation`); nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // CMS (PKCS #7) envelopes of signed profiles: ASN.1 DER/BER parsing and
        // X.509 certificates. Only ArchivistSigned links them (not the core,
        // which has no Foundation and stays small, nor the library products).
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "CArchivistSupport"
        ),
        // libxml2 and SQLite, loaded on Linux the first time one of their
        // functions is called (not linked: a run that needs neither starts
        // without them); linked as usual on macOS.
        .target(
            name: "CSystemLibraryLoader",
            dependencies: ["CLibXML2", "CSQLite"],
            linkerSettings: [
                .linkedLibrary("dl", .when(platforms: [.linux])),
                .linkedLibrary("xml2", .when(platforms: [.macOS])),
                .linkedLibrary("sqlite3", .when(platforms: [.macOS])),
            ]
        ),
        .target(
            name: "ArchivistCore",
            dependencies: ["CLibXML2", "CSystemLibraryLoader", "CArchivistSupport"]
        ),
        // Signed profiles (`.mobileprovision`, `.provisionprofile`, signed
        // `.mobileconfig`): the CMS SignedData envelope read with swift-asn1 and
        // swift-certificates, its property list read by the core. Package API,
        // not a product: the command and ArchivistBatch use it.
        .target(
            name: "ArchivistSigned",
            dependencies: [
                "ArchivistCore",
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .target(
            name: "ArchivistBatch",
            dependencies: ["ArchivistCore", "ArchivistSigned", "CArchivistSupport"]
        ),
        // iOS compiled nibs (NIBArchive), read into the tree of a keyed archive.
        .target(
            name: "ArchivistNIB",
            dependencies: ["ArchivistCore"]
        ),
        .target(
            name: "ArchivistArchive",
            dependencies: ["ArchivistCore", "ArchivistNIB"],
            // The class catalogue's examples that Foundation archives, in the
            // builds tests run (ClassExample.Source.foundation): the release
            // binary then links FoundationEssentials alone.
            swiftSettings: [.define("ARCHIVIST_EXAMPLES", .when(configuration: .debug))]
        ),
        // Three-way merges of property lists and Xcode projects (`archivist merge`): package types only.
        .target(
            name: "ArchivistMerge",
            dependencies: ["ArchivistCore"]
        ),
        .target(
            name: "ArchivistDatabase",
            dependencies: ["ArchivistArchive", "ArchivistCore", "CSQLite", "CSystemLibraryLoader"]
        ),
        .executableTarget(
            name: "archivist",
            dependencies: [
                "ArchivistCore",
                "ArchivistBatch",
                "ArchivistArchive",
                "ArchivistDatabase",
                "ArchivistMerge",
                "ArchivistSigned",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Lints a target's property lists on every build (docs/guide/build-plugins.md).
        .plugin(
            name: "ArchivistLintPlugin",
            capability: .buildTool(),
            dependencies: ["archivist"]
        ),
        // `swift package archivist lint|dump|classes|info|get|diff|schema ...`: reads only.
        .plugin(
            name: "ArchivistCommandPlugin",
            capability: .command(
                intent: .custom(verb: "archivist", description: "Run an archivist command that only reads (lint, dump, classes, info, get, diff, schema) on the package's files."),
                permissions: []
            ),
            dependencies: ["archivist"]
        ),
        // `swift package --allow-writing-to-package-directory archivist-write convert|migrate|set|remove|codegen ...`.
        .plugin(
            name: "ArchivistWriteCommandPlugin",
            capability: .command(
                intent: .custom(verb: "archivist-write", description: "Run any archivist command, convert, migrate, set, remove and codegen included, on the package's files."),
                permissions: [.writeToPackageDirectory(reason: "archivist-write runs commands that write files (convert, migrate, set, remove, codegen).")]
            ),
            dependencies: ["archivist"]
        ),
        .executableTarget(
            name: "fixture-gen",
            dependencies: ["ArchivistCore"],
            path: "tools/fixture-gen"
        ),
        .executableTarget(
            name: "bench-foundation",
            dependencies: ["ArchivistCore", "ArchivistBatch", "ArchivistSigned", "ArchivistArchive"],
            path: "tools/bench-foundation"
        ),
        // What every test target shares: where the repository's and the shared folders' data are.
        .target(
            name: "ArchivistTestSupport",
            dependencies: ["ArchivistCore"],
            path: "Tests/ArchivistTestSupport"
        ),
        .testTarget(
            name: "ArchivistCoreTests",
            dependencies: ["ArchivistCore", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "ArchivistBatchTests",
            dependencies: ["ArchivistBatch", "ArchivistCore", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "ArchivistNIBTests",
            dependencies: ["ArchivistNIB", "ArchivistArchive", "ArchivistCore", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "ArchivistArchiveTests",
            dependencies: ["ArchivistArchive", "ArchivistCore", "ArchivistTestSupport"],
            exclude: ["Dump/Golden"],
            swiftSettings: [.define("ARCHIVIST_EXAMPLES", .when(configuration: .debug))]
        ),
        .testTarget(
            name: "ArchivistDatabaseTests",
            dependencies: ["ArchivistDatabase", "ArchivistArchive", "ArchivistCore", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["ArchivistCore", "ArchivistArchive", "ArchivistDatabase", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "ArchivistMergeTests",
            dependencies: ["ArchivistMerge", "ArchivistCore", "ArchivistTestSupport"]
        ),
        .testTarget(
            name: "ArchivistCLITests",
            dependencies: ["archivist", "ArchivistCore", "ArchivistDatabase", "ArchivistSigned", "ArchivistTestSupport"]
        ),
    ]
)

// The API-breakage check (tools/api/check) sets ARCHIVIST_API_CHECK: it needs
// only the library products. Without the plugins nothing is built twice (a
// plugin's `archivist` as a host tool compiles the C modules a second time,
// and swift-api-digester then fails on "redefinition of module"); without the
// executables and tests both builds of the check take less time. Keep this in
// the manifest: the check builds the baseline commit with its own manifest.
if Context.environment["ARCHIVIST_API_CHECK"] != nil {
    package.products.removeAll { !($0 is Product.Library) }
    package.targets.removeAll { [.executable, .test, .plugin].contains($0.type) }
}
