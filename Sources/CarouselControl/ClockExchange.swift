/// NTP's arithmetic for one exchange over the broker (`--group`'s clock health): this screen
/// sends `ping` (its clock), another receives it at `got` and answers at `sent` (its clock),
/// and the answer arrives at `received` (this clock). With the two legs taking about as long,
/// the other clock minus this one is the mean of the two legs' differences.
public enum ClockExchange {
    /// (the other clock minus this one, the round trip without the other's turnaround).
    public static func offset(ping: Double, got: Double, sent: Double, received: Double) -> (offset: Double, roundTrip: Double) {
        (((got - ping) + (sent - received)) / 2, (received - ping) - (sent - got))
    }

    /// This clock minus the group's, from the other screens' offsets (theirs minus this
    /// one): minus their median, so one screen far off does not move it; nil for none.
    public static func offsetFromGroup(_ others: [Double]) -> Double? {
        median(others).map { -$0 }
    }

    /// This clock minus the group's and how far that may be off, from each other screen's
    /// best exchange (its offset and round trip): the median offset negated, and the median
    /// of half the round trips (an exchange's error is at most half its round trip).
    public static func fromGroup(_ best: [(offset: Double, roundTrip: Double)]) -> (offset: Double, error: Double)? {
        guard let offset = offsetFromGroup(best.map(\.offset)), let error = median(best.map { $0.roundTrip / 2 }) else { return nil }
        return (offset, error)
    }

    static func median(_ values: [Double]) -> Double? {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return nil }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
