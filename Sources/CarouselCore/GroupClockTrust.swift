/// Which clocks a group trusts (issue 62). Screens keep step by their wall clocks, so a
/// wrong clock would lead the others: a Pi without a real-time clock boots at its last
/// shutdown's time, or in the future after a fake-hwclock restore, until NTP has answered.
/// Pure: what the kernel and the exchange over the broker say comes in as values.
///
/// The rules:
/// - A command stamped more than `horizon(lead:)` ahead of the receiver's clock (the lead
///   every command carries, plus `tolerance`) is refused: it is a wrong clock's, and under
///   last-writer-wins it would silence every later command until its instant.
/// - A screen commands the group (its keys, swipes, pauses and clip holds go to the others)
///   only while its clock can be trusted: the kernel says NTP keeps it; or else it is within
///   a frame of the group's by the exchange over the broker (or not measured yet: a wall
///   without NTP whose clocks agree, several screens on one host, keep working). NTP's word
///   wins over the exchange, so of two screens apart the one NTP does not keep is the one
///   that stops commanding (their offsets mirror each other). A screen that may not command
///   still follows the group.
public enum GroupClockTrust {
    /// How far a screen's clock may be from the others' and its commands still be heard:
    /// one second (beyond it their steps are visibly apart anyway).
    public static let tolerance = 1.0

    /// A frame at 60 Hz: the offset beyond which a clock NTP does not vouch for is wrong.
    public static let frame = 1.0 / 60

    /// The furthest ahead of the receiver's clock a command may be stamped.
    public static func horizon(lead: Double) -> Double { max(0, lead) + tolerance }

    /// Whether a screen whose kernel says `synchronised` (nil: cannot say) and whose clock is
    /// `offset` from the group's (nil: not measured yet), give or take `error`, commands it.
    public static func mayCommand(synchronised: Bool?, offset: Double?, error: Double?) -> Bool {
        if synchronised == true { return true }
        guard let offset, offset.isFinite else { return true }
        return abs(offset) - max(0, error ?? 0) <= frame
    }
}
