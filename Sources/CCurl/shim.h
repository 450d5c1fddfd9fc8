#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper for each kind of value.
static inline CURLcode kc_curl_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode kc_curl_offset(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode kc_curl_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode kc_curl_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode kc_curl_list(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }

typedef size_t (*kc_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode kc_curl_callback(CURL *c, CURLoption o, kc_curl_data_callback f) { return curl_easy_setopt(c, o, f); }

static inline long kc_curl_info_long(CURL *c, CURLINFO i) { long v = 0; curl_easy_getinfo(c, i, &v); return v; }

typedef int (*kc_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                         curl_off_t upload_total, curl_off_t upload_now);
static inline CURLcode kc_curl_progress(CURL *c, kc_curl_progress_callback f) {
    return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f);
}
