/* libtiff, reading a TIFF from memory (no file is opened by name: the decoder helper's
   sandbox allows none), with its errors and warnings kept per file instead of printed. */
#ifndef KIOSK_CTIFF_SHIM_H
#define KIOSK_CTIFF_SHIM_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <tiffio.h>

typedef struct kc_tiff_source {
    const unsigned char *data;
    toff_t size;
    toff_t at;
    /* The first error libtiff reported, as it words it; empty when there was none. */
    char message[256];
} kc_tiff_source;

static tmsize_t kc_tiff_read(thandle_t h, void *buf, tmsize_t n) {
    kc_tiff_source *s = (kc_tiff_source *)h;
    if (n <= 0 || s->at >= s->size) return 0;
    toff_t left = s->size - s->at;
    toff_t take = (toff_t)n < left ? (toff_t)n : left;
    memcpy(buf, s->data + s->at, (size_t)take);
    s->at += take;
    return (tmsize_t)take;
}

static tmsize_t kc_tiff_write(thandle_t h, void *buf, tmsize_t n) { (void)h; (void)buf; (void)n; return -1; }

static toff_t kc_tiff_seek(thandle_t h, toff_t off, int whence) {
    kc_tiff_source *s = (kc_tiff_source *)h;
    toff_t base = whence == SEEK_CUR ? s->at : whence == SEEK_END ? s->size : 0;
    if (off > (toff_t)-1 - base) return (toff_t)-1;
    s->at = base + off;
    return s->at;
}

static int kc_tiff_close(thandle_t h) { (void)h; return 0; }
static toff_t kc_tiff_size(thandle_t h) { return ((kc_tiff_source *)h)->size; }

static int kc_tiff_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)module;
    kc_tiff_source *s = (kc_tiff_source *)user;
    if (s->message[0] == 0) vsnprintf(s->message, sizeof s->message, fmt, ap);
    return 1;
}

static int kc_tiff_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif; (void)user; (void)module; (void)fmt; (void)ap;
    return 1;
}

/* Opens the TIFF in source (kept alive by the caller until TIFFClose), or NULL with
   source->message saying why. No memory mapping ("m"): the bytes are already in memory. */
static inline TIFF *kc_tiff_open(kc_tiff_source *source) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    TIFFOpenOptionsSetErrorHandlerExtR(options, kc_tiff_error, source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, kc_tiff_warning, source);
    /* A bound on what one TIFF may allocate inside libtiff (its own buffers, not ours). */
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)256 << 20);
    TIFF *tif = TIFFClientOpenExt("picture.tif", "rm", (thandle_t)source, kc_tiff_read, kc_tiff_write, kc_tiff_seek,
                                  kc_tiff_close, kc_tiff_size, NULL, NULL, options);
    TIFFOpenOptionsFree(options);
    return tif;
}

/* Tags read with TIFFGetField's variadic interface, which Swift cannot call. */
static inline uint32_t kc_tiff_u32(TIFF *tif, uint32_t tag, uint32_t otherwise) {
    uint32_t v = otherwise;
    return TIFFGetField(tif, tag, &v) ? v : otherwise;
}
static inline uint16_t kc_tiff_u16(TIFF *tif, uint32_t tag, uint16_t otherwise) {
    uint16_t v = otherwise;
    return TIFFGetField(tif, tag, &v) ? v : otherwise;
}
static inline uint16_t kc_tiff_u16_defaulted(TIFF *tif, uint32_t tag, uint16_t otherwise) {
    uint16_t v = otherwise;
    return TIFFGetFieldDefaulted(tif, tag, &v) ? v : otherwise;
}
/* The embedded ICC profile, or NULL. */
static inline const void *kc_tiff_icc(TIFF *tif, uint32_t *count) {
    void *data = NULL;
    *count = 0;
    return TIFFGetField(tif, TIFFTAG_ICCPROFILE, count, &data) ? data : NULL;
}
/* Reads as if stored top-left (the orientation tag set aside: the caller turns it). */
static inline int kc_tiff_read_rgba(TIFF *tif, uint32_t width, uint32_t height, uint32_t *raster) {
    TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    return TIFFReadRGBAImageOriented(tif, width, height, raster, ORIENTATION_TOPLEFT, 0);
}
#endif
