// libwebp: decoding (decode.h), encoding (encode.h) and the demuxer that gives an animated
// file's first frame (demux.h). libwebp reports errors by return values, so no other
// wrapper is needed; its ABI-checked initialisers are static inline functions Swift calls.
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
