import Glibc

/// A regular file mapped read-only, for a decoder to read from the page cache without a
/// copy. Only within a decoder helper: a file cut short while mapped would end the reader
/// with SIGBUS, which a helper survives as a crash of that one picture.
struct MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// The whole file `fd`, or nil when it is not a regular file of a believable size or
    /// cannot be mapped (the caller reads it instead).
    init?(_ fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              info.st_size <= ImageFile.maxBytes else { return nil }
        let size = Int(info.st_size)
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), map != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: map, count: size)
    }

    func unmap() {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
