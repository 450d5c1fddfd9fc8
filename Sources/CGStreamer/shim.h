/* GStreamer 1.22 (the clip decoder in the video helpers), with the few calls Swift cannot
   make itself (C variadics, macros) as small inline functions. */
#ifndef KIOSK_CGSTREAMER_SHIM_H
#define KIOSK_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

static inline void kc_gst_set_int(gpointer object, const char *name, gint value) { g_object_set(object, name, value, NULL); }
static inline void kc_gst_set_int64(gpointer object, const char *name, gint64 value) { g_object_set(object, name, value, NULL); }
static inline void kc_gst_set_uint(gpointer object, const char *name, guint value) { g_object_set(object, name, value, NULL); }
static inline void kc_gst_set_bool(gpointer object, const char *name, gboolean value) { g_object_set(object, name, value, NULL); }
static inline void kc_gst_set_caps(gpointer object, const char *name, GstCaps *caps) { g_object_set(object, name, caps, NULL); }
static inline void kc_gst_set_enum_string(gpointer object, const char *name, const char *nick) {
    gst_util_set_object_arg(G_OBJECT(object), name, nick);
}

static inline GstClockTime kc_gst_buffer_pts(GstBuffer *b) { return GST_BUFFER_PTS(b); }
static inline GstClockTime kc_gst_buffer_duration(GstBuffer *b) { return GST_BUFFER_DURATION(b); }
static inline gboolean kc_gst_time_valid(GstClockTime t) { return GST_CLOCK_TIME_IS_VALID(t); }
static inline GstMessageType kc_gst_message_type(GstMessage *m) { return GST_MESSAGE_TYPE(m); }
static inline const char *kc_gst_object_name_of_message(GstMessage *m) { return GST_MESSAGE_SRC_NAME(m); }
static inline void kc_gst_unref(gpointer object) { if (object) gst_object_unref(object); }
static inline void kc_gst_caps_unref(GstCaps *caps) { if (caps) gst_caps_unref(caps); }
static inline void kc_gst_sample_unref(GstSample *s) { if (s) gst_sample_unref(s); }
static inline void kc_gst_message_unref(GstMessage *m) { if (m) gst_message_unref(m); }

/* The kind of event a pad probe saw (GST_EVENT_UNKNOWN if none). */
static inline GstEventType kc_gst_probe_event_type(GstPadProbeInfo *info) {
    GstEvent *e = GST_PAD_PROBE_INFO_EVENT(info);
    return e ? GST_EVENT_TYPE(e) : GST_EVENT_UNKNOWN;
}

static inline const char *kc_gst_factory_name(GstElementFactory *f) { return GST_OBJECT_NAME(f); }
static inline void kc_gst_factory_set_rank(GstElementFactory *f, guint rank) { gst_plugin_feature_set_rank(GST_PLUGIN_FEATURE(f), rank); }

/* A video frame's planes, mapped for reading. */
static inline gboolean kc_gst_video_frame_map(GstVideoFrame *frame, const GstVideoInfo *info, GstBuffer *buffer) {
    return gst_video_frame_map(frame, (GstVideoInfo *)info, buffer, GST_MAP_READ);
}
static inline guint8 *kc_gst_video_frame_plane(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_DATA(frame, plane); }
static inline gint kc_gst_video_frame_stride(GstVideoFrame *frame, guint plane) { return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane); }
static inline GstVideoFormat kc_gst_video_info_format(const GstVideoInfo *info) { return GST_VIDEO_INFO_FORMAT(info); }
static inline gint kc_gst_video_info_width(const GstVideoInfo *info) { return GST_VIDEO_INFO_WIDTH(info); }
static inline gint kc_gst_video_info_height(const GstVideoInfo *info) { return GST_VIDEO_INFO_HEIGHT(info); }
static inline gint kc_gst_video_info_par_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_N(info); }
static inline gint kc_gst_video_info_par_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_PAR_D(info); }
static inline gint kc_gst_video_info_fps_n(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_N(info); }
static inline gint kc_gst_video_info_fps_d(const GstVideoInfo *info) { return GST_VIDEO_INFO_FPS_D(info); }
/* A tracer of our own (GStreamer's hooks are given to tracer objects), made once. */
static inline GstTracer *kc_gst_make_tracer(void) {
    GType type = g_type_from_name("KioskCarouselTracer");
    if (type == 0)
        type = g_type_register_static_simple(GST_TYPE_TRACER, "KioskCarouselTracer", sizeof(GstTracerClass), NULL,
                                             sizeof(GstTracer), NULL, 0);
    GstTracer *tracer = g_object_new(type, NULL);
    gst_object_ref_sink(tracer);
    return tracer;
}
/* The outermost bin `object` is in (itself when in none), read without the objects' locks:
   called from a hook while the object posts, when no lock may be taken. */
static inline GstObject *kc_gst_top_parent(GstObject *object) {
    while (object && GST_OBJECT_PARENT(object)) object = GST_OBJECT_PARENT(object);
    return object;
}
/* The caps of a probed CAPS event. */
static inline GstCaps *kc_gst_probe_event_caps(GstPadProbeInfo *info) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    GstCaps *caps = NULL;
    if (event && GST_EVENT_TYPE(event) == GST_EVENT_CAPS) gst_event_parse_caps(event, &caps);
    return caps;
}
/* A flags property set by its nicks ("slice", "frame+slice"). */
static inline void kc_gst_set_flags_string(gpointer object, const char *name, const char *nicks) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
    if (!spec || !G_IS_PARAM_SPEC_FLAGS(spec)) return;
    GValue value = G_VALUE_INIT;
    g_value_init(&value, spec->value_type);
    if (gst_value_deserialize(&value, nicks)) g_object_set_property(G_OBJECT(object), name, &value);
    g_value_unset(&value);
}
static inline GstObject *kc_gst_message_source(GstMessage *m) { return GST_MESSAGE_SRC(m); }
/* A named element of a pipeline made by gst_parse_launch, or NULL; unref it. */
static inline GstElement *kc_gst_bin_get_by_name(GstElement *bin, const char *name) {
    return GST_IS_BIN(bin) ? gst_bin_get_by_name(GST_BIN(bin), name) : NULL;
}
/* A string property of an element (its device node, for one), or NULL; free with g_free. */
static inline gchar *kc_gst_get_string(gpointer object, const char *name) {
    gchar *value = NULL;
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(object), name)) g_object_get(object, name, &value, NULL);
    return value;
}

#endif
