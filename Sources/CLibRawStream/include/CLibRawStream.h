#ifndef TESSERA_CLIBRAWSTREAM_H
#define TESSERA_CLIBRAWSTREAM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// LibRaw reading through a stream that gives up at a deadline: a crafted file can make its
/// parsers loop for billions of reads (a Phase One directory claiming 2^32 entries in 3 KB),
/// and LibRaw's C API has no time limit of its own. Past the deadline, or after 65,536 reads
/// at the end of the file, a read throws LibRaw's "cancelled" exception, which LibRaw catches
/// and returns as LIBRAW_CANCELLED_BY_CALLBACK.
typedef struct tessera_libraw_stream tessera_libraw_stream;

/// Opens `path` in the LibRaw handle `data` (a `libraw_data_t *`, from `libraw_init`), its reads
/// cut off `seconds` from now; the status is `libraw_open_file`'s. Free the stream with
/// `tessera_libraw_stream_free` after `libraw_close`; NULL when it could not be made.
tessera_libraw_stream *tessera_libraw_open_file(void *data, const char *path, double seconds, int *status);

/// The same for `size` bytes at `bytes`, which must outlive the handle.
tessera_libraw_stream *tessera_libraw_open_buffer(void *data, void *bytes, size_t size, double seconds, int *status);

void tessera_libraw_stream_free(tessera_libraw_stream *stream);

#ifdef __cplusplus
}
#endif

#endif
