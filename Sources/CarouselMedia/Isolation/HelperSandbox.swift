import CDeviceBroker
import CLinux
import CSeccomp
import Glibc

/// What a decoder helper does to itself at start-up, before it reads a byte of anyone's
/// file: it dies with the main process, gets no other descriptor, a cap on its address
/// space, no core files, a lower priority than drawing, and a seccomp filter that allows
/// only the syscalls decoding needs: it cannot open files, make sockets, start processes or
/// signal others. Helper process only.
enum HelperSandbox {
    /// The syscalls a sandboxed helper may make: what decoding from memory needs (memory,
    /// threads for dav1d and libde265, their locks, signals to itself, time), the socket it
    /// was given (messages, with descriptors) and the sealed memory it hands pictures back
    /// in. Everything else fails with EPERM, so a decoder that tries something unexpected
    /// gets an error rather than killing the helper. Gathered with strace over every
    /// fixture format, the real pictures of libjxl-testdata, the demo pictures, zoom details
    /// and thumbnails, then checked by the whole suite (its damaged and hostile files among
    /// them). A name this architecture lacks is skipped.
    static let allowed = [
        // memory
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise",
        // reading and writing what is already open: the socket, the pictures' memory,
        // standard error (/dev/null)
        "read", "readv", "pread64", "write", "writev", "pwrite64", "lseek", "close",
        "fstat", "newfstatat", "statx", "fcntl", "ftruncate", "memfd_create",
        "sendmsg", "recvmsg", "sendto", "recvfrom", "poll", "ppoll",
        // threads and their locks (clone itself below: threads only)
        "futex", "set_robust_list", "rseq", "set_tid_address", "sched_yield", "sched_getaffinity",
        "exit", "exit_group", "prctl", "membarrier",
        // signals, to itself only (raise, abort: tgkill below)
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
        "getpid", "gettid",
        // time, limits and randomness
        "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday",
        "getrlimit", "prlimit64", "sysinfo", "getrandom",
    ]

    /// The deny list a sanitized build keeps instead: AddressSanitizer and ThreadSanitizer
    /// read /proc and map their own files as they go, which the allow list would refuse.
    /// Each fails with EPERM.
    static let refusedWhenSanitized = [
        // files by name
        "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
        "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        "link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "chown", "fchownat",
        "lchown", "truncate", "mknod", "mknodat", "chdir", "chroot", "uselib", "inotify_add_watch",
        // the network and other processes
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
        "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev",
        "kill", "pidfd_open", "pidfd_getfd", "pidfd_send_signal",
        // the system
        "mount", "umount2", "pivot_root", "setns", "unshare", "bpf", "userfaultfd",
        "perf_event_open", "io_uring_setup", "keyctl", "add_key", "request_key",
        "init_module", "finit_module", "delete_module", "reboot", "kexec_load", "kexec_file_load",
        "swapon", "swapoff", "sethostname", "setdomainname", "setuid", "setgid", "setreuid",
        "setregid", "setresuid", "setresgid", "setgroups", "personality", "acct", "quotactl",
    ]

