import CarouselCore
import Glibc

/// A decoder helper's memory: the address-space limit it runs under, less what the program
/// itself already takes. A file whose header says decoding it needs more is refused with
/// a reason before anything is allocated; a file that lies runs into the limit itself
/// (RLIMIT_AS), where the decoder's allocation fails instead of the machine running out.
struct MemoryBudget {
    /// RLIMIT_AS, in bytes.
    var limit: Int
    /// Address space mapped before any decoding (code, libraries, heap), in bytes.
    var inUse: Int

    var available: Int { max(0, limit - inUse) }

    /// This process's mapped address space now, from /proc/self/statm; 0 if unreadable.
    /// Read before the sandbox forbids opening it.
    static var addressSpaceInUse: Int {
        guard let f = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), f) != nil,
              let pages = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(separator: " ").first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `check` on the header at the start of the open file `fd` (its first 64 KB: a JPEG's
    /// frame header may follow a large Exif block), after the megapixel limit `maxPixels`
    /// (`--max-megapixels`), whose own message a header over it gets (not the memory's).
    /// The header's pixel count, when it gives one.
    @discardableResult
    func check(file fd: Int32, box: Size, dctScaling: Bool, maxPixels: Int = .max, name: String) throws(ImageError) -> Int? {
        var head = [UInt8](repeating: 0, count: 64 << 10)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let header = ImageHeader.read(Array(head.prefix(max(0, n))))
        if let w = header.width, let h = header.height, w > 0, h > 0 {
            let pixels = w.multipliedReportingOverflow(by: h)
            if pixels.overflow || pixels.partialValue > maxPixels {
                throw ImageError(path: name, reason: "claims \(w)x\(h) pixels, over the \(FittingDecoder.megapixels(maxPixels)) megapixel limit")
            }
        }
        try check(header, box: box, dctScaling: dctScaling, name: name)
        return header.pixelCount
    }

    /// Refuses a file whose header says its decode needs more than is available: the
    /// decoded pixels (at the JPEG DCT scale that will be used, else full size), the
    /// fitted copy and one resampling pass.
    func check(_ header: ImageHeader, box: Size, dctScaling: Bool, name: String) throws(ImageError) {
        guard let w = header.width, let h = header.height, w > 0, h > 0 else { return }
        var decoded = (w, h)
        if header.format == .jpeg && dctScaling {
            let fitted = AspectFit.size(of: Size(width: Double(max(w, h)), height: Double(min(w, h))), in: box)
            let scale = DCTScale.choose(source: (max(w, h), min(w, h)), target: (Int(fitted.width), Int(fitted.height)))
            decoded = (scale.scaled(w), scale.scaled(h))
        }
        let pixels = decoded.0.multipliedReportingOverflow(by: decoded.1)
        let boxBytes = Int(box.width * box.height) * 4
        let needed = pixels.overflow || pixels.partialValue > Int.max / 8 ? Int.max
            : pixels.partialValue * 4 + 2 * boxBytes
        if needed > available {
            throw ImageError(path: name, reason: "needs about \(needed >> 20) MB to decode (\(w)x\(h)), more than the \(available >> 20) MB the decoder has free of its \(limit >> 20) MB (--decode-memory)")
        }
    }

    /// A decoder's own out-of-memory message, said in terms of the limit. libheif says an
    /// allocation that failed inside its decoder plugin or its colour conversion as
    /// "Decoder plugin generated an error" or "Unsupported color conversion": for a
    /// picture of `pixels` that could need more than is available (about 28 bytes a pixel,
    /// measured with AVIF through dav1d), it is said as memory too.
    func explain(_ reason: String, pixels: Int? = nil) -> String {
        let lower = reason.lowercased()
        let memory = lower.contains("out of memory") || lower.contains("memory allocation") || lower.contains("insufficient memory")
        let heifMemory = (lower.contains("decoder plugin generated an error") || lower.contains("unsupported color conversion"))
            && (pixels.map { $0 > available / 28 } ?? false)
        guard memory || heifMemory else { return reason }
        return "needs more memory than the \(available >> 20) MB the decoder has free of its \(limit >> 20) MB (--decode-memory): \(reason)"
    }
}
