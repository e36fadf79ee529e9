// FFmpeg's libavformat (containers), libavcodec (decoders), libswscale (scaling and colour
// conversion) and libavutil. Its error codes are macros Swift cannot import: they are
// functions here.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>

static inline int tessera_averror_eof(void) { return AVERROR_EOF; }
static inline int tessera_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int tessera_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int tessera_averror_exit(void) { return AVERROR_EXIT; }
static inline int tessera_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t tessera_nopts_value(void) { return AV_NOPTS_VALUE; }
