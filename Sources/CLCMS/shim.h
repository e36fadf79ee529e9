// LittleCMS 2 (lcms2.h). Its pixel-format constants are macro compositions that Swift
// cannot import, so they are restated here as constants; LittleCMS reports errors by
// return values and an optional log callback, so no other wrapper is needed.
#include <lcms2.h>

static const cmsUInt32Number CLCMS_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number CLCMS_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number CLCMS_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number CLCMS_TYPE_CMYK_8 = TYPE_CMYK_8;
// Adobe applications store CMYK inverted (0 = full ink): the "reversed" flavour.
static const cmsUInt32Number CLCMS_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number CLCMS_FLAGS_COPY_ALPHA = cmsFLAGS_COPY_ALPHA;
