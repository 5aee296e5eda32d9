// swift-tools-version:6.0
// A package that uses Archivist's artifact bundle as a user's package would:
// `archivist` is a binary target, and a command plugin runs it. tools/release/test
// copies this folder with the bundle beside Package.swift (archivist.artifactbundle.zip)
// and runs `swift package run-archivist ARGUMENTS`; nothing here is built from source.
import PackageDescription

let package = Package(
    name: "BundleConsumer",
    targets: [
        .binaryTarget(name: "archivist", path: "archivist.artifactbundle.zip"),
        .plugin(
            name: "RunArchivist",
            capability: .command(
                intent: .custom(verb: "run-archivist", description: "Runs the archivist of the artifact bundle with the given arguments.")
            ),
            dependencies: ["archivist"]
        ),
    ]
)
