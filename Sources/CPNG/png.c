// The libpng shim: see include/CPNG.h for why it exists.
//
// libpng documentation: libpng-manual.txt (III. Reading, "Setting up error
// handling", "Unknown-chunk handling", "Transformations"; IV. Writing).
#include "CPNG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

// The largest single chunk libpng may allocate (an ICC profile, a palette): 8 MiB.
enum { chunk_limit = 8 * 1024 * 1024 };
// The largest width or height libpng accepts; Tessera's pixel limit applies first.
enum { side_limit = 1 << 24 };

struct CPNG_Decoder {
    png_structp png;
    png_infop info;
    CPNG_ReadFunction read;
    void *context;
    int warnings;
    char message[256];
};

static void on_error(png_structp png, png_const_charp text) {
    CPNG_Decoder *decoder = (CPNG_Decoder *)png_get_error_ptr(png);
    snprintf(decoder->message, sizeof decoder->message, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    CPNG_Decoder *decoder = (CPNG_Decoder *)png_get_error_ptr(png);
    if (decoder->warnings == 0) snprintf(decoder->message, sizeof decoder->message, "%s", text);
    decoder->warnings += 1;
}

static void read_data(png_structp png, png_bytep data, size_t length) {
    CPNG_Decoder *decoder = (CPNG_Decoder *)png_get_io_ptr(png);
    size_t done = 0;
    while (done < length) {
        size_t count = decoder->read(decoder->context, data + done, length - done);
        if (count == 0) png_error(png, "file ends inside the PNG data");
        done += count;
    }
}

CPNG_Decoder *CPNG_decoder_create(CPNG_ReadFunction read, void *context) {
    CPNG_Decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->read = read;
    decoder->context = context;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, on_error, on_warning);
    if (decoder->png != NULL) decoder->info = png_create_info_struct(decoder->png);
    if (decoder->png == NULL || decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, read_data);
    return decoder;
}

void CPNG_decoder_destroy(CPNG_Decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

int CPNG_read_header(CPNG_Decoder *decoder, CPNG_Header *header) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return -1;
    png_set_user_limits(png, side_limit, side_limit);
    png_set_chunk_malloc_max(png, chunk_limit);
    png_set_chunk_cache_max(png, 128);
    png_set_benign_errors(png, 1);
    // Tessera reads metadata chunks itself, with its own limits; libpng never sees them.
    static const png_byte ignored[] =
        "tEXt\0zTXt\0iTXt\0eXIf\0tIME\0sPLT\0hIST\0pCAL\0sCAL\0oFFs\0pHYs\0sBIT\0bKGD\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored, (int)(sizeof ignored / 5));
    png_read_info(png, info);

    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    // With an ICC profile the pixels go through it as stored; otherwise gAMA (or sRGB when
    // there is none) is turned into sRGB output by libpng.
    if (!png_get_valid(png, info, PNG_INFO_iCCP)) png_set_alpha_mode(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    if (interlaced) png_set_interlace_handling(png);
    png_read_update_info(png, info);

    memset(header, 0, sizeof *header);
    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    header->output_channels = png_get_channels(png, info);
    header->interlaced = interlaced;
    header->bit_depth = depth;
    header->color_type = color;
    if (header->output_channels != 3 && header->output_channels != 4) {
        snprintf(decoder->message, sizeof decoder->message, "unexpected %d output channels",
                 header->output_channels);
        return -1;
    }
    return 0;
}

int CPNG_read_rows(CPNG_Decoder *decoder, uint8_t *rows, size_t stride, int count) {
    if (setjmp(png_jmpbuf(decoder->png))) return -1;
    for (int row = 0; row < count; row++) png_read_row(decoder->png, rows + (size_t)row * stride, NULL);
    return 0;
}

int CPNG_read_image(CPNG_Decoder *decoder, uint8_t *image, size_t stride) {
    png_structp png = decoder->png;
    if (setjmp(png_jmpbuf(png))) return -1;
    // Each Adam7 pass revisits rows already in `image`; libpng combines them in place.
    int passes = png_get_interlace_type(png, decoder->info) != PNG_INTERLACE_NONE ? 7 : 1;
    uint32_t height = png_get_image_height(png, decoder->info);
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t row = 0; row < height; row++) png_read_row(png, image + (size_t)row * stride, NULL);
    }
    return 0;
}

const uint8_t *CPNG_icc_profile(CPNG_Decoder *decoder, size_t *length) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 size = 0;
    if (png_get_iCCP(decoder->png, decoder->info, &name, &compression, &profile, &size) != PNG_INFO_iCCP) {
        *length = 0;
        return NULL;
    }
    *length = size;
    return profile;
}

const char *CPNG_message(const CPNG_Decoder *decoder) { return decoder->message; }

int CPNG_warning_count(const CPNG_Decoder *decoder) { return decoder->warnings; }

// The encoder's output grows on the heap; its state lives on the heap so that it
// is still valid after a longjmp.
struct encoder_state {
    uint8_t *output;
    size_t size;
    size_t capacity;
    char message[256];
};

static void write_data(png_structp png, png_bytep data, size_t length) {
    struct encoder_state *state = (struct encoder_state *)png_get_io_ptr(png);
    if (state->size + length > state->capacity) {
        size_t capacity = state->capacity ? state->capacity * 2 : 64 * 1024;
        while (capacity < state->size + length) capacity *= 2;
        uint8_t *grown = realloc(state->output, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        state->output = grown;
        state->capacity = capacity;
    }
    memcpy(state->output + state->size, data, length);
    state->size += length;
}

static void flush_data(png_structp png) { (void)png; }

static void on_encode_error(png_structp png, png_const_charp text) {
    struct encoder_state *state = (struct encoder_state *)png_get_error_ptr(png);
    snprintf(state->message, sizeof state->message, "%s", text);
    png_longjmp(png, 1);
}

static void on_encode_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

int CPNG_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride, int fast,
                uint8_t **output, size_t *size, char *message, size_t message_capacity) {
    struct encoder_state *state = calloc(1, sizeof *state);
    if (state == NULL) {
        snprintf(message, message_capacity, "out of memory");
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, on_encode_error, on_encode_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(state);
        snprintf(message, message_capacity, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(message, message_capacity, "%s", state->message);
        png_destroy_write_struct(&png, &info);
        free(state->output);
        free(state);
        return -1;
    }
    png_set_write_fn(png, state, write_data, flush_data);
    if (fast) {
        // For files written often and read soon (desktop thumbnails): zlib's level 2 and one
        // filter instead of libpng's default level 6 with a trial of all five per row, about
        // four times faster for a few per cent more bytes.
        png_set_compression_level(png, 2);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    }
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int row = 0; row < height; row++) png_write_row(png, pixels + (size_t)row * stride);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *output = state->output;
    *size = state->size;
    free(state);
    return 0;
}

void CPNG_free(uint8_t *output) { free(output); }
