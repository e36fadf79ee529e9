// libheif (HEIF and AVIF; HEVC through libde265, AV1 through dav1d, both plugins). It reports
// errors as returned structs, so no other wrapper is needed.
#include <libheif/heif.h>

// 1.19 opens the HEICs iPhones write since iOS 17 and decodes a grid tile by tile; Debian 12
// has it in bookworm-backports (scripts/install-deps.sh installs it; docs/INSTALL.md).
#if !LIBHEIF_HAVE_VERSION(1, 19, 0)
#error "Tessera needs libheif 1.19 or later (found " LIBHEIF_VERSION "): on Debian 12, scripts/install-deps.sh installs it from bookworm-backports"
#endif