    /// Applies everything: `note` is nil when sandboxed, else why the seccomp filter could
    /// not be installed (the rest still applies); `addressSpace` is what the helper maps
    /// before any decoding, read while /proc can still be opened (after the filter it
    /// cannot, and the memory budget took it as 0: its checks allowed a whole program's
    /// worth too much).
    /// - Parameters:
    ///   - beyondWhatIsMapped: the limit is `memoryBytes` more than the helper maps now (a
    ///     video helper, which started GStreamer and its plugins first), not in all.
    ///   - alsoAllowed: syscalls a helper of another kind needs beside `allowed`.
    ///   - devices: a hardware decoder's device nodes the helper may open (the video helper's,
    ///     `HardwareDevices`): through a broker started now, its opens trapped to it (see
    ///     CDeviceBroker), and their ioctls allowed by number (`deviceRequestTypes`). Empty:
    ///     no file at all, no ioctl at all. Not under a sanitizer, whose runtime delays a
    ///     trapped call's signal (its opens are refused then, as without devices).
    static func enter(memoryBytes: Int, beyondWhatIsMapped: Bool = false,
                      alsoAllowed: [String] = [], devices: [String] = []) -> (note: String?, addressSpace: Int) {
        // Dies with the main process, even one killed with SIGKILL; already orphaned: leave.
        _ = kc_parent_death_signal(SIGKILL)
        if getppid() == 1 { exit(0) }
        // Only the socket (3), the standard streams and the device broker's socket stay open.
        let broker = kc_broker_socket()
        if broker >= 4 {
            for fd in 4..<broker { close(fd) }
            _ = kc_close_from(UInt32(broker + 1))
        } else {
            _ = kc_close_from(4)
        }
        // Ctrl+C in a terminal and systemd stopping the unit signal the whole process group:
        // the main process decides, and its end kills us (the parent-death signal).
        signal(SIGINT, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGTERM, SIG_IGN)  // systemd signals the whole group: the main process ends us
        signal(SIGPIPE, SIG_IGN)
        // AddressSanitizer and ThreadSanitizer map terabytes of shadow memory up front: under
        // an address-space limit a sanitized build could not even start. The limit is for
        // kiosks, not for `swift test --sanitize`.
        if !sanitized { limit(RLIMIT_AS, to: memoryBytes + (beyondWhatIsMapped ? MemoryBudget.addressSpaceInUse : 0)) }
        // Decoding one picture after another reuses the same few large buffers. glibc would
        // map and unmap each (and the kernel zero every page again): a 24 MP JPEG took 13 %
        // longer here than in one long-lived process. Kept on the heap instead, and handed
        // back once the helper has been idle a moment (see `DecoderHelper`).
        _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, Int32.max)
        // One heap for every thread: glibc gives each new thread (dav1d's, libde265's) an
        // arena that reserves 64 MB of address space, which counts against RLIMIT_AS: a
        // 12 MP AVIF needed a 384 MB limit with them, and fails at the 256 MB of a 1 GB board.
        _ = mallopt(M_ARENA_MAX, 1)
        limit(RLIMIT_CORE, to: 0)  // a crash on a hostile file must not fill the disk
        // A hardware decoder's buffers come as descriptors (DMA-buf, one per buffer of its
        // two queues, for each of GStreamer's V4L2 elements): 32 starved vicodec's pool.
        limit(RLIMIT_NOFILE, to: devices.isEmpty ? 32 : 256)
        // Drawing comes first: where a core is shared, decoding yields to the render thread.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, min(getpriority(which, 0) + 10, 19))
        // Anything a decoder library would load or open lazily, now.
        SDLImageCodec.prepare()
        // A sanitizer's shadow memory (terabytes) is not the helper's: there is no limit then.
        let addressSpace = sanitized ? 0 : MemoryBudget.addressSpaceInUse
        let brokered = !devices.isEmpty && !sanitized && (kc_broker_pid() > 0 || startBroker(for: devices))
            && kc_broker_install_trap() == 0
        return (installFilter(alsoAllowed: alsoAllowed, brokered: brokered), addressSpace)
    }

    /// The ioctl request types (the number's second byte, `_IOC_TYPE`) a hardware decoder's
    /// driver answers: V4L2 ('V': stateful and stateless decoders), the media controller and
    /// its requests ('|': the stateless API's per-frame controls) and DRM ('d': VA-API's
    /// render node, DMA-buf export). No other request reaches any driver: not a terminal's,
    /// not a socket's, not a file system's.
    static let deviceRequestTypes: [UInt64] = [0x56, 0x7C, 0x64]

    /// Starts the broker of `devices` (once); false where it cannot, the helper then decoding
    /// in software (its log line names the software decoder). A video helper calls it first
    /// thing, before GStreamer: a fork copies nothing much then, where after GStreamer's
    /// start every page the helper wrote later would be copied for the broker's sake.
    /// Not under a sanitizer (see `enter`).
    static func startBroker(for devices: [String]) -> Bool {
        guard !devices.isEmpty, !sanitized else { return false }
        if kc_broker_pid() > 0 { return true }
        var pointers = devices.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let started = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { kc_broker_start($0.baseAddress, Int32($0.count)) }
        }
        return started == 0
    }

    /// Whether this build runs under a sanitizer's runtime.
    static let sanitized: Bool = {
        let handle = dlopen(nil, RTLD_NOW)
        defer { if let handle { dlclose(handle) } }
        return dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil
    }()

    private static func limit(_ resource: __rlimit_resource, to value: Int) {
        var r = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = setrlimit(__rlimit_resource_t(resource.rawValue), &r)
    }

    /// CLONE_THREAD from <sched.h>, hidden behind _GNU_SOURCE.
    private static let cloneThread: UInt64 = 0x0001_0000

    /// SCMP_ACT_ERRNO, a C macro.
    private static func errno(_ code: Int32) -> UInt32 { 0x0005_0000 | (UInt32(code) & 0xFFFF) }

    /// SCMP_ACT_TRAP, a C macro: the call raises SIGSYS, whose handler answers it.
    private static let trap: UInt32 = 0x0003_0000

    private static func installFilter(alsoAllowed: [String], brokered: Bool = false) -> String? {
        guard let filter = seccomp_init(sanitized ? SCMP_ACT_ALLOW : errno(EPERM)) else {
            return "seccomp is not available (seccomp_init failed)"
        }
        defer { seccomp_release(filter) }
        // A helper of another kind is refused under a sanitizer only what it is refused without
        // one (the video helper's GStreamer makes its bus's socket pair).
        for name in sanitized ? refusedWhenSanitized.filter({ !alsoAllowed.contains($0) }) : allowed + alsoAllowed {
            let number = seccomp_syscall_resolve_name(name)
            guard number >= 0 else { continue }
            _ = seccomp_rule_add_array(filter, sanitized ? errno(EPERM) : SCMP_ACT_ALLOW, number, 0, nil)
        }
        // Threads are allowed (clone with CLONE_THREAD), new processes are not. clone3
        // passes its flags in memory a filter cannot read: "not implemented" makes glibc
        // fall back to clone, which is checked.
        let clone = seccomp_syscall_resolve_name("clone")
        if clone >= 0 {
            if sanitized {
                var newProcess = scmp_arg_cmp(arg: 0, op: SCMP_CMP_MASKED_EQ, datum_a: cloneThread, datum_b: 0)
                _ = seccomp_rule_add_array(filter, errno(EPERM), clone, 1, &newProcess)
            } else {
                var thread = scmp_arg_cmp(arg: 0, op: SCMP_CMP_MASKED_EQ, datum_a: cloneThread, datum_b: cloneThread)
                _ = seccomp_rule_add_array(filter, SCMP_ACT_ALLOW, clone, 1, &thread)
            }
        }
        if brokered {
            // Opens go to the broker (which opens only the devices it was given); ioctls reach
            // only a decoder's kind of driver, by the request's type byte.
            for name in ["open", "openat"] {
                let number = seccomp_syscall_resolve_name(name)
                if number >= 0 { _ = seccomp_rule_add_array(filter, trap, number, 0, nil) }
            }
            // GStreamer's V4L2 elements give a decoder's two queues their own copy of the
            // device's descriptor (gst_v4l2_dup): a copy of what is already open.
            for name in ["dup", "dup3"] {
                let number = seccomp_syscall_resolve_name(name)
                if number >= 0 { _ = seccomp_rule_add_array(filter, SCMP_ACT_ALLOW, number, 0, nil) }
            }
            let ioctl = seccomp_syscall_resolve_name("ioctl")
            for type in deviceRequestTypes {
                var request = scmp_arg_cmp(arg: 1, op: SCMP_CMP_MASKED_EQ, datum_a: 0xFF00, datum_b: type << 8)
                _ = seccomp_rule_add_array(filter, SCMP_ACT_ALLOW, ioctl, 1, &request)
            }
        }
        let clone3 = seccomp_syscall_resolve_name("clone3")
        if clone3 >= 0 { _ = seccomp_rule_add_array(filter, errno(ENOSYS), clone3, 0, nil) }
        if !sanitized {
            // A signal to one of its own threads (raise, abort), to no other process.
            let tgkill = seccomp_syscall_resolve_name("tgkill")
            var own = scmp_arg_cmp(arg: 0, op: SCMP_CMP_EQ, datum_a: UInt64(getpid()), datum_b: 0)
            if tgkill >= 0 { _ = seccomp_rule_add_array(filter, SCMP_ACT_ALLOW, tgkill, 1, &own) }
        }
        // Every thread of the helper, not only this one: a video helper started GStreamer
        // first, and a thread it started then would otherwise decode unfiltered. (Not under a
        // sanitizer, whose own thread reads /proc as it goes: its deny list would refuse it.)
        guard sanitized || seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) == 0 else {
            return "seccomp cannot filter every thread (SECCOMP_FILTER_FLAG_TSYNC refused)"
        }
        let rc = seccomp_load(filter)
        return rc == 0 ? nil : "seccomp is not available (\(String(cString: strerror(-rc))))"
    }
}
