// Exempi parses an XMP packet from a caller-owned buffer; TesseraMetadata finds and bounds the
// packet (APP1, iTXt, an ISOBMFF item, a WebP chunk, a TIFF tag or a sidecar) before handing it over.
#include <exempi/xmp.h>
#include <exempi/xmpconsts.h>
