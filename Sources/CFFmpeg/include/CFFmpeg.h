// FFmpeg's libavformat (containers), libavcodec (codecs), libswscale (scaling and colour
// conversion), libswresample (audio conversion) and libavutil, loaded on first use: linked into the executable, they and the
// codec libraries they pull in (about 120) would be loaded by every run, photos only or not,
// and triple its start-up time.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libswresample/swresample.h>

// The functions Tessera calls, and the library each comes from.
#define TESSERA_FFMPEG_FUNCTIONS(X) \
    X(avutil, av_log_set_level) X(avutil, av_strerror) X(avutil, av_malloc) X(avutil, av_free) X(avutil, av_freep) \
    X(avutil, av_dict_get) X(avutil, av_display_rotation_get) X(avutil, av_frame_alloc) X(avutil, av_frame_free) \
    X(avutil, av_dict_set) X(avutil, av_dict_free) X(avutil, av_frame_get_buffer) X(avutil, av_frame_make_writable) \
    X(avutil, av_frame_unref) X(avutil, av_audio_fifo_alloc) X(avutil, av_audio_fifo_free) \
    X(avutil, av_audio_fifo_write) X(avutil, av_audio_fifo_read) X(avutil, av_audio_fifo_size) \
    X(avutil, av_channel_layout_default) X(avutil, av_channel_layout_copy) X(avutil, av_channel_layout_uninit) \
    X(avformat, avformat_alloc_context) X(avformat, avformat_open_input) X(avformat, avformat_close_input) \
    X(avformat, avformat_find_stream_info) X(avformat, av_find_best_stream) X(avformat, avformat_seek_file) \
    X(avformat, av_seek_frame) X(avformat, av_read_frame) X(avformat, avio_alloc_context) X(avformat, avio_context_free) \
    X(avformat, av_stream_get_side_data) X(avformat, av_stream_new_side_data) \
    X(avformat, avformat_alloc_output_context2) X(avformat, avformat_new_stream) X(avformat, avformat_free_context) \
    X(avformat, avio_open) X(avformat, avio_closep) X(avformat, avformat_write_header) \
    X(avformat, av_interleaved_write_frame) X(avformat, av_write_trailer) X(avformat, av_write_frame) \
    X(avformat, avio_flush) X(avformat, avio_seek) X(avcodec, avcodec_parameters_copy) \
    X(avcodec, avcodec_find_decoder) X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_parameters_to_context) X(avcodec, avcodec_open2) X(avcodec, avcodec_send_packet) \
    X(avcodec, avcodec_receive_frame) X(avcodec, avcodec_flush_buffers) X(avcodec, avcodec_get_name) \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_find_encoder_by_name) X(avcodec, avcodec_find_encoder) X(avcodec, avcodec_send_frame) \
    X(avcodec, avcodec_receive_packet) X(avcodec, avcodec_parameters_from_context) X(avcodec, av_packet_rescale_ts) \
    X(swscale, sws_getContext) X(swscale, sws_freeContext) X(swscale, sws_scale) X(swscale, sws_setColorspaceDetails) \
    X(swscale, sws_getCoefficients) \
    X(swresample, swr_alloc_set_opts2) X(swresample, swr_init) X(swresample, swr_free) X(swresample, swr_convert_frame)

struct tessera_ffmpeg {
#define TESSERA_FFMPEG_FIELD(library, name) __typeof__(name) *_Nonnull name;
    TESSERA_FFMPEG_FUNCTIONS(TESSERA_FFMPEG_FIELD)
#undef TESSERA_FFMPEG_FIELD
};

// The functions, loaded once (the libraries of the major versions compiled against); NULL
// when a library or a function is missing, with why in `tessera_ffmpeg_error()`.
const struct tessera_ffmpeg *_Nullable tessera_ffmpeg(void);
const char *_Nonnull tessera_ffmpeg_error(void);

// Error codes are macros Swift cannot import: they are functions here.
static inline int tessera_averror_eof(void) { return AVERROR_EOF; }
static inline int tessera_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int tessera_averror_exit(void) { return AVERROR_EXIT; }
static inline int tessera_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int tessera_averror_einval(void) { return AVERROR(EINVAL); }
static inline int64_t tessera_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int tessera_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
