// libpng behind a small C interface for Swift.
//
// Why a C target: libpng reports errors with longjmp, and its simplified
// (png_image_*) API, which hides that, allows no limits: a 300-byte file whose
// zTXt chunk claims 1 GiB makes it touch a gigabyte. The full API lets Tessera
// cap chunk allocations, skip the metadata chunks it parses itself, and read
// rows one at a time. Every setjmp/longjmp pair stays inside png.c, so no
// Swift frame sits between them; after an error the decoder is destroyed.
//
// No libpng type appears in this header.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

/// Reads the next bytes of the file, in order, into `buffer`: returns how many
/// (at most `capacity`), 0 at the end of the file or on a read error.
typedef size_t (*CPNG_ReadFunction)(void *context, uint8_t *buffer, size_t capacity);

typedef struct {
    uint32_t width;
    uint32_t height;
    /// Channels the decoder outputs: 3 (RGB) or 4 (RGBA, straight alpha), 8 bits each.
    int output_channels;
    /// 1 for Adam7 interlacing: the whole image must be in memory to decode it.
    int interlaced;
    int bit_depth;
    int color_type;
} CPNG_Header;

typedef struct CPNG_Decoder CPNG_Decoder;

/// A decoder for one file; NULL when out of memory.
CPNG_Decoder *CPNG_decoder_create(CPNG_ReadFunction read, void *context);

/// Frees the decoder; safe after an error.
void CPNG_decoder_destroy(CPNG_Decoder *decoder);

/// Reads the chunks up to the image data and sets up 8-bit sRGB output
/// (palette, grey and tRNS expanded; 16-bit scaled; gAMA honoured).
/// Returns 0, or -1 with CPNG_message set.
int CPNG_read_header(CPNG_Decoder *decoder, CPNG_Header *header);

/// Decodes the next `count` rows of a non-interlaced image into `rows`.
int CPNG_read_rows(CPNG_Decoder *decoder, uint8_t *rows, size_t stride, int count);

/// Decodes a whole interlaced (or any) image into `image`, `stride` bytes per row.
int CPNG_read_image(CPNG_Decoder *decoder, uint8_t *image, size_t stride);

/// The embedded ICC profile (iCCP), or NULL; valid until the decoder is destroyed.
const uint8_t *CPNG_icc_profile(CPNG_Decoder *decoder, size_t *length);

/// The last error, or the first warning when there was no error.
const char *CPNG_message(const CPNG_Decoder *decoder);

/// How many warnings (benign errors, CRC errors in ancillary chunks) libpng reported.
int CPNG_warning_count(const CPNG_Decoder *decoder);

/// Encodes 8-bit RGB (3 channels) or RGBA (4) pixels as a PNG, with `fast` less compression
/// for more speed. On success returns 0 and sets `*output` (free it with CPNG_free) and
/// `*size`; on failure -1 and fills `message`.
int CPNG_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride, int fast,
                uint8_t **output, size_t *size, char *message, size_t message_capacity);

/// Frees what CPNG_encode returned.
void CPNG_free(uint8_t *output);

#endif
