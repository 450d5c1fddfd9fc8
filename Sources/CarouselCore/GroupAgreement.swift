/// How the screens of a group (`--group` with `--mqtt` alone, no epoch configured) agree on
/// their epoch and tell a screen with another show, without a leader. Pure.
///
/// Each screen proposes the instant it started; the epoch is the earliest proposal any
/// screen has seen, its own included. The broker keeps one retained epoch per group: a
/// screen that finds none, or a later one than it holds, publishes its own, so the retained
/// one only ever moves earlier and every screen ends on the group's earliest once it has
/// read it (the retained message is read at subscription, so a screen that joins late has
/// it at once).
public enum GroupAgreement {
    /// The epoch to hold after seeing `seen` (proposals and retained epochs), `own` the
    /// screen's own proposal (its start).
    public static func epoch(own: Double, seen: [Double]) -> Double {
        seen.filter(\.isFinite).reduce(own, min)
    }

    /// Whether a screen holding `held` takes the proposed epoch `epoch` (issue 62): an epoch
    /// proposed by a screen whose clock NTP keeps (`kept` true, or not said: an older screen,
    /// a kernel that cannot say) wins over one whose clock NTP does not keep, whatever their
    /// instants; between two of the same kind, the earlier wins. So a screen that booted with
    /// a clock far behind (a Pi without a real-time clock, its last shutdown's time restored)
    /// cannot move the group's epoch back where NTP keeps the other screens' clocks, and every
    /// screen ends on the same epoch, the least by that order of all it has seen.
    public static func takes(_ epoch: Double, kept: Bool?, holding held: Double, kept heldKept: Bool?) -> Bool {
        guard epoch.isFinite else { return false }
        let (mine, theirs) = (heldKept == false ? 1 : 0, kept == false ? 1 : 0)
        return theirs != mine ? theirs < mine : epoch < held
    }

    /// Whether to publish `held` as the group's retained epoch: none is retained, or a later one.
    public static func publishes(held: Double, retained: Double?) -> Bool {
        retained.map { held < $0 } ?? true
    }

    /// The order a group's screens show their items in under `--order fair` or `random`: every
    /// screen the same, from the group's name and each item's identity (`ShowIdentity`) alone,
    /// so screens that mount the pictures elsewhere agree, and an item arriving takes its
    /// place without moving the others. The indices of `identities`, in that order.
    public static func seededOrder(_ identities: [String], group: String) -> [Int] {
        identities.indices.map { i in (fingerprint(names: [group, identities[i]], interval: nil), identities[i], i) }
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }.map(\.2)
    }

    /// A show's fingerprint: FNV-1a (64 bits, 16 hexadecimal digits) of its items' identities
    /// (`ShowIdentity`) in order and its autoplay interval. Screens whose fingerprints differ
    /// do not show the same show.
    public static func fingerprint(names: [String], interval: Double?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: some Sequence<UInt8>) {
            for b in bytes {
                hash ^= UInt64(b)
                hash = hash &* 0x100_0000_01b3
            }
        }
        for name in names {
            add(name.utf8)
            add([0])
        }
        add(String(interval.map { ($0 * 1000).rounded() } ?? -1).utf8)
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
