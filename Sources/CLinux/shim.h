/* Linux and glibc calls that Swift's Glibc module does not give (GNU extensions) or cannot
   import (macros), as small inline functions. No library of its own: glibc is always linked. */
#ifndef KIOSK_CLINUX_SHIM_H
#define KIOSK_CLINUX_SHIM_H
/* No _GNU_SOURCE here: it would give these headers other definitions than Swift's Glibc
   module has. The few GNU names needed are spelled out below. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>          /* malloc_trim: freed memory handed back after a reload */
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/vfs.h>         /* statfs: network and FUSE file systems, which inotify misses */
#include <sys/wait.h>
#include <sys/timex.h>       /* adjtimex: whether NTP keeps the clock (--group) */
#include <sys/eventfd.h>     /* the run loop's wake-up when it sleeps on input devices (KMS/DRM) */
#include <sys/inotify.h>
#include <poll.h>
#include <linux/netlink.h>  /* udev's device announcements, which SDL's KMS/DRM input hears */
#include <linux/input.h>     /* evdev: the input devices read on KMS/DRM (EventDeviceReader) */
#include <time.h>
#include <sys/ioctl.h>
#include <linux/vt.h>        /* VT_ACTIVATE: a kiosk on a text console brings its own VT forward */
#include <unistd.h>
#include <stdint.h>
#include <libdrm/drm.h>       /* the kernel's KMS ioctls (headers only: libdrm itself is not linked) */
#include <libdrm/drm_mode.h>

/* Sends len bytes as one message and, when fd >= 0, the descriptor fd with it (SCM_RIGHTS).
   MSG_NOSIGNAL: a peer that died is an error (EPIPE), never a SIGPIPE. */
static inline ssize_t kc_send_with_fd(int sock, const void *buf, size_t len, int fd) {
    struct iovec iov = { (void *)buf, len };
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    ssize_t n;
    do { n = sendmsg(sock, &msg, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}

/* Receives one message of at most cap bytes. *fd is the one descriptor passed with it, or -1.
   Any other descriptor that came along is closed; a message cut short (MSG_TRUNC or
   MSG_CTRUNC) is refused with -1 and EMSGSIZE, its descriptors closed. */
static inline ssize_t kc_recv_with_fd(int sock, void *buf, size_t cap, int *fd) {
    struct iovec iov = { buf, cap };
    union { char bytes[CMSG_SPACE(sizeof(int) * 4)]; struct cmsghdr align; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof control.bytes;
    *fd = -1;
    ssize_t n;
    do { n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int got;
            memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = got; else close(got);
        }
    }
    if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (*fd >= 0) { close(*fd); *fd = -1; }
        errno = EMSGSIZE;
        return -1;
    }
    return n;
}

/* An anonymous shared-memory file that can be sealed (memfd_create: MFD_CLOEXEC 1,
   MFD_ALLOW_SEALING 2, from <linux/memfd.h>). */
static inline int kc_memfd(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1U | 2U);
}

/* The seals that make a shared buffer safe to map in another process: it can no longer
   shrink (which would turn a read of the mapping into SIGBUS), grow or be written.
   F_SEAL_SEAL 1, SHRINK 2, GROW 4, WRITE 8; F_ADD_SEALS 1033, F_GET_SEALS 1034
   (<linux/fcntl.h>). */
static inline int kc_pixel_seals(void) { return 1 | 2 | 4 | 8; }
static inline int kc_add_seals(int fd, int seals) { return fcntl(fd, 1033, seals); }
static inline int kc_get_seals(int fd) { return fcntl(fd, 1034); }

/* wait status macros */
static inline int kc_exited(int status) { return WIFEXITED(status); }
static inline int kc_exit_status(int status) { return WEXITSTATUS(status); }
static inline int kc_signaled(int status) { return WIFSIGNALED(status); }
static inline int kc_term_signal(int status) { return WTERMSIG(status); }

