#ifndef BROWSER_SQLITE_CSQLITE_SHIM_H
#define BROWSER_SQLITE_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <stdio.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift cannot import: SQLite copies the
/// bytes before the bind call returns.
static inline sqlite3_destructor_type cdb_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Extended result codes are macros built with `|` and `<<`, which Swift does not import.
static inline int cdb_sqlite_ioerr_short_read(void) {
    return SQLITE_IOERR_SHORT_READ;
}

/// `%.15g` of a double into `buffer` (snprintf is variadic, which Swift cannot call): how a Decimal stored as
/// REAL is read back as the decimal it was written as. Returns the length snprintf would write.
static inline int cdb_format_fifteen_significant_digits(double value, char *buffer, int size) {
    return snprintf(buffer, (size_t)size, "%.15g", value);
}

#endif
