import Glibc

/// The default address-space limit of a decoder helper (`--decode-memory`), from the
/// machine's memory: a quarter of it, at least 384 MB (a helper's own code and libraries
/// take about 150 MB of address space before any image, and a phone's 12 MP AVIF needs
/// 352–384 MB to decode through libheif and dav1d, a HEIC 256–288), at most 1024 MB. On a
/// 1 GB Raspberry Pi that is 384 MB of address space per helper (most of it never
/// resident); a decode needing more fails with a reason instead of waking the OOM killer.
public enum DecodeMemory {
    public static let floorMB = 384
    public static let ceilingMB = 1024

    /// Physical memory in MB, from sysconf.
    public static var physicalMB: Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? (pages * size) >> 20 : 1024
    }

    public static var defaultLimitMB: Int { limit(forPhysicalMB: physicalMB) }

    static func limit(forPhysicalMB mb: Int) -> Int { min(ceilingMB, max(floorMB, mb / 4)) }
}
