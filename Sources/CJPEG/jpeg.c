// The libjpeg shim: see include/CJPEG.h for why it exists.
//
// libjpeg documentation: libjpeg.txt in libjpeg-turbo (error handling,
// "Buffered-image mode", "Partial image decompression").
#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// Swift allocates one byte per sample and output_channels samples per pixel.
_Static_assert(sizeof(JSAMPLE) == 1, "Tessera decodes 8-bit samples only");

enum { buffer_size = 64 * 1024 };

struct CJPEG_Decoder {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    struct jpeg_source_mgr source;
    jmp_buf jump;
    CJPEG_ReadFunction read;
    void *context;
    int created;
    int warnings;
    char message[JMSG_LENGTH_MAX];
    JOCTET buffer[buffer_size];
};

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

// error_exit must not return: jump back to the entry point that set `jump`.
static void on_error(j_common_ptr info) {
    CJPEG_Decoder *decoder = (CJPEG_Decoder *)info->client_data;
    (*info->err->format_message)(info, decoder->message);
    longjmp(decoder->jump, 1);
}

// Warnings (level -1) are counted and the first is kept; trace messages are dropped.
static void on_message(j_common_ptr info, int level) {
    CJPEG_Decoder *decoder = (CJPEG_Decoder *)info->client_data;
    if (level >= 0) return;
    if (decoder->warnings == 0) (*info->err->format_message)(info, decoder->message);
    decoder->warnings += 1;
}

static void source_init(j_decompress_ptr info) { (void)info; }

static boolean source_fill(j_decompress_ptr info) {
    CJPEG_Decoder *decoder = (CJPEG_Decoder *)info->client_data;
    size_t count = decoder->read(decoder->context, decoder->buffer, buffer_size);
    if (count == 0) {
        // As libjpeg's own file source does: warn, then end the image cleanly.
        WARNMS(info, JWRN_JPEG_EOF);
        decoder->source.next_input_byte = fake_eoi;
        decoder->source.bytes_in_buffer = sizeof fake_eoi;
        return TRUE;
    }
    decoder->source.next_input_byte = decoder->buffer;
    decoder->source.bytes_in_buffer = count;
    return TRUE;
}

// Skipped bytes are read, not seeked over, so the caller sees every byte in order
// (it hashes them); segments libjpeg skips are at most 64 KiB each.
static void source_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *source = info->src;
    while (count > 0) {
        if (source->bytes_in_buffer == 0) (*source->fill_input_buffer)(info);
        size_t step = (size_t)count < source->bytes_in_buffer ? (size_t)count : source->bytes_in_buffer;
        source->next_input_byte += step;
        source->bytes_in_buffer -= step;
        count -= (long)step;
    }
}

static void source_term(j_decompress_ptr info) { (void)info; }

