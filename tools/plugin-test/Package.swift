// swift-tools-version:6.0
// A package that uses Archivist's plugins, as tools/plugin-test/run checks
// them: the build tool plugin lints App's resources on every build, and the
// command plugins run archivist on the package's files. `run` copies this
// folder and points the dependency at the checkout it tests (the path and
// the package's name, which is its folder's name).
import PackageDescription

let package = Package(
    name: "PluginTest",
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "App",
            // archivist.json configures the lint; it is no resource.
            exclude: ["archivist.json"],
            resources: [.copy("Resources")],
            plugins: [.plugin(name: "ArchivistLintPlugin", package: "archivist")]
        ),
    ]
)
