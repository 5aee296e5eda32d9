/// Archivist's version: the one place it is written. `archivist --version`
/// prints it, and the release archive's name and the manual page take it from
/// there (`tools/release/build`); CHANGELOG.md has a section for it.
let archivistVersion = "0.1.0"
