import CarouselCore
import Synchronization

/// `--order fair` and `--order random` in a group (`--group`): every screen must show the same
/// item at each step, so the order is not drawn on each screen but seeded by the group's name
/// (`GroupAgreement.seededOrder`): the same on every screen whatever its start, and each item
/// once a pass. Set once at start, before the first scan, from the group's name; no kept round
/// and no reshuffle each pass then (the group's timeline is where the show is).
enum ShowOrderSeed {
    private static let name = Mutex<String?>(nil)

    static var group: String? {
        get { name.withLock { $0 } }
        set { name.withLock { $0 = newValue } }
    }

    /// `sources` in the group's order.
    static func arrange(_ sources: [ImageSource], group: String, identity: ShowIdentity) -> [ImageSource] {
        GroupAgreement.seededOrder(sources.map(identity.of), group: group).map { sources[$0] }
    }
}
