// libxml2 and SQLite loaded on first use (Linux): see SystemLibraryLoader.h.
//
// Each function Archivist calls is defined here under the library's own name
// and signature (the compiler checks it against the library's header), with
// hidden visibility: the program's code calls these definitions, and the
// library, once loaded, never sees them (its own calls stay its own). The
// first call of a function looks it up in the library (loading the library
// the first time) and keeps the address; later calls go straight there.
//
// Where the library cannot be loaded, a function returns what the library
// returns when it cannot start (NULL for a reader or a backup, an error code
// for an open), so no handle ever exists; the Swift callers ask
// `archivist_*_problem()` first and report why.
#include "SystemLibraryLoader.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#pragma GCC visibility push(hidden)
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <sqlite3.h>

/// A library opened once, by its versioned name (the ABI the headers describe).
struct library {
    const char *name;
    void *handle;
    char problem[512];
};

static struct library libxml2 = { "libxml2.so.2", NULL, "" };
static struct library libsqlite = { "libsqlite3.so.0", NULL, "" };
static pthread_once_t libxml2_once = PTHREAD_ONCE_INIT;
static pthread_once_t libsqlite_once = PTHREAD_ONCE_INIT;

static void open_library(struct library *library) {
    // RTLD_LOCAL: the library's symbols stay out of the program's scope.
    library->handle = dlopen(library->name, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == NULL) {
        const char *why = dlerror();
        snprintf(library->problem, sizeof library->problem, "%s", why ? why : library->name);
    }
}

static void open_libxml2(void) { open_library(&libxml2); }
static void open_libsqlite(void) { open_library(&libsqlite); }

static void *libxml2_handle(void) {
    pthread_once(&libxml2_once, open_libxml2);
    return libxml2.handle;
}

static void *libsqlite_handle(void) {
    pthread_once(&libsqlite_once, open_libsqlite);
    return libsqlite.handle;
}

static void *lookup(void *handle, const char *name) {
    return handle ? dlsym(handle, name) : NULL;
}

#pragma GCC visibility pop

const char *archivist_libxml2_problem(void) {
    return libxml2_handle() ? NULL : libxml2.problem;
}

const char *archivist_sqlite_problem(void) {
    return libsqlite_handle() ? NULL : libsqlite.problem;
}

#pragma GCC visibility push(hidden)

/// Defines `NAME` as a call of the library's `NAME`, or `FAILED` when it has none.
#define FORWARD(LIBRARY, RESULT, NAME, PARAMETERS, ARGUMENTS, FAILED)                     \
    RESULT NAME PARAMETERS {                                                              \
        typedef RESULT (*function_t) PARAMETERS;                                          \
        static function_t known;                                                          \
        function_t function = __atomic_load_n(&known, __ATOMIC_ACQUIRE);                  \
        if (function == NULL) {                                                           \
            function = (function_t)lookup(LIBRARY##_handle(), #NAME);                      \
            if (function == NULL) return FAILED;                                          \
            __atomic_store_n(&known, function, __ATOMIC_RELEASE);                         \
        }                                                                                 \
        return function ARGUMENTS;                                                        \
    }

/// `FORWARD` for a function with no result.
#define FORWARD_VOID(LIBRARY, NAME, PARAMETERS, ARGUMENTS)                                \
    void NAME PARAMETERS {                                                                \
        typedef void (*function_t) PARAMETERS;                                            \
        static function_t known;                                                          \
        function_t function = __atomic_load_n(&known, __ATOMIC_ACQUIRE);                  \
        if (function == NULL) {                                                           \
            function = (function_t)lookup(LIBRARY##_handle(), #NAME);                      \
            if (function == NULL) return;                                                 \
            __atomic_store_n(&known, function, __ATOMIC_RELEASE);                         \
        }                                                                                 \
        function ARGUMENTS;                                                               \
    }

// MARK: libxml2 (the reader the XML plist reader falls back to)

FORWARD(libxml2, xmlTextReaderPtr, xmlReaderForMemory,
        (const char *buffer, int size, const char *URL, const char *encoding, int options),
        (buffer, size, URL, encoding, options), NULL)
FORWARD_VOID(libxml2, xmlFreeTextReader, (xmlTextReaderPtr reader), (reader))
FORWARD_VOID(libxml2, xmlTextReaderSetStructuredErrorHandler,
             (xmlTextReaderPtr reader, xmlStructuredErrorFunc f, void *arg), (reader, f, arg))
FORWARD(libxml2, int, xmlTextReaderRead, (xmlTextReaderPtr reader), (reader), -1)
FORWARD(libxml2, int, xmlTextReaderNodeType, (xmlTextReaderPtr reader), (reader), -1)
FORWARD(libxml2, int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr reader), (reader), -1)
FORWARD(libxml2, const xmlChar *, xmlTextReaderConstName, (xmlTextReaderPtr reader), (reader), NULL)
FORWARD(libxml2, const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr reader), (reader), NULL)
FORWARD(libxml2, int, xmlTextReaderGetParserLineNumber, (xmlTextReaderPtr reader), (reader), 0)
FORWARD(libxml2, int, xmlTextReaderGetParserColumnNumber, (xmlTextReaderPtr reader), (reader), 0)
FORWARD(libxml2, xmlNodePtr, xmlTextReaderCurrentNode, (xmlTextReaderPtr reader), (reader), NULL)
FORWARD(libxml2, long, xmlGetLineNo, (const xmlNode *node), (node), -1)

