import CarouselCore
import Glibc

/// A decoder helper's one whole picture kept for a zoom: a format decoded only whole (PNG,
/// HEIC, WebP, …) would otherwise be decoded again for every part a pan asks for (a 40 MP
/// PNG: 2.3 s each). Kept by the file it came from (device, inode, size and time, read
/// from the descriptor passed), given up when the helper decodes anything else, and after
/// `keep` seconds without a part asked of it. Its memory counts against the helper's
/// limit (`--decode-memory`) like any decode.
struct WholePictureCache {
    /// Which file a picture was decoded from, as its descriptor says.
    struct Key: Equatable {
        var device: UInt64
        var inode: UInt64
        var stamp: FileStamp

        init?(file fd: Int32) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            stamp = FileStamp(info)
        }
    }

    /// Seconds a picture is kept after the last part asked of it.
    static let keep = 30.0

    private var held: (key: Key, picture: PixelImage, lastUsed: Double)?

    /// The picture decoded from `key`'s file, if held; counts as a use at `now`.
    mutating func picture(for key: Key, now: Double) -> PixelImage? {
        guard let h = held, h.key == key else { return nil }
        held?.lastUsed = now
        return h.picture
    }

    mutating func keep(_ picture: PixelImage, for key: Key, now: Double) {
        held = (key, picture, now)
    }

    /// Gives the picture up (a decode of something else needs the memory).
    mutating func clear() { held = nil }

    /// When the picture held is to be given up, if one is.
    var expiry: Double? { held.map { $0.lastUsed + Self.keep } }

    /// Gives the picture up if it has not been used for `keep` seconds by `now`; whether
    /// it did.
    mutating func expire(now: Double) -> Bool {
        guard let e = expiry, now >= e else { return false }
        held = nil
        return true
    }
}
