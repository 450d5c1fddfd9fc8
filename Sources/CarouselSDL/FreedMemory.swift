import CLinux

/// glibc keeps freed memory for reuse instead of handing it back, and what a replaced
/// scene freed (its images, its decode threads' arenas) is rarely reused in full: a
/// window reloaded by SIGHUP grew by about 1 MB each time. Called after such a swap.
public enum FreedMemory {
    public static func returnToSystem() {
        _ = malloc_trim(0)
    }
}
