#include <SDL.h>
#include <SDL_syswm.h>

/* The KMS/DRM device of `window` when SDL drives the display itself: its DRM descriptor
   (whose master SDL's session holds), or -1 on any other video driver; `subsystem` gets
   SDL's name of the window system (SDL_SYSWM_TYPE), or -1 when SDL gives none. */
static inline int kc_sdl_kmsdrm_fd(SDL_Window *window, int *subsystem) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    *subsystem = -1;
    if (!SDL_GetWindowWMInfo(window, &info)) return -1;
    *subsystem = (int)info.subsystem;
#if defined(SDL_VIDEO_DRIVER_KMSDRM)
    if (info.subsystem == SDL_SYSWM_KMSDRM) return info.info.kmsdrm.drm_fd;
#endif
    return -1;
}

/* The X11 Display of a window on X11, else NULL (for the DPMS extension, through libXext
   loaded at run time). */
static inline void *kc_sdl_x11_display(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return 0;
#if defined(SDL_VIDEO_DRIVER_X11)
    if (info.subsystem == SDL_SYSWM_X11) return (void *)info.info.x11.display;
#endif
    return 0;
}

#if defined(SDL_VIDEO_DRIVER_X11)
#include <X11/extensions/XInput2.h>

/* A device the X server added, removed, enabled or disabled, as its XI_HierarchyChanged
   event tells (SDL selects it on the root window, for every device). */
typedef struct { int deviceid; int flags; } kc_x11_device_change;

/* The X display an X11 event SDL passed on (SDL_SYSWMEVENT) came from, else NULL. */
static inline void *kc_x11_event_display(const SDL_SysWMmsg *msg) {
    return msg->subsystem == SDL_SYSWM_X11 ? (void *)msg->msg.x11.event.xany.display : 0;
}

/* The slave devices an XI_HierarchyChanged event (XInput 2, whose major opcode is `opcode`)
   says were added, removed, enabled or disabled: how many were written to `out`, at most
   `max`; 0 for any other event. Its data is SDL's, there only while SDL's event filter runs. */
static inline int kc_x11_device_changes(const SDL_SysWMmsg *msg, int opcode, kc_x11_device_change *out, int max) {
    if (msg->subsystem != SDL_SYSWM_X11) return 0;
    const XGenericEventCookie *cookie = &msg->msg.x11.event.xcookie;
    if (cookie->type != GenericEvent || cookie->extension != opcode || cookie->evtype != XI_HierarchyChanged || !cookie->data)
        return 0;
    const XIHierarchyEvent *h = (const XIHierarchyEvent *)cookie->data;
    int n = 0;
    for (int i = 0; i < h->num_info && n < max; i++) {
        int f = h->info[i].flags & (XISlaveAdded | XISlaveRemoved | XIDeviceEnabled | XIDeviceDisabled);
        if (f) { out[n].deviceid = h->info[i].deviceid; out[n].flags = f; n++; }
    }
    return n;
}
#endif
