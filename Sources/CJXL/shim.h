// libjxl's decoder (decode.h): it reports errors by return values, so no other wrapper is
// needed. Only its decoder is used; its encoder never is.
#include <jxl/decode.h>
