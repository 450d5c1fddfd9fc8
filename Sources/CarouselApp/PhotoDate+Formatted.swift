import CarouselMedia
import Foundation

extension PhotoDate {
    /// This wall time in strftime's `format`, days' and months' names in the locale's words
    /// (set once by `ClockText`); empty if the format makes nothing.
    func formatted(_ format: String) -> String {
        ClockText.useLocale()
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        // The weekday and the day of the year, worked out as UTC (the wall time is kept as it is).
        var worked = parts
        _ = timegm(&worked)
        parts.tm_wday = worked.tm_wday
        parts.tm_yday = worked.tm_yday
        return ClockText.format(format, parts)
    }
}
