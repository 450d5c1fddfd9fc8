import CarouselApp
import CarouselCore
import CarouselMedia
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The temporary picture folder `carousel bench --soak` shows, and the churn the mix does
/// to it: pictures added, removed, renamed, written again slowly under their name, the
/// folder emptied and refilled, damaged copies dropped in. Pictures come from `pool` (the
/// user's files or generated ones) by hard link, or by copy across file systems. A file of
/// the pool is never opened for writing: a replacement is a new file under the old name.
final class SoakFolder {
    let path: String
    private let pool: [String]
    /// Small pictures of each format the damaged copies are also made from.
    private let damageable: [String]
    private var random: SeededRandom
    private var serial = 0
    /// A replacement being written: its path, the bytes, how much is written.
    private var writing: [(path: String, bytes: [UInt8], done: Int)] = []
    private var refillAt: Double?
    /// How many of each churn were done, by name.
    private(set) var counts: [String: Int] = [:]
    /// Files the churn could not do (a full disk, say), by cause: said in the report.
    private(set) var problems: [String: Int] = [:]

    init(path: String, pool: [String], damageable: [String] = [], seed: UInt64) throws {
        self.path = path
        self.pool = pool
        self.damageable = pool + damageable
        random = SeededRandom(seed: seed ^ 0x5EED_F11E)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        fill()
    }

    /// Every pool picture, under a fresh name.
    private func fill() {
        for p in pool { place(p) }
    }

    private func place(_ source: String) {
        serial += 1
        let name = String(format: "%06d-", serial) + (source as NSString).lastPathComponent
        let target = path + "/" + name
        if link(source, target) != 0 {
            do { try FileManager.default.copyItem(atPath: source, toPath: target) } catch { note("cannot copy a picture in") }
        }
    }

    private var current: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func pick(_ n: Int, of names: [String]) -> [String] {
        var names = names
        var out: [String] = []
        while out.count < n && !names.isEmpty { out.append(names.remove(at: Int.random(in: 0..<names.count, using: &random))) }
        return out
    }

    private func note(_ problem: String) { problems[problem, default: 0] += 1 }

    func perform(_ churn: SoakMix.FileChurn, now: Double) {
        switch churn {
        case .add(let n):
            counts["added", default: 0] += n
            for _ in 0..<n where !pool.isEmpty { place(pool[Int.random(in: 0..<pool.count, using: &random)]) }
        case .replaceWhileWriting:
            guard let name = pick(1, of: current).first, !pool.isEmpty,
                  let bytes = FileManager.default.contents(atPath: pool[Int.random(in: 0..<pool.count, using: &random)])
            else { return }
            counts["replaced while being written", default: 0] += 1
            let target = path + "/" + name
            unlink(target)
            guard FileManager.default.createFile(atPath: target, contents: nil) else { note("cannot write a replacement"); return }
            writing.append((target, [UInt8](bytes), 0))
        case .remove(let n):
            for name in pick(n, of: current) where unlink(path + "/" + name) == 0 { counts["removed", default: 0] += 1 }
        case .rename(let n):
            for name in pick(n, of: current) {
                serial += 1
                let renamed = String(format: "%06d-renamed-", serial) + name
                if rename(path + "/" + name, path + "/" + renamed) == 0 { counts["renamed", default: 0] += 1 }
            }
        case .emptyAndRefill:
            counts["emptied and refilled", default: 0] += 1
            writing.removeAll()
            for name in current { unlink(path + "/" + name) }
            refillAt = now + 3
        case .hostile(let n):
            for _ in 0..<n where !damageable.isEmpty {
                let source = damageable[Int.random(in: 0..<damageable.count, using: &random)]
                guard let bytes = FileManager.default.contents(atPath: source) else { continue }
                let damage = ImageDamage.allCases[Int.random(in: 0..<ImageDamage.allCases.count, using: &random)]
                let damaged = damage.apply(to: [UInt8](bytes), random: &random)
                serial += 1
                let target = path + String(format: "/%06d-hostile-\(damage)-", serial) + (source as NSString).lastPathComponent
                if FileManager.default.createFile(atPath: target, contents: Data(damaged)) {
                    counts["hostile files", default: 0] += 1
                } else { note("cannot write a hostile file") }
            }
        }
    }

    /// Goes on with slow writes (a tenth of the file a call) and a refill that fell due.
    func tick(now: Double) {
        if let at = refillAt, now >= at {
            refillAt = nil
            fill()
        }
        writing = writing.compactMap { job in
            var job = job
            let chunk = max(1, job.bytes.count / 10)
            let end = min(job.bytes.count, job.done + chunk)
            guard let handle = FileHandle(forWritingAtPath: job.path) else { return nil }  // removed meanwhile
            defer { try? handle.close() }
            do {
                try handle.seekToEnd()
                try handle.write(contentsOf: job.bytes[job.done..<end])
            } catch { note("cannot write a replacement"); return nil }
            job.done = end
            return end < job.bytes.count ? job : nil
        }
    }
}
