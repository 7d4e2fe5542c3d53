#ifndef BROWSER_SQLITE_CZLIB_SHIM_H
#define BROWSER_SQLITE_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2 is a macro (it passes ZLIB_VERSION and the struct size), which Swift cannot call.
/// A window of -15 reads raw DEFLATE (RFC 1951) with no zlib header, as Core Data writes Z_MODELCACHE.
static inline int cdb_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}

#endif
