/* libjpeg-turbo's libjpeg API, for the JPEGs its TurboJPEG wrapper refuses (CMYK and YCCK,
   subsamplings it has no name for) and for decoding row by row. libjpeg reports errors by
   longjmp, which must never cross Swift frames: every call into the library goes through
   one of these functions, which sets the jump point in C and returns an error code
   instead. Nothing here allocates but libjpeg; the caller owns the kc_jpeg. */
#ifndef KIOSK_CJPEG_SHIM_H
#define KIOSK_CJPEG_SHIM_H
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct kc_jpeg {
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;
    /* The last error, as libjpeg words it; empty when there was none. */
    char message[JMSG_LENGTH_MAX];
    /* A progressive file with more scans than this is refused (hostile files make
       thousands of tiny scans to keep a decoder busy; cameras write about ten). */
    int max_scans;
    /* Set: data that ends early is decoded as far as it goes (libjpeg fills the rest), and
       truncated_at says at which output row it ended; unset: an error. */
    int allow_truncation;
    long truncated_at;
} kc_jpeg;

static void kc_jpeg_error_exit(j_common_ptr c) {
    kc_jpeg *j = (kc_jpeg *)c->client_data;
    (*c->err->format_message)(c, j->message);
    longjmp(j->jump, 1);
}

/* Warnings are ignored, but for data that ends early: an error, or, where a part may show,
   the output row it ended at (the first time). */
static void kc_jpeg_emit(j_common_ptr c, int level) {
    kc_jpeg *j = (kc_jpeg *)c->client_data;
    if (level < 0 && c->err->msg_code == JWRN_JPEG_EOF) {
        if (j->allow_truncation && c->is_decompressor) {
            if (j->truncated_at < 0) j->truncated_at = (long)((j_decompress_ptr)c)->output_scanline;
            return;
        }
        strcpy(j->message, "Premature end of JPEG file");
        longjmp(j->jump, 1);
    }
}

static void kc_jpeg_progress(j_common_ptr c) {
    kc_jpeg *j = (kc_jpeg *)c->client_data;
    if (c->is_decompressor && ((j_decompress_ptr)c)->input_scan_number > j->max_scans) {
        snprintf(j->message, sizeof j->message, "more than %d progressive scans", j->max_scans);
        longjmp(j->jump, 1);
    }
}

/* Reads the header of the JPEG at data (size bytes, kept alive by the caller until
   kc_jpeg_close). 0 or -1. */
static inline int kc_jpeg_open(kc_jpeg *j, const unsigned char *data, unsigned long size, int max_scans) {
    memset(j, 0, sizeof *j);
    j->max_scans = max_scans;
    j->truncated_at = -1;
    j->d.err = jpeg_std_error(&j->err);
    j->err.error_exit = kc_jpeg_error_exit;
    j->err.emit_message = kc_jpeg_emit;
    if (setjmp(j->jump)) return -1;
    jpeg_create_decompress(&j->d);
    j->created = 1;
    j->d.client_data = j;
    j->progress.progress_monitor = kc_jpeg_progress;
    j->d.progress = &j->progress;
    jpeg_mem_src(&j->d, data, size);
    jpeg_read_header(&j->d, TRUE);
    return 0;
}

/* Starts decoding, shrunk by num/8 while decoding, into out (JCS_EXT_RGBA for colour
   and grey, JCS_CMYK for CMYK and YCCK). 0 or -1. */
static inline int kc_jpeg_start(kc_jpeg *j, int num, J_COLOR_SPACE out) {
    if (setjmp(j->jump)) return -1;
    j->d.scale_num = (unsigned)num;
    j->d.scale_denom = 8;
    j->d.out_color_space = out;
    j->d.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&j->d);
    return 0;
}

/* Decodes up to max rows into rows[0..max); the number decoded, or -1. */
static inline int kc_jpeg_read(kc_jpeg *j, unsigned char **rows, int max) {
    if (setjmp(j->jump)) return -1;
    return (int)jpeg_read_scanlines(&j->d, rows, (JDIMENSION)max);
}

/* From now on decodes only output columns [*x, *x + *width): libjpeg widens them to whole
   iMCU columns and says where they begin and how wide they are. 0, or -1. */
static inline int kc_jpeg_crop(kc_jpeg *j, unsigned int *x, unsigned int *width) {
    if (setjmp(j->jump)) return -1;
    JDIMENSION xo = *x, w = *width;
    jpeg_crop_scanline(&j->d, &xo, &w);
    *x = xo;
    *width = w;
    return 0;
}

/* Skips `lines` output rows without colour-converting them; the number skipped, or -1. */
static inline int kc_jpeg_skip(kc_jpeg *j, unsigned int lines) {
    if (setjmp(j->jump)) return -1;
    return (int)jpeg_skip_scanlines(&j->d, lines);
}

/* Frees everything libjpeg holds; safe after any failure. */
static inline void kc_jpeg_close(kc_jpeg *j) {
    if (!j->created) return;
    if (setjmp(j->jump) == 0) jpeg_destroy_decompress(&j->d);
    j->created = 0;
}

#endif
