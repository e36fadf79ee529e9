// libexif parses from a caller-owned buffer; TesseraMetadata bounds-checks
// the APP1/eXIf payload before handing it over.
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-log.h>
