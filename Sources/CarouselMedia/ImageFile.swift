import Glibc

/// Reads an image file's bytes with a reason for every way it can fail: gone since the
/// scan, no permission, a folder or a pipe under an image's name, empty, absurdly large.
/// Opens read-only and non-blocking, so a FIFO named .jpg cannot hang a worker.
public enum ImageFile {
    /// Files larger than this are refused before reading (no camera writes 512 MB JPEGs).
    public static let maxBytes = 512 << 20

    public static func read(_ path: String) throws(ImageError) -> [UInt8] {
        let fd = try open(path)
        defer { close(fd) }
        return try read(fd, name: path)
    }

    /// Opens `path` read-only for decoding and checks it is a non-empty regular file of a
    /// believable size. The descriptor is the caller's to close.
    public static func open(_ path: String) throws(ImageError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let reason: String
            switch errno {
            case ENOENT: reason = "no longer exists (deleted or moved after the scan)"
            case EACCES, EPERM: reason = "cannot be read (permission denied)"
            case ELOOP: reason = "is a symbolic link loop"
            default: reason = "cannot be opened (\(String(cString: strerror(errno))))"
            }
            throw ImageError(path: path, reason: reason)
        }
        do throws(ImageError) {
            _ = try size(of: fd, name: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The bytes of the open file `fd`, read from its start whatever its offset (the
    /// descriptor may be shared with another process); `name` names it in errors.
    public static func read(_ fd: Int32, name: String) throws(ImageError) -> [UInt8] {
        let size = try size(of: fd, name: name)
        // An empty file: not through the uninitialized initializer, whose count would be
        // written into the empty array shared by every thread (a race ThreadSanitizer saw).
        guard size > 0 else { return [] }
        // Not zeroed first: a 20 MB camera file costs a memset of its own size otherwise.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = pread(fd, buffer.baseAddress! + done, size - done, off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }  // shrank while reading: decode what is there
                done += n
            }
            count = done
        }
        guard !bytes.isEmpty else { throw ImageError(path: name, reason: "is empty (0 bytes)") }
        return bytes
    }

    /// At most the first `count` bytes of the open file `fd`, from its start.
    public static func readHead(_ fd: Int32, count: Int, name: String) throws(ImageError) -> [UInt8] {
        let size = min(count, try size(of: fd, name: name))
        var bytes = [UInt8](repeating: 0, count: size), done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return Array(bytes.prefix(done))
    }

    private static func size(of fd: Int32, name: String) throws(ImageError) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ImageError(path: name, reason: "cannot be examined") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ImageError(path: name, reason: "is not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { throw ImageError(path: name, reason: "is empty (0 bytes)") }
        guard size <= maxBytes else { throw ImageError(path: name, reason: "is \(size >> 20) MB, too large to be an image") }
        return size
    }
}
