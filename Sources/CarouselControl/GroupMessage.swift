import CarouselCore
import Foundation

/// What the screens of a group (`--group`) say to each other over the broker: a command for
/// all (`GroupTimeline.Command`, stamped with the shared instant it takes effect at), and
/// the group's epoch (retained: the show's start that a screen joining late counts from).
/// Each carries its screen's id and a fingerprint of its show, so a screen with another show
/// is told apart. Bytes from the network: bounded, checked field by field, fuzzed
/// (`carousel-fuzz group-message`); anything else is refused in one line.
public enum GroupMessage: Hashable, Sendable {
    case command(GroupTimeline.Command, show: String)
    /// The group's epoch, its interval (nil: no autoplay) and the show it was made for.
    case epoch(Double, interval: Double?, screen: String, show: String)

    public static let payloadLimit = 1024
    /// Shared instants are wall-clock seconds: from 2020 to 2200.
    static let instants = 1_577_836_800.0...7_258_118_400.0

    /// The payload sent.
    public var payload: [UInt8] {
        var fields: [String: Any] = ["v": 1]
        switch self {
        case .command(let c, let show):
            fields["screen"] = c.screen
            fields["time"] = c.time
            fields["show"] = show
            switch c.action {
            case .show(let item, let idle): fields["action"] = "show"; fields["item"] = item; fields["idle"] = idle
            case .pause(let item): fields["action"] = "pause"; fields["item"] = item
            case .play(let item): fields["action"] = "play"; fields["item"] = item
            }
        case .epoch(let epoch, let interval, let screen, let show):
            fields["epoch"] = epoch
            fields["screen"] = screen
            fields["show"] = show
            if let interval { fields["interval"] = interval }
        }
        return [UInt8]((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data())
    }

    /// The fields a message may have; a field of the wrong JSON type refuses the whole.
    private struct Fields: Decodable {
        var v: Int?
        var screen: String?
        var show: String?
        var epoch: Double?
        var interval: Double?
        var time: Double?
        var action: String?
        var item: Double?
        var idle: Double?
    }

    /// The message in `payload`, or what is wrong with it (one line).
    public static func parse(_ payload: [UInt8]) -> Result<GroupMessage, GroupMessageProblem> {
        guard payload.count <= payloadLimit else { return .failure(.init("longer than \(payloadLimit) bytes")) }
        guard let f = try? JSONDecoder().decode(Fields.self, from: Data(payload)) else {
            return .failure(.init("not a JSON object of a group message's fields"))
        }
        guard f.v == 1 else { return .failure(.init("not version 1")) }
        guard let screen = f.screen, isScreenID(screen) else {
            return .failure(.init("'screen' is not a screen id (1 to 64 letters, digits, '.', '_' or '-')"))
        }
        guard let show = f.show, isFingerprint(show) else {
            return .failure(.init("'show' is not a show's fingerprint (16 to 64 hexadecimal digits)"))
        }
        if let epoch = f.epoch {
            guard instants.contains(epoch) else { return .failure(.init("'epoch' is not an instant")) }
            if let i = f.interval, !(i > 0 && i <= 86_400) { return .failure(.init("'interval' is not 0 to 86400 seconds")) }
            return .success(.epoch(epoch, interval: f.interval, screen: screen, show: show))
        }
        guard let time = f.time, instants.contains(time) else { return .failure(.init("'time' is not an instant")) }
        guard let item = f.item.flatMap({ $0 >= 0 && $0 < 10_000_000 && $0.rounded() == $0 ? Int($0) : nil }) else {
            return .failure(.init("'item' is not an index"))
        }
        let action: GroupTimeline.Command.Action
        switch f.action {
        case "show":
            guard let idle = f.idle, idle >= 0, idle <= 86_400 else { return .failure(.init("'idle' is not 0 to 86400 seconds")) }
            action = .show(item: item, idle: idle)
        case "pause": action = .pause(item: item)
        case "play": action = .play(item: item)
        default: return .failure(.init("'action' is not show, pause or play"))
        }
        return .success(.command(GroupTimeline.Command(time: time, screen: screen, action: action), show: show))
    }

    static func isScreenID(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count) && s.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F || c == 0x2D
        }
    }

    static func isFingerprint(_ s: String) -> Bool {
        (16...64).contains(s.utf8.count) && s.utf8.allSatisfy { c in (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) }
    }
}

/// Why a group message was refused: one line.
public struct GroupMessageProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
