// libjpeg (libjpeg-turbo's libjpeg API) behind a small C interface for Swift.
//
// Why a C target and not a system-library module: libjpeg reports errors by
// calling error_exit, whose default calls exit(). Tessera installs an error
// manager that longjmps instead, and every setjmp/longjmp pair stays inside
// jpeg.c, so no Swift frame ever sits between them. Each entry point sets its
// own jump target; after an error the decoder must be destroyed, never reused,
// so no state can leak from one file into the next.
//
// No libjpeg type appears in this header: Swift sees only these functions.
#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Reads the next bytes of the file, in order, into `buffer`: returns how many
/// (at most `capacity`), 0 at the end of the file or on a read error.
typedef size_t (*CJPEG_ReadFunction)(void *context, uint8_t *buffer, size_t capacity);

/// What the frame header and the first scan header say.
typedef struct {
    int width;
    int height;
    int components;
    /// 1 for a progressive (SOF2/SOF10) file.
    int progressive;
    /// 1 when the first scan does not hold every component, so a decode keeps
    /// whole-image coefficient buffers (progressive files always do).
    int multi_scan;
    /// Channels the decoder outputs: 3 RGB (grey expanded), or 4 CMYK (YCCK comes out as CMYK).
    int output_channels;
    /// The transform byte of an Adobe APP14 marker, or -1 without one.
    int adobe_transform;
    /// Bytes of the whole-image coefficient buffers a multi-scan decode allocates.
    uint64_t coefficient_bytes;
    /// The largest sampling factors (the iMCU is 8 times these, in pixels).
    int max_h_samp_factor;
    int max_v_samp_factor;
} CJPEG_Header;

typedef struct CJPEG_Decoder CJPEG_Decoder;

/// A decoder for one file. `memory_limit` caps libjpeg's own allocations in bytes (0: none).
/// Returns NULL when out of memory.
CJPEG_Decoder *CJPEG_decoder_create(CJPEG_ReadFunction read, void *context, uint64_t memory_limit);

/// Frees the decoder and everything libjpeg allocated for it; safe after an error.
void CJPEG_decoder_destroy(CJPEG_Decoder *decoder);

/// Reads the markers up to the first scan. Returns 0, or -1 with CJPEG_message set.
int CJPEG_read_header(CJPEG_Decoder *decoder, CJPEG_Header *header);

/// Starts decoding at `scale_numerator`/8 (1…8).
///
/// Multi-scan files are read in buffered-image mode, scan by scan: with
/// `dc_only` set (it needs scale 1/8), reading stops as soon as every component
/// has its DC coefficients, which is all a 1/8 output uses; otherwise at the
/// end of the image. Either way at most `max_scans` scans are read (a warning
/// says when the cap cut the file short). `stopped_at_dc` says whether reading stopped
/// after the DC scans with more of the file unread. Returns 0, or -1 with CJPEG_message.
int CJPEG_start(CJPEG_Decoder *decoder, int scale_numerator, int dc_only, int max_scans,
                int *width, int *height, int *scans_read, int *stopped_at_dc);

/// Restricts output to the columns [x, x + width) of the scaled image; libjpeg widens the
/// range to whole iMCUs and reports the columns it will output. Call after CJPEG_start,
/// before reading rows. Returns 0, or -1 with CJPEG_message.
int CJPEG_crop_columns(CJPEG_Decoder *decoder, int *x, int *width);

/// Skips `count` rows of the scaled output without decoding them where libjpeg can.
int CJPEG_skip_rows(CJPEG_Decoder *decoder, int count);

/// Decodes up to `count` rows of output into `rows` (`stride` bytes apart).
/// Sets `*read` to the rows written. Returns 0, or -1 with CJPEG_message.
int CJPEG_read_rows(CJPEG_Decoder *decoder, uint8_t *rows, size_t stride, int count, int *read);

/// The last error, or the first warning when there was no error.
const char *CJPEG_message(const CJPEG_Decoder *decoder);

/// How many warnings (recoverable damage: premature end, corrupt data) libjpeg reported.
int CJPEG_warning_count(const CJPEG_Decoder *decoder);

/// Encodes 8-bit RGB (3 channels) or grey (1 channel) pixels as a baseline JPEG.
///
/// `chroma_420` selects 4:2:0 chroma subsampling (else 4:4:4); `optimize` builds
/// Huffman tables for the image (smaller files, a little slower); `progressive`
/// writes a progressive file. On success returns 0 and sets `*output` (free it
/// with CJPEG_free) and `*size`; on failure returns -1 and fills `message`.
int CJPEG_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride, int quality,
                 int chroma_420, int optimize, int progressive, uint8_t **output, size_t *size,
                 char *message, size_t message_capacity);

/// Frees what CJPEG_encode returned.
void CJPEG_free(uint8_t *output);

#endif
