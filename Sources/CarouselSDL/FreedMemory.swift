import CLinux

/// How the program's freed memory goes back to the system.
public enum FreedMemory {
    /// glibc keeps freed memory for reuse instead of handing it back, and what a replaced
    /// scene freed (its images, its decode threads' arenas) is rarely reused in full: a
    /// window reloaded by SIGHUP grew by about 1 MB each time. Called after such a swap.
    public static func returnToSystem() {
        _ = malloc_trim(0)
    }

    /// The main process's large blocks are fitted pictures (a few MB each) that come and go
    /// with the scroll position. glibc serves a block over its mmap threshold with a mapping
    /// of its own, unmapped on free; but the first such free raises the threshold to the
    /// block's size, after which every picture is carved out of the heap and the thread
    /// arenas, which fragment and do not shrink. Over a 2-hour soak the process's RSS grew
    /// 7.6 MB/h that way with nothing leaking. A threshold set once is never raised: every
    /// block of 256 KB and more is its own mapping, and freeing a picture frees its pages.
    /// (The decoder helpers set the opposite policy for their own reasons: see HelperSandbox.)
    public static func mapLargeBlocksOnTheirOwn() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
    }
}
