import Foundation

/// The panel's backlight, through the kernel's `/sys/class/backlight/*` (laptops, the
/// Raspberry Pi's official displays, most embedded panels). HDMI monitors have none.
struct Backlight {
    let directory: String
    let maximum: Int

    /// The first backlight the kernel offers; nil where there is none. `root` for tests.
    static func find(root: String = "/sys/class/backlight") -> Backlight? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        for name in names.sorted() {
            let dir = root + "/" + name
            if let max = read(dir + "/max_brightness"), max > 0 { return Backlight(directory: dir, maximum: max) }
        }
        return nil
    }

    /// The level now, 0 to 1.
    var level: Double? { Self.read(directory + "/brightness").map { Double($0) / Double(maximum) } }

    /// Sets the level; a one-line reason when the kernel refuses (permission).
    func set(_ value: Double) -> String? {
        let raw = Int((min(max(value, 0), 1) * Double(maximum)).rounded())
        let path = directory + "/brightness"
        guard let handle = FileHandle(forWritingAtPath: path) else {
            return "\(path) cannot be written (the kiosk unit's udev rule gives the video group write access)"
        }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data(String(raw).utf8)) } catch { return "\(path): \(error.localizedDescription)" }
        return nil
    }

    private static func read(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
