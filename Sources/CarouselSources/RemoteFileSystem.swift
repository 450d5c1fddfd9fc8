import CarouselMedia
import Glibc
import CLinux

/// File systems whose changes inotify does not report: network shares see only what this
/// machine itself writes, and FUSE (sshfs, rclone, gvfs) depends on the daemon. Folders on
/// them are read again periodically instead.
public enum RemoteFileSystem {
    /// `statfs` type numbers, from Linux's magic.h and the file systems' own sources.
    static let types: Set<Int> = [
        0x6969,      // NFS
        0x517B,      // SMB
        0xFF534D42,  // CIFS
        0xFE534D42,  // SMB2
        0x65735546,  // FUSE
        0x01021997,  // 9P (virtual machine shares)
        0x00C36400,  // Ceph
        0x5346414F,  // AFS
        0x6B414653,  // kAFS
        0x73757245,  // Coda
        0x564C,      // NCP
        0x0BD00BD0,  // Lustre
        0x786F4256,  // VirtualBox shared folders
        0x01161970,  // GFS2
        0x7461636F,  // OCFS2
    ]

    /// Whether `path` lies on such a file system; false when it cannot be told.
    public static func holds(_ path: String) -> Bool {
        var info = statfs()
        guard statfs(path, &info) == 0 else { return false }
        return types.contains(Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: info.f_type)))
    }
}