// MARK: SQLite (stores)

/// What the error functions say when SQLite is not there.
static const char not_loaded[] = "SQLite could not be loaded";

FORWARD(libsqlite, int, sqlite3_open_v2, (const char *filename, sqlite3 **db, int flags, const char *vfs),
        (filename, db, flags, vfs), (*db = NULL, SQLITE_CANTOPEN))
FORWARD(libsqlite, int, sqlite3_close, (sqlite3 *db), (db), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_close_v2, (sqlite3 *db), (db), SQLITE_MISUSE)
FORWARD(libsqlite, const char *, sqlite3_errmsg, (sqlite3 *db), (db), not_loaded)
FORWARD(libsqlite, const char *, sqlite3_errstr, (int code), (code), not_loaded)
FORWARD(libsqlite, int, sqlite3_extended_errcode, (sqlite3 *db), (db), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_exec,
        (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *argument, char **error),
        (db, sql, callback, argument, error), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_get_autocommit, (sqlite3 *db), (db), 0)
FORWARD(libsqlite, int, sqlite3_changes, (sqlite3 *db), (db), 0)
FORWARD(libsqlite, int, sqlite3_prepare_v2,
        (sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **statement, const char **tail),
        (db, sql, bytes, statement, tail), (*statement = NULL, SQLITE_MISUSE))
FORWARD(libsqlite, int, sqlite3_step, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_reset, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_finalize, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_bind_int64, (sqlite3_stmt *statement, int i, sqlite3_int64 value),
        (statement, i, value), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_bind_double, (sqlite3_stmt *statement, int i, double value),
        (statement, i, value), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_bind_text,
        (sqlite3_stmt *statement, int i, const char *text, int bytes, void (*destructor)(void *)),
        (statement, i, text, bytes, destructor), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_bind_text64,
        (sqlite3_stmt *statement, int i, const char *text, sqlite3_uint64 bytes, void (*destructor)(void *),
         unsigned char encoding),
        (statement, i, text, bytes, destructor, encoding), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_bind_blob64,
        (sqlite3_stmt *statement, int i, const void *bytes, sqlite3_uint64 count, void (*destructor)(void *)),
        (statement, i, bytes, count, destructor), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column), SQLITE_NULL)
FORWARD(libsqlite, sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column), 0)
FORWARD(libsqlite, double, sqlite3_column_double, (sqlite3_stmt *statement, int column), (statement, column), 0)
FORWARD(libsqlite, const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column),
        (statement, column), NULL)
FORWARD(libsqlite, const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int column), (statement, column), NULL)
FORWARD(libsqlite, int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column), 0)
FORWARD(libsqlite, sqlite3_backup *, sqlite3_backup_init,
        (sqlite3 *destination, const char *destinationName, sqlite3 *source, const char *sourceName),
        (destination, destinationName, source, sourceName), NULL)
FORWARD(libsqlite, int, sqlite3_backup_step, (sqlite3_backup *backup, int pages), (backup, pages), SQLITE_MISUSE)
FORWARD(libsqlite, int, sqlite3_backup_finish, (sqlite3_backup *backup), (backup), SQLITE_MISUSE)
FORWARD(libsqlite, sqlite3_vfs *, sqlite3_vfs_find, (const char *name), (name), NULL)

#pragma GCC visibility pop

#else

const char *archivist_libxml2_problem(void) { return 0; }
const char *archivist_sqlite_problem(void) { return 0; }

#endif