/* Asks the kernel to send sig to this process when the thread that started it ends. */
static inline int kc_parent_death_signal(int sig) { return prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0); }

/* Closes every descriptor from `first` on. */
static inline int kc_close_from(unsigned first) { return (int)syscall(SYS_close_range, first, ~0U, 0); }
/* Makes virtual terminal `n` (the one on descriptor `fd`) the one on screen and waits until
   it is. 0, or -1 with errno (EPERM: not this process's terminal and no CAP_SYS_TTY_CONFIG). */
static inline int kc_vt_activate(int fd, int n) {
    if (ioctl(fd, VT_ACTIVATE, n) != 0) return -1;
    return ioctl(fd, VT_WAITACTIVE, n);
}
/* glibc 2.34+ (GNU): a spawn action closing every descriptor from `first` on. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
static inline int kc_spawn_close_from(posix_spawn_file_actions_t *actions, int first) {
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

/* The name of a signal without "SIG" ("SEGV"), or NULL (glibc 2.32). */
extern const char *sigabbrev_np(int sig);
static inline const char *kc_signal_abbrev(int sig) { return sigabbrev_np(sig); }

/* A socket that hears what udev announces after it has set a device up (the multicast
   group its monitors, SDL's among them, listen to), non-blocking; -1 when it cannot be had. */
static inline int kc_udev_announcements(void) {
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl a;
    memset(&a, 0, sizeof a);
    a.nl_family = AF_NETLINK;
    a.nl_groups = 2; /* udev's group; 1 is the kernel's, before udev has run its rules */
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) { close(fd); return -1; }
    return fd;
}

/* evdev's ioctls, macros Swift cannot import. Each returns the ioctl's result (-1 and errno
   on failure). `kc_evdev_bits` fills `bits` (bytes) with the codes of event type `type` the
   device has (type 0: which event types); `kc_evdev_props` with its INPUT_PROP_* bits. */
static inline int kc_evdev_bits(int fd, int type, unsigned char *bits, int bytes) {
    return ioctl(fd, EVIOCGBIT(type, bytes), bits);
}
static inline int kc_evdev_props(int fd, unsigned char *bits, int bytes) {
    return ioctl(fd, EVIOCGPROP(bytes), bits);
}
/* An absolute axis's range: min and max; 0 on success. */
static inline int kc_evdev_abs_range(int fd, int axis, int *min, int *max) {
    struct input_absinfo info;
    if (ioctl(fd, EVIOCGABS(axis), &info) < 0) return -1;
    *min = info.minimum; *max = info.maximum;
    return 0;
}
/* An absolute axis's value now; 0 on success. */
static inline int kc_evdev_abs_value(int fd, int axis, int *value) {
    struct input_absinfo info;
    if (ioctl(fd, EVIOCGABS(axis), &info) < 0) return -1;
    *value = info.value;
    return 0;
}
/* Which keys and buttons are down now (bits by code, as kc_evdev_bits gives them). */
static inline int kc_evdev_keys_down(int fd, unsigned char *bits, int bytes) {
    return ioctl(fd, EVIOCGKEY(bytes), bits);
}
/* Each multitouch slot's value of axis `code` now (ABS_MT_TRACKING_ID, ABS_MT_POSITION_X,
   ...), `count` of them into `values`; 0 on success. */
static inline int kc_evdev_slot_values(int fd, int code, int *values, int count) {
    if (count < 1 || count > 64) return -1;
    int32_t request[65];
    request[0] = code;
    if (ioctl(fd, EVIOCGMTSLOTS(sizeof(int32_t) * (count + 1)), request) < 0) return -1;
    for (int i = 0; i < count; i++) values[i] = request[i + 1];
    return 0;
}
/* The device's name, NUL-terminated in `name`. */
static inline int kc_evdev_name(int fd, char *name, int bytes) {
    int n = ioctl(fd, EVIOCGNAME(bytes - 1), name);
    if (n < 0) return -1;
    name[n < bytes ? n : bytes - 1] = 0;
    return n;
}
/* Event times on CLOCK_MONOTONIC instead of the wall clock, which NTP may step. */
static inline int kc_evdev_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}
/* Seconds on CLOCK_MONOTONIC, the clock event times are given on after kc_evdev_monotonic,
   and on CLOCK_MONOTONIC_RAW, SDL's (not slewed by NTP, so the two drift apart). */
