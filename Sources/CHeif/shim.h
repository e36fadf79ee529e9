// libheif (HEIF and AVIF; HEVC through libde265, AV1 through dav1d). It reports errors as
// returned structs, so no other wrapper is needed.
#include <libheif/heif.h>
