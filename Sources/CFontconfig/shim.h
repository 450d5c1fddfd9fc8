#include <fontconfig/fontconfig.h>

// FC_CHARSET, FC_FILE and FC_INDEX are string macros Swift does not import: typed here.
static inline FcBool kc_fc_add_charset(FcPattern *p, const FcCharSet *c) { return FcPatternAddCharSet(p, FC_CHARSET, c); }
static inline FcBool kc_fc_add_family(FcPattern *p, const char *family) { return FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)family); }
static inline FcResult kc_fc_file(FcPattern *p, FcChar8 **file) { return FcPatternGetString(p, FC_FILE, 0, file); }
static inline FcResult kc_fc_index(FcPattern *p, int *index) { return FcPatternGetInteger(p, FC_INDEX, 0, index); }
static inline FcResult kc_fc_charset(FcPattern *p, FcCharSet **c) { return FcPatternGetCharSet(p, FC_CHARSET, 0, c); }
