import CarouselCore
import Foundation
import Glibc

/// Reads the pictures' shapes from their headers, in item order, on a thread of its own, so
/// that the mosaic can place tiles before any pixel is decoded: the first screen appears as
/// soon as its items are known. Only the first bytes of each file are read (the header and
/// a JPEG's EXIF orientation), by our own fuzzed parsers; nothing is decoded here.
public final class SizeReader: @unchecked Sendable {
    /// Bytes read from the start of each file: a header, and a JPEG's EXIF block, which
    /// must come within the first 64 KB.
    public static let prefixBytes = 128 << 10
    /// Bytes read first: most headers (a JPEG's frame header after its EXIF, whose
    /// orientation comes before it) are within them; a file whose size is not is read again
    /// up to `prefixBytes`. Reading 128 KB of each of 10,000 files took the CPU from the
    /// first screen's decodes.
    public static let firstBytes = 16 << 10

    /// Guards every stored property below it.
    private let lock = NSCondition()
    private var read: [Double?] = []
    private var taken = 0
    private var stopped = false
    private var held = false
    private let total: Int
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `paths` at once; `wake` is called (from the reader's thread) after
    /// each batch, so an event loop can take them. `locate` gives the file holding a path's
    /// bytes (a web picture's cached copy, downloaded first; nil: none).
    public convenience init(paths: [String], locate: @escaping @Sendable (String) -> String? = { $0 },
                            wake: @escaping @Sendable () -> Void = {}) {
        self.init(items: paths.map { ($0, nil) }, locate: locate, wake: wake)
    }

    /// The same for a show's items: a pair's (`--pair-portraits`) shape is its two pictures'
    /// side by side (or one above the other), known from the pairing; nothing is read for it.
    public convenience init(sources: [ImageSource], locate: @escaping @Sendable (String) -> String? = { $0 },
                            wake: @escaping @Sendable () -> Void = {}) {
        self.init(items: sources.map { source in
            (source.path, source.partners.first.flatMap { partner in
                source.aspect.flatMap { a in partner.aspect.flatMap { PortraitPairs.aspect(ofPair: [a, $0]) } }
            })
        }, locate: locate, wake: wake)
    }

    private init(items: [(path: String, known: Double?)], locate: @escaping @Sendable (String) -> String?,
                 wake: @escaping @Sendable () -> Void) {
        total = items.count
        let thread = Thread { [self] in
            BackgroundPriority.lowerThisThread()
            var batch: [Double?] = []
            func handOver() {
                lock.withLock { read += batch }
                batch.removeAll(keepingCapacity: true)
                wake()
            }
            for (i, (path, known)) in items.enumerated() {
                if !batch.isEmpty && lock.withLock({ held }) { handOver() }
                let go = lock.withLock { () -> Bool in
                    while held && !stopped { lock.wait() }
                    return !stopped
                }
                if !go { break }
                batch.append(known ?? locate(path).flatMap(Self.aspect))
                // Small batches at first, so the first screen is not kept waiting.
                if batch.count >= (i < 64 ? 8 : 256) || i == items.count - 1 { handOver() }
            }
            done.signal()
        }
        thread.name = "sizes"
        thread.start()
    }

    /// The shapes read since the last call, continuing in item order.
    public func take() -> [Double?] {
        lock.withLock {
            defer { taken = read.count }
            return Array(read[taken...])
        }
    }

    /// Whether every file has been read.
    public var isDone: Bool { lock.withLock { read.count == total || stopped } }

    /// Blocks until every file has been read (`carousel render`: the same wall every run).
    public func waitUntilDone() {
        guard total > 0, !isDone else { return }
        done.wait()
        done.signal()
    }

    /// Ends the reading for good.
    public func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    /// Pauses the reading (what was read is handed over first) or resumes it. The wall
    /// holds it while the tiles on screen decode and it knows enough of what lies below:
    /// reading 10,000 headers took the CPU from the first screen's decodes on 2 cores.
    public func setHeld(_ hold: Bool) {
        lock.withLock {
            guard held != hold else { return }
            held = hold
            lock.broadcast()
        }
    }

    /// Height / width of the picture as shown (a JPEG's or WebP's EXIF orientations 5–8 swap them);
    /// nil when the file cannot be read or its header gives no size.
    public static func aspect(of path: String) -> Double? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        var bytes = prefix(fd, min(firstBytes, size))
        var header = ImageHeader.read(bytes)
        if header.width == nil && size > firstBytes {
            bytes = prefix(fd, min(prefixBytes, size))
            header = ImageHeader.read(bytes)
        }
        guard let w = header.width, let h = header.height, w > 0, h > 0 else { return nil }
        let orientation = header.format == .webp ? webpOrientation(fd, size: size) : ExifOrientation.read(bytes, format: header.format)
        return orientation.swapsAxes ? Double(w) / Double(h) : Double(h) / Double(w)
    }

    /// A WebP's EXIF orientation: its chunk comes after the picture, so the chunks are
    /// walked by their headers (8 bytes each, at most 64) and only the EXIF one is read.
    private static func webpOrientation(_ fd: Int32, size: Int) -> ExifOrientation {
        var at = 12
        for _ in 0..<64 {
            let head = read(fd, at: at, count: 8)
            guard head.count == 8 else { return .up }
            let length = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            if head[0..<4].elementsEqual(Array("EXIF".utf8)) {
                // As a file of its own: the RIFF header, then this chunk, for `read(webp:)`.
                let chunk = read(fd, at: at, count: 8 + min(length, 64 << 10))
                return ExifOrientation.read(webp: Array("RIFF\0\0\0\0WEBP".utf8) + chunk)
            }
            at += 8 + length + (length & 1)
            guard at + 8 <= size else { return .up }
        }
        return .up
    }

    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { Glibc.pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
        return Array(bytes.prefix(max(0, n)))
    }

    private static func prefix(_ fd: Int32, _ count: Int) -> [UInt8] { read(fd, at: 0, count: count) }
}
