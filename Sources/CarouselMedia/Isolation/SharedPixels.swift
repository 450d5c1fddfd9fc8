import CarouselCore
import CLinux
import Glibc

/// Pixels handed from a decoder helper to the main process through a sealed memfd: the
/// helper writes them once and seals the file, so the main process maps memory the helper
/// can no longer shrink (which would make a read fault) or change; no copy goes through
/// the socket.
enum SharedPixels {
    /// Helper side: a sealed memfd holding `image`'s RGBA bytes, then its backdrop's if it
    /// has one, or nil (with errno set).
    static func seal(_ image: PixelImage) -> Int32? {
        let fd = kc_memfd("kiosk-carousel-pixels")
        guard fd >= 0 else { return nil }
        let bytes = image.backdrop.map { image.pixels + $0.pixels } ?? image.pixels
        let count = bytes.count
        var ok = ftruncate(fd, off_t(count)) == 0
        if ok && count > 0 {
            // write(), not a mapping: a writable mapping would forbid F_SEAL_WRITE.
            var done = 0
            bytes.withUnsafeBytes { buf in
                while ok && done < count {
                    let n = pwrite(fd, buf.baseAddress! + done, count - done, off_t(done))
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { ok = false } else { done += n }
                }
            }
        }
        if ok { ok = kc_add_seals(fd, kc_pixel_seals()) == 0 }
        if !ok { close(fd); return nil }
        return fd
    }

    /// Main side: the image of `width` × `height` in the memfd `fd`, and the backdrop of
    /// `backdrop`'s shape after it if there is one, checked before a byte is read: it must
    /// be sealed against shrinking and writing and be exactly the size the message claims.
    /// Closes `fd`.
    static func read(_ fd: Int32, width: Int, height: Int, isOpaque: Bool,
                     backdrop: HelperMessage.BackdropShape? = nil) throws(HelperFault) -> PixelImage {
        defer { close(fd) }
        let seals = kc_get_seals(fd)
        let needed = kc_pixel_seals()
        guard seals >= 0, seals & needed == needed else { throw HelperFault("sent pixels that are not sealed") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw HelperFault("sent pixels that cannot be examined") }
        let count = width.multipliedReportingOverflow(by: height)
        // A backdrop is at most 64 × 64 (the message's reading checks its sides).
        let extra = backdrop.map { $0.width * $0.height * 4 } ?? 0
        guard !count.overflow, count.partialValue <= Int.max / 4 - extra, Int(info.st_size) == count.partialValue * 4 + extra else {
            throw HelperFault("sent \(Int(info.st_size)) bytes of pixels for \(width)x\(height)")
        }
        let size = count.partialValue * 4
        var pixels = [UInt8](repeating: 0, count: size)
        var backdropPixels = [UInt8](repeating: 0, count: extra)
        if size + extra > 0 {
            guard let map = mmap(nil, size + extra, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else {
                throw HelperFault("sent pixels that cannot be mapped")
            }
            defer { munmap(map, size + extra) }
            if size > 0 { pixels.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: map, byteCount: size) } }
            if extra > 0 { backdropPixels.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: map + size, byteCount: extra) } }
        }
        var image = PixelImage(width: width, height: height, pixels: pixels, isOpaque: isOpaque)
        if let b = backdrop, b.average.count == 3 {
            image.backdrop = Backdrop(width: b.width, height: b.height, pixels: backdropPixels, average: (b.average[0], b.average[1], b.average[2]))
        }
        return image
    }
}

/// A helper that broke the protocol: sent something malformed, too large or unsealed.
/// The helper is not trusted again; it is replaced.
struct HelperFault: Error, CustomStringConvertible {
    var description: String
    /// Likely to pass (a helper slow to start on a busy machine), not a broken setup.
    var transient = false
    init(_ description: String, transient: Bool = false) {
        self.description = description
        self.transient = transient
    }
}
