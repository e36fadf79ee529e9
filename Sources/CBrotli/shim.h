// Brotli's decoder: a JPEG XL container may store its Exif and XMP boxes compressed
// (`brob` boxes, ISO/IEC 18181-2), and libjxl's own decoder reads them only as part of a
// whole-file decode.
#include <brotli/decode.h>