CJPEG_Decoder *CJPEG_decoder_create(CJPEG_ReadFunction read, void *context, uint64_t memory_limit) {
    CJPEG_Decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->read = read;
    decoder->context = context;
    decoder->info.err = jpeg_std_error(&decoder->error);
    decoder->error.error_exit = on_error;
    decoder->error.emit_message = on_message;
    decoder->info.client_data = decoder;
    if (setjmp(decoder->jump)) {
        jpeg_destroy_decompress(&decoder->info);  // safe on a half-created object
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->created = 1;
    if (memory_limit > 0) decoder->info.mem->max_memory_to_use = (long)memory_limit;
    decoder->source.init_source = source_init;
    decoder->source.fill_input_buffer = source_fill;
    decoder->source.skip_input_data = source_skip;
    decoder->source.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.term_source = source_term;
    decoder->info.src = &decoder->source;
    return decoder;
}

void CJPEG_decoder_destroy(CJPEG_Decoder *decoder) {
    if (decoder == NULL) return;
    // jpeg_destroy never reports errors; it frees every pool whatever state the decode is in.
    if (decoder->created) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

static uint64_t round_up(uint64_t value, uint64_t multiple) {
    return multiple == 0 ? value : (value + multiple - 1) / multiple * multiple;
}

int CJPEG_read_header(CJPEG_Decoder *decoder, CJPEG_Header *header) {
    if (setjmp(decoder->jump)) return -1;
    struct jpeg_decompress_struct *info = &decoder->info;
    jpeg_save_markers(info, JPEG_APP0 + 14, 16);  // only to read the Adobe transform below
    jpeg_read_header(info, TRUE);
    memset(header, 0, sizeof *header);
    header->width = (int)info->image_width;
    header->height = (int)info->image_height;
    header->components = info->num_components;
    header->progressive = info->progressive_mode ? 1 : 0;
    header->multi_scan = info->progressive_mode || info->comps_in_scan < info->num_components;
    header->adobe_transform = info->saw_Adobe_marker ? info->Adobe_transform : -1;
    header->max_h_samp_factor = info->max_h_samp_factor;
    header->max_v_samp_factor = info->max_v_samp_factor;
    switch (info->jpeg_color_space) {
    case JCS_CMYK:
    case JCS_YCCK:
        info->out_color_space = JCS_CMYK;
        header->output_channels = 4;
        break;
    default:
        info->out_color_space = JCS_RGB;
        header->output_channels = 3;
        break;
    }
    uint64_t bytes = 0;
    for (int c = 0; c < info->num_components; c++) {
        jpeg_component_info *component = &info->comp_info[c];
        bytes += round_up(component->width_in_blocks, (uint64_t)component->h_samp_factor)
            * round_up(component->height_in_blocks, (uint64_t)component->v_samp_factor) * sizeof(JBLOCK);
    }
    header->coefficient_bytes = bytes;
    return 0;
}

// Whether every component has at least its first DC scan in.
static int dc_complete(const struct jpeg_decompress_struct *info) {
    for (int c = 0; c < info->num_components; c++) {
        if (info->coef_bits[c][0] < 0) return 0;
    }
    return 1;
}

int CJPEG_start(CJPEG_Decoder *decoder, int scale_numerator, int dc_only, int max_scans,
                int *width, int *height, int *scans_read, int *stopped_at_dc) {
    if (setjmp(decoder->jump)) return -1;
    struct jpeg_decompress_struct *info = &decoder->info;
    info->scale_num = (unsigned int)scale_numerator;
    info->scale_denom = 8;
    info->dct_method = JDCT_ISLOW;
    int buffered = info->progressive_mode || info->comps_in_scan < info->num_components;
    info->buffered_image = buffered ? TRUE : FALSE;
    jpeg_start_decompress(info);
    int scans = buffered ? 0 : 1;
    *stopped_at_dc = 0;
    if (buffered) {
        int stop_at_dc = dc_only && scale_numerator == 1 && info->progressive_mode;
        for (;;) {
            int status = jpeg_consume_input(info);
            if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
            if (status == JPEG_REACHED_SOS) scans += 1;
            if (status == JPEG_SCAN_COMPLETED) {
                if (stop_at_dc && dc_complete(info)) {
                    *stopped_at_dc = !jpeg_input_complete(info);
                    break;
                }
                if (scans >= max_scans) {
                    snprintf(decoder->message, sizeof decoder->message,
                             "more than %d scans: decoded the first %d", max_scans, max_scans);
                    decoder->warnings += 1;
                    break;
                }
            }
        }
        jpeg_start_output(info, info->input_scan_number);
    }
    *width = (int)info->output_width;
    *height = (int)info->output_height;
    *scans_read = scans;
    return 0;
}

int CJPEG_crop_columns(CJPEG_Decoder *decoder, int *x, int *width) {
    if (setjmp(decoder->jump)) return -1;
    JDIMENSION offset = (JDIMENSION)*x, columns = (JDIMENSION)*width;
    jpeg_crop_scanline(&decoder->info, &offset, &columns);
    *x = (int)offset;
    *width = (int)columns;
    return 0;
}

int CJPEG_skip_rows(CJPEG_Decoder *decoder, int count) {
    if (setjmp(decoder->jump)) return -1;
    if (count > 0) jpeg_skip_scanlines(&decoder->info, (JDIMENSION)count);
    return 0;
}

int CJPEG_read_rows(CJPEG_Decoder *decoder, uint8_t *rows, size_t stride, int count, int *read) {
    if (setjmp(decoder->jump)) return -1;
    struct jpeg_decompress_struct *info = &decoder->info;
    int done = 0;
    while (done < count && info->output_scanline < info->output_height) {
        JSAMPROW row = rows + (size_t)done * stride;
        done += (int)jpeg_read_scanlines(info, &row, 1);
    }
    *read = done;
    return 0;
}

const char *CJPEG_message(const CJPEG_Decoder *decoder) { return decoder->message; }

int CJPEG_warning_count(const CJPEG_Decoder *decoder) { return decoder->warnings; }

// The encoder's error state and output live on the heap: libjpeg writes the output
// pointer through jpeg_mem_dest, and after a longjmp only memory, not registers, is reliable.
struct encoder_state {
    struct jpeg_error_mgr error;
    jmp_buf jump;
    unsigned char *output;
    unsigned long length;
};

static void on_encode_error(j_common_ptr info) {
    struct encoder_state *state = (struct encoder_state *)info->err;
    longjmp(state->jump, 1);
}

int CJPEG_encode(const uint8_t *pixels, int width, int height, int channels, size_t stride, int quality,
                 int chroma_420, int optimize, int progressive, uint8_t **output, size_t *size,
                 char *message, size_t message_capacity) {
    struct encoder_state *state = calloc(1, sizeof *state);
    if (state == NULL) {
        snprintf(message, message_capacity, "out of memory");
        return -1;
    }
    struct jpeg_compress_struct info;
    info.err = jpeg_std_error(&state->error);
    state->error.error_exit = on_encode_error;
    if (setjmp(state->jump)) {
        char text[JMSG_LENGTH_MAX];
        (*info.err->format_message)((j_common_ptr)&info, text);
        snprintf(message, message_capacity, "%s", text);
        jpeg_destroy_compress(&info);
        free(state->output);  // jpeg_mem_dest's buffer is the caller's to free, also on failure
        free(state);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &state->output, &state->length);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = channels;
    info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    info.dct_method = JDCT_ISLOW;
    info.optimize_coding = optimize ? TRUE : FALSE;
    if (channels == 3) {
        int factor = chroma_420 ? 2 : 1;
        info.comp_info[0].h_samp_factor = factor;
        info.comp_info[0].v_samp_factor = factor;
    }
    if (progressive) jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = state->output;
    *size = (size_t)state->length;
    free(state);
    return 0;
}

void CJPEG_free(uint8_t *output) { free(output); }
