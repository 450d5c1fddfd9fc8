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
#include <stdio.h>           /* snprintf: the CEC names */
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
#include <linux/videodev2.h> /* VIDIOC_QUERYCAP: `carousel video-helper --check devices` */
#include <linux/cec.h>       /* HDMI-CEC: the TV's power and its remote (--cec) */
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

/* HDMI-CEC through the kernel's CEC API (/dev/cecN). Messages go in and out as flat bytes
   (the header byte first, at most 16), not as the kernel's struct with its arrays. */

/* The adapter's driver name and capabilities (CEC_CAP_*); -1 and errno when `fd` is no CEC
   adapter. */
static inline int kc_cec_caps(int fd, char *driver, int bytes, unsigned *capabilities) {
    struct cec_caps caps;
    memset(&caps, 0, sizeof caps);
    if (ioctl(fd, CEC_ADAP_G_CAPS, &caps) != 0) return -1;
    snprintf(driver, (size_t)bytes, "%s", caps.driver);
    *capabilities = caps.capabilities;
    return 0;
}
/* The adapter's physical address (0xffff: none, no HDMI sink connected). */
static inline int kc_cec_physical_address(int fd, unsigned short *address) {
    __u16 pa = 0xffff;
    if (ioctl(fd, CEC_ADAP_G_PHYS_ADDR, &pa) != 0) return -1;
    *address = pa;
    return 0;
}
/* The logical addresses claimed: their mask (bit n: address n) and the first one (15: none). */
static inline int kc_cec_logical_addresses(int fd, unsigned *mask, unsigned *first) {
    struct cec_log_addrs l;
    memset(&l, 0, sizeof l);
    if (ioctl(fd, CEC_ADAP_G_LOG_ADDRS, &l) != 0) return -1;
    *mask = l.log_addr_mask;
    *first = l.num_log_addrs > 0 ? l.log_addr[0] : 15;
    return l.num_log_addrs;
}
/* Claims one playback device's logical address, named `osd_name` (at most 14 bytes), CEC
   1.4, without the kernel's remote-control passthrough (the program reads the keys from
   the messages). The claim finishes later when no physical address is known yet; an
   adapter already configured answers EBUSY. */
static inline int kc_cec_claim_playback(int fd, const char *osd_name) {
    struct cec_log_addrs l;
    memset(&l, 0, sizeof l);
    l.cec_version = CEC_OP_CEC_VERSION_1_4;
    l.vendor_id = CEC_VENDOR_ID_NONE;
    l.num_log_addrs = 1;
    l.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
    l.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
    l.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
    l.flags = CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK;
    snprintf(l.osd_name, sizeof l.osd_name, "%s", osd_name);
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &l);
}
/* Initiator, and follower of the messages the kernel does not answer itself. */
static inline int kc_cec_follow(int fd) {
    __u32 mode = CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER;
    return ioctl(fd, CEC_S_MODE, &mode);
}
/* Sends `len` bytes and waits for the bus: returns the transmit status (CEC_TX_STATUS_*),
   or -1 and errno. With `reply` an opcode, also waits up to `timeout_ms` for that answer:
   its bytes in `out` (16), their count in *out_len (0: none came, or a Feature Abort). */
static inline int kc_cec_send(int fd, const unsigned char *bytes, int len, unsigned char reply, unsigned timeout_ms,
                              unsigned char *out, int *out_len) {
    struct cec_msg m;
    memset(&m, 0, sizeof m);
    if (len < 1 || len > CEC_MAX_MSG_SIZE) { errno = EINVAL; return -1; }
    memcpy(m.msg, bytes, (size_t)len);
    m.len = (__u32)len;
    m.reply = reply;
    m.timeout = reply ? timeout_ms : 0;
    *out_len = 0;
    if (ioctl(fd, CEC_TRANSMIT, &m) != 0) return -1;
    if (reply && m.rx_status & CEC_RX_STATUS_OK && m.reply != 0) {
        memcpy(out, m.msg, m.len <= CEC_MAX_MSG_SIZE ? m.len : CEC_MAX_MSG_SIZE);
        *out_len = (int)(m.len <= CEC_MAX_MSG_SIZE ? m.len : CEC_MAX_MSG_SIZE);
    }
    return m.tx_status;
}
static inline int kc_cec_tx_ok(int status) { return (status & CEC_TX_STATUS_OK) != 0; }
static inline int kc_cec_tx_nack(int status) { return (status & CEC_TX_STATUS_NACK) != 0; }
/* One received message (call when poll says POLLIN): its length, 0 when none was there. */
static inline int kc_cec_receive(int fd, unsigned char *out) {
    struct cec_msg m;
    memset(&m, 0, sizeof m);
    m.timeout = 1;
    if (ioctl(fd, CEC_RECEIVE, &m) != 0) return errno == ETIMEDOUT || errno == EAGAIN ? 0 : -1;
    int n = (int)(m.len <= CEC_MAX_MSG_SIZE ? m.len : CEC_MAX_MSG_SIZE);
    memcpy(out, m.msg, (size_t)n);
    return n;
}
/* One event (call when poll says POLLPRI): 1 for a state change (*physical_address and
   *mask then say the new state), 2 for messages lost, 0 for another, -1 and errno. */
static inline int kc_cec_event(int fd, unsigned short *physical_address, unsigned *mask) {
    struct cec_event e;
    memset(&e, 0, sizeof e);
    if (ioctl(fd, CEC_DQEVENT, &e) != 0) return -1;
    if (e.event == CEC_EVENT_STATE_CHANGE) {
        *physical_address = e.state_change.phys_addr;
        *mask = e.state_change.log_addr_mask;
        return 1;
    }
    return e.event == CEC_EVENT_LOST_MSGS ? 2 : 0;
}

/* VIDIOC_QUERYCAP: a V4L2 device's card name into card; 0 or -errno. */
static inline int kc_v4l2_card(int fd, char *card, size_t cap) {
    struct v4l2_capability c;
    memset(&c, 0, sizeof c);
    if (ioctl(fd, VIDIOC_QUERYCAP, &c) != 0) return -errno;
    snprintf(card, cap, "%s", (const char *)c.card);
    return 0;
}

/* TCGETS (a terminal's attributes), the request a sandbox must refuse on any descriptor:
   0 or -errno. */
static inline int kc_terminal_attributes(int fd) {
    unsigned char attributes[128];
    return ioctl(fd, 0x5401, attributes) == 0 ? 0 : -errno;
}

#endif
