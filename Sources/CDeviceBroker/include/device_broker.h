/* The seam through which a sandboxed video helper reaches a hardware decoder's device nodes
   (V4L2, media controller, DRM render nodes) without being allowed to open files itself.
   Before its system-call filter goes on, the helper starts a broker: a child process, made
   while it can still fork, holding one end of a socket pair and nothing else, that opens for
   it exactly the paths it was given and nothing more. The helper's filter then traps open and
   openat (SECCOMP_RET_TRAP) instead of refusing them: the SIGSYS handler installed here asks
   the broker and returns its answer (a descriptor, or EPERM) as the system call's result, so
   GStreamer's decoders open /dev/video10 as they would anywhere. Each open is a new open of
   the device (a memory-to-memory decoder's context is per open), never a shared copy. */
#ifndef KIOSK_DEVICE_BROKER_H
#define KIOSK_DEVICE_BROKER_H

/* Starts the broker for these paths (at most 64, each under 256 bytes, absolute). Returns 0,
   or -errno. Call once, from the thread that lives as long as the process (the broker dies
   with it: PR_SET_PDEATHSIG, and the socket's end). */
int kc_broker_start(const char *const *paths, int count);

/* Installs the SIGSYS handler answering trapped open and openat through the broker (or with
   EPERM when there is none). Returns 0 or -errno. */
int kc_broker_install_trap(void);

/* Asks the broker for path directly, as the handler does; a descriptor or -errno. */
int kc_broker_open(const char *path, int flags);

/* The broker's process id, or 0 when none was started. */
int kc_broker_pid(void);

/* The helper's end of the broker's socket pair, or -1: a helper closing every other
   descriptor keeps this one. */
int kc_broker_socket(void);

#endif