static inline double kc_monotonic_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static inline double kc_monotonic_raw_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Names the calling thread (top -H, /proc/PID/task/TID/comm); at most 15 bytes are kept. */
static inline int kc_name_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

/* Sets the DPMS property of every connected connector of the DRM device `fd` (whose master
   the caller holds: SDL's KMS/DRM session) to on (0) or off (3), with the kernel's own
   ioctls. Returns how many connectors were set, or -errno of the first failure; 0 when no
   connected connector has a DPMS property. Connectors are read without probing them again
   (a mode buffer is passed, so the kernel does not re-detect displays). */
static inline int kc_drm_set_dpms(int fd, int on) {
    struct drm_mode_card_res res;
    memset(&res, 0, sizeof res);
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return -errno;
    uint32_t connectors[32];
    uint32_t count = res.count_connectors < 32 ? res.count_connectors : 32;
    memset(&res, 0, sizeof res);
    res.connector_id_ptr = (uint64_t)(uintptr_t)connectors;
    res.count_connectors = count;
    if (ioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return -errno;
    if (res.count_connectors < count) count = res.count_connectors;
    int set = 0;
    for (uint32_t c = 0; c < count; c++) {
        struct drm_mode_modeinfo mode;
        uint32_t props[64];
        uint64_t values[64];
        struct drm_mode_get_connector conn;
        memset(&conn, 0, sizeof conn);
        conn.connector_id = connectors[c];
        conn.modes_ptr = (uint64_t)(uintptr_t)&mode;
        conn.count_modes = 1;
        if (ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &conn) != 0) continue;
        if (conn.connection != 1) continue; /* 1: connected */
        uint32_t nprops = conn.count_props < 64 ? conn.count_props : 64;
        memset(&conn, 0, sizeof conn);
        conn.connector_id = connectors[c];
        conn.modes_ptr = (uint64_t)(uintptr_t)&mode;
        conn.count_modes = 1;
        conn.props_ptr = (uint64_t)(uintptr_t)props;
        conn.prop_values_ptr = (uint64_t)(uintptr_t)values;
        conn.count_props = nprops;
        if (ioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &conn) != 0) continue;
        if (conn.count_props < nprops) nprops = conn.count_props;
        for (uint32_t p = 0; p < nprops; p++) {
            struct drm_mode_get_property prop;
            memset(&prop, 0, sizeof prop);
            prop.prop_id = props[p];
            if (ioctl(fd, DRM_IOCTL_MODE_GETPROPERTY, &prop) != 0) continue;
            if (strncmp(prop.name, "DPMS", DRM_PROP_NAME_LEN) != 0) continue;
            struct drm_mode_connector_set_property setp;
            memset(&setp, 0, sizeof setp);
            setp.connector_id = connectors[c];
            setp.prop_id = props[p];
            setp.value = on ? 0 : 3; /* DRM_MODE_DPMS_ON, DRM_MODE_DPMS_OFF */
            if (ioctl(fd, DRM_IOCTL_MODE_SETPROPERTY, &setp) != 0) return -errno;
            set++;
        }
    }
    return set;
}

/* Whether the kernel's clock is kept by NTP (--group's clock health): 1 synchronised, 0 not
   (adjtimex's state TIME_ERROR or STA_UNSYNC set), -1 where the kernel does not say. Reads
   only (modes 0): no privilege needed. */
static inline int kc_clock_synchronised(void) {
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return (state != TIME_ERROR && !(tx.status & STA_UNSYNC)) ? 1 : 0;
}

#endif
