#ifndef ARCHIVIST_SYSTEM_LIBRARY_LOADER_H
#define ARCHIVIST_SYSTEM_LIBRARY_LOADER_H

/// On Linux, libxml2 and SQLite are not linked into the program: each is
/// loaded (`dlopen` of its versioned name, `libxml2.so.2` and
/// `libsqlite3.so.0`) the first time one of its functions is called, and
/// each function is looked up once. A run that needs neither (reading a
/// binary plist, most XML plists, which the fast reader reads alone) does not
/// load them, nor ICU, zlib, liblzma and libstdc++ they bring with them:
/// the loader's work was a third of a small command's start-up. On macOS
/// they are linked as usual and these report no problem.

/// NULL when libxml2 is loaded (or loads now), else why it cannot be, as
/// `dlerror` said. Call before the first libxml2 function; the message stays
/// valid for the life of the program.
const char *archivist_libxml2_problem(void);

/// NULL when SQLite is loaded (or loads now), else why it cannot be.
const char *archivist_sqlite_problem(void);

#endif
