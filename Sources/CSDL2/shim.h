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
