import CarouselCore
import Foundation
import CarouselClock

/// `--clock`'s text: the wall time through strftime, in the machine's time zone and, for
/// the names of days and months, the locale's (`LANG`, `LC_TIME`).
public struct ClockText {
    let face: ClockFace
    /// The wall clock; `carousel render` gives its own.
    let wallClock: () -> Date

    public init(face: ClockFace, wallClock: @escaping () -> Date = { SystemClock.date }) {
        Self.useLocale()
        self.face = face
        self.wallClock = wallClock
    }

    /// The C library's names of days and months from the environment's locale: once, on the
    /// main thread, where every strftime of ours runs.
    static func useLocale() { _ = localeSet }
    private static let localeSet: Void = { _ = setlocale(LC_TIME, "") }()

    /// The text now.
    public func text() -> String { Self.format(face.format, wallClock()) }

    /// When, on the loop's clock whose time is `now`, the text changes next.
    func nextChange(now: Double) -> Double { face.nextChange(now: now, wall: wallClock().timeIntervalSince1970) }

    /// `date` in `format`, local time; empty if the format makes nothing or more than 255 bytes.
    static func format(_ format: String, _ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        return Self.format(format, parts)
    }

    /// `parts` in strftime's `format`; empty if it makes nothing or more than 255 bytes.
    static func format(_ format: String, _ parts: tm) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 256)
        let n = strftime(&buffer, buffer.count, format, &parts)
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
