/* See device_broker.h. Everything here after the fork, and in the signal handler, is plain
   system calls: the helper has GStreamer's threads when it forks, and a handler may run
   inside any library call. */
#define _GNU_SOURCE
#include "device_broker.h"
/* Descriptor passing, as the rest of the program does it (kc_send_with_fd, kc_recv_with_fd). */
#include "../CLinux/shim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/ucontext.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define MAX_PATHS 64
#define PATH_CAP 256

struct request { int32_t flags; char path[PATH_CAP]; };
struct reply { int32_t error; };

static int broker_socket = -1;
static pid_t broker_pid = 0;
static volatile int broker_busy = 0;  /* one request at a time: answers come back in order */

/* Flags a decoder opens its device with; anything else (creating, truncating, a path
   instead of a file) is refused. */
static const int allowed_flags = O_ACCMODE | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_LARGEFILE;

static void broker_confine(void) {
    /* The broker's own filter: receive a request, open, answer, close, end. */
#if defined(__x86_64__)
#define KC_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define KC_ARCH AUDIT_ARCH_AARCH64
#endif
#ifdef KC_ARCH
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KC_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_recvfrom, 9, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_recvmsg, 8, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sendmsg, 7, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigreturn, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_restart_syscall, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = { (unsigned short)(sizeof code / sizeof code[0]), code };
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program);
#endif
}

/* Closes every descriptor but `keep`: close_range (Linux 5.9), else one at a time up to
   the process's limit. */
static void close_all_but(int keep) {
    int ranged = (keep == 0 || syscall(SYS_close_range, 0u, (unsigned)keep - 1, 0u) == 0)
                 && syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0u) == 0;
    if (ranged) return;
    long limit = sysconf(_SC_OPEN_MAX);
    if (limit < 0 || limit > 1 << 20) limit = 1 << 20;
    for (long fd = 0; fd < limit; fd++) if (fd != keep) close((int)fd);
}

static void send_answer(int sock, int error, int fd) {
    struct reply answer = { error };
    kc_send_with_fd(sock, &answer, sizeof answer, fd);
}

static _Noreturn void broker_serve(int sock, char (*paths)[PATH_CAP], int count) {
    for (;;) {
        struct request asked;
        ssize_t n = recv(sock, &asked, sizeof asked, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(0);  /* the helper is gone */
        if ((size_t)n != sizeof asked) { send_answer(sock, EPERM, -1); continue; }
        asked.path[PATH_CAP - 1] = 0;
        int listed = 0;
        for (int i = 0; i < count; i++) {
            if (strcmp(paths[i], asked.path) == 0) { listed = 1; break; }
        }
        if (!listed || (asked.flags & ~allowed_flags) != 0) { send_answer(sock, EPERM, -1); continue; }
        int fd = openat(AT_FDCWD, asked.path, asked.flags | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) { send_answer(sock, errno, -1); continue; }
        send_answer(sock, 0, fd);
        close(fd);
    }
}

int kc_broker_start(const char *const *paths, int count) {
    if (broker_socket >= 0) return -EALREADY;
    if (count < 0 || count > MAX_PATHS) return -E2BIG;
    static char copies[MAX_PATHS][PATH_CAP];
    for (int i = 0; i < count; i++) {
        size_t length = strlen(paths[i]);
        if (length == 0 || length >= PATH_CAP || paths[i][0] != '/') return -EINVAL;
        memcpy(copies[i], paths[i], length + 1);
    }
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return -errno;
    pid_t parent = getpid();
    pid_t child = _Fork();
    if (child < 0) { int e = errno; close(pair[0]); close(pair[1]); return -e; }
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        if (getppid() != parent) _exit(0);
        prctl(PR_SET_NAME, "device-broker", 0, 0, 0);
        /* Nothing but its end of the pair: not the helper's socket, not standard streams, not
           a descriptor another thread had open at the fork (a pipe whose reader waits for its
           end would wait for the broker's). */
        close_all_but(pair[1]);
        broker_confine();
        broker_serve(pair[1], copies, count);
    }
    close(pair[1]);
    broker_socket = pair[0];
    broker_pid = child;
    return 0;
}

int kc_broker_pid(void) { return broker_pid; }

int kc_broker_socket(void) { return broker_socket; }

static int receive_answer(int sock) {
    struct reply answer;
    int fd = -1;
    if (kc_recv_with_fd(sock, &answer, sizeof answer, &fd) != (ssize_t)sizeof answer) {
        if (fd >= 0) close(fd);
        return -EPERM;
    }
    if (answer.error != 0) {
        if (fd >= 0) close(fd);
        return -(answer.error > 0 && answer.error < 4096 ? answer.error : EPERM);
    }
    return fd >= 0 ? fd : -EPERM;
}

int kc_broker_open(const char *path, int flags) {
    if (broker_socket < 0 || path == NULL) return -EPERM;
    struct request asked;
    memset(&asked, 0, sizeof asked);
    asked.flags = flags;
    /* Copied a byte at a time up to the cap: a longer path is refused, never cut. */
    size_t i = 0;
    for (; i < PATH_CAP && path[i]; i++) asked.path[i] = path[i];
    if (i == PATH_CAP) return -ENAMETOOLONG;
    while (__atomic_test_and_set(&broker_busy, __ATOMIC_ACQUIRE)) syscall(SYS_sched_yield);
    int result;
    ssize_t n;
    do { n = send(broker_socket, &asked, sizeof asked, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    result = n == (ssize_t)sizeof asked ? receive_answer(broker_socket) : -EPERM;
    __atomic_clear(&broker_busy, __ATOMIC_RELEASE);
    if (result >= 0 && !(flags & O_CLOEXEC)) fcntl(result, F_SETFD, 0);
    return result;
}

static void on_sigsys(int signal, siginfo_t *info, void *context) {
    (void)signal;
    if (info->si_code != 1 /* SYS_SECCOMP */) return;
    int saved = errno;
    ucontext_t *uc = context;
    long result = -EPERM;
#if defined(__x86_64__)
    greg_t *r = uc->uc_mcontext.gregs;
    if (info->si_syscall == __NR_openat) {
        result = kc_broker_open((const char *)r[REG_RSI], (int)r[REG_RDX]);
    } else if (info->si_syscall == __NR_open) {
        result = kc_broker_open((const char *)r[REG_RDI], (int)r[REG_RSI]);
    }
    r[REG_RAX] = result;
#elif defined(__aarch64__)
    if (info->si_syscall == __NR_openat) {
        result = kc_broker_open((const char *)uc->uc_mcontext.regs[1], (int)uc->uc_mcontext.regs[2]);
    }
    uc->uc_mcontext.regs[0] = (unsigned long long)result;
#else
    (void)uc; (void)result;
#endif
    errno = saved;
}

int kc_broker_install_trap(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSYS, &action, NULL) == 0 ? 0 : -errno;
}
