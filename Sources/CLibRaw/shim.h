// LibRaw's C API (libraw.h). Tessera uses it to identify camera RAW files and extract their
// embedded JPEG previews; it never demosaics. Errors are return codes.
#include <libraw/libraw.h>
