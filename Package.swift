// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Archivist",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ArchivistCore", targets: ["ArchivistCore"]),
        .library(name: "ArchivistArchive", targets: ["ArchivistArchive"]),
        .executable(name: "archivist", targets: ["archivist"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(
            name: "CArchivistSupport"
        ),
        .target(
            name: "ArchivistCore",
            dependencies: ["CLibXML2", "CArchivistSupport"]
        ),
        .target(
            name: "ArchivistArchive",
            dependencies: ["ArchivistCore"]
        ),
        .executableTarget(
            name: "archivist",
            dependencies: [
                "ArchivistCore",
                "ArchivistArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "fixture-gen",
            dependencies: ["ArchivistCore"],
            path: "tools/fixture-gen"
        ),
        .executableTarget(
            name: "bench-foundation",
            dependencies: ["ArchivistCore"],
            path: "tools/bench-foundation"
        ),
        .testTarget(
            name: "ArchivistCoreTests",
            dependencies: ["ArchivistCore"]
        ),
        .testTarget(
            name: "ArchivistArchiveTests",
            dependencies: ["ArchivistArchive", "ArchivistCore"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "ArchivistCLITests",
            dependencies: ["archivist", "ArchivistCore"]
        ),
    ]
)
