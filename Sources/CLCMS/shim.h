/* Little CMS 2: colour profiles and transforms. Its pixel-format constants are nested
   macros Swift cannot import; the few used are spelled out as functions here. */
#ifndef KIOSK_CLCMS_SHIM_H
#define KIOSK_CLCMS_SHIM_H
#include <lcms2.h>

static inline cmsUInt32Number kc_type_rgba_8(void) { return TYPE_RGBA_8; }
/* Grey in the first byte of four (a grey picture decoded to RGBA): the other three bytes
   are left as they are by an in-place transform. */
static inline cmsUInt32Number kc_type_gray_in_rgba_8(void) {
    return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
}
static inline cmsUInt32Number kc_type_cmyk_8(void) { return TYPE_CMYK_8; }
/* CMYK stored inverted (0 is full ink), as Adobe's applications write it in JPEG. */
static inline cmsUInt32Number kc_type_cmyk_8_rev(void) { return TYPE_CMYK_8_REV; }
/* RGBA with 16 bits a sample in the host's order, as libspng gives a deep PNG. */
static inline cmsUInt32Number kc_type_rgba_16(void) { return TYPE_RGBA_16; }
static inline cmsUInt32Number kc_flags_copy_alpha(void) { return cmsFLAGS_COPY_ALPHA; }
static inline cmsUInt32Number kc_flags_bpc(void) { return cmsFLAGS_BLACKPOINTCOMPENSATION; }
#endif
