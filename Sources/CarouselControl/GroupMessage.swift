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
    /// The group's epoch, its interval (nil: no autoplay) and the show it was made for;
    /// `kept`: whether NTP kept the clock of the screen that proposed it (nil: not said),
    /// which `GroupAgreement.takes` weighs.
    case epoch(Double, interval: Double?, screen: String, show: String, kept: Bool?)
    /// A screen asks the others their clocks: `ping` is its wall clock when it sent it.
    case clockPing(ping: Double, screen: String, show: String)
    /// The answer to `to`'s ping: when it was received here and when the answer left, on
    /// this screen's wall clock (an NTP exchange over the broker).
    case clockReply(ping: Double, got: Double, sent: Double, to: String, screen: String, show: String)

    public static let payloadLimit = 1024
    /// Shared instants are wall-clock seconds: from 2020 to 2200.
    static let instants = 1_577_836_800.0...7_258_118_400.0

    /// The payload sent.
    public var payload: [UInt8] {
        var fields: [String: Any] = ["v": 1]
        switch self {
        case .command(let c, let show):
            fields["screen"] = c.screen
            fields["time_us"] = Self.us(c.time)
            fields["show"] = show
            switch c.action {
            case .show(let item, let idle): fields["action"] = "show"; fields["item"] = item; fields["idle"] = idle
            case .pause(let item): fields["action"] = "pause"; fields["item"] = item
            case .play(let item): fields["action"] = "play"; fields["item"] = item
            }
        case .epoch(let epoch, let interval, let screen, let show, let kept):
            fields["epoch_us"] = Self.us(epoch)
            fields["screen"] = screen
            fields["show"] = show
            if let interval { fields["interval"] = interval }
            if let kept { fields["ntp"] = kept }
        case .clockPing(let ping, let screen, let show):
            (fields["ping_us"], fields["screen"], fields["show"]) = (Self.us(ping), screen, show)
        case .clockReply(let ping, let got, let sent, let to, let screen, let show):
            (fields["ping_us"], fields["got_us"], fields["sent_us"], fields["to"]) = (Self.us(ping), Self.us(got), Self.us(sent), to)
            (fields["screen"], fields["show"]) = (screen, show)
        }
        return [UInt8]((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data())
    }

    /// The fields a message may have; a field of the wrong JSON type refuses the whole.
    private struct Fields: Decodable {
        var v: Int?
        var screen: String?
        var show: String?
        var epoch_us: Int64?
        var interval: Double?
        var time_us: Int64?
        var action: String?
        var item: Double?
        var idle: Double?
        var ping_us: Int64?
        var got_us: Int64?
        var sent_us: Int64?
        var to: String?
        var ntp: Bool?
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
        if let ping = f.ping_us.flatMap(instant) {
            guard f.got_us != nil || f.sent_us != nil || f.to != nil else { return .success(.clockPing(ping: ping, screen: screen, show: show)) }
            guard let got = f.got_us.flatMap(instant), let sent = f.sent_us.flatMap(instant), sent >= got else {
                return .failure(.init("'got_us' and 'sent_us' are not instants, 'sent_us' not before 'got_us'"))
            }
            guard let to = f.to, isScreenID(to) else { return .failure(.init("'to' is not a screen id")) }
            return .success(.clockReply(ping: ping, got: got, sent: sent, to: to, screen: screen, show: show))
        }
        if f.ping_us != nil { return .failure(.init("'ping_us' is not an instant")) }
        if let us = f.epoch_us {
            guard let epoch = instant(us) else { return .failure(.init("'epoch_us' is not an instant")) }
            if let i = f.interval, !(i > 0 && i <= 86_400) { return .failure(.init("'interval' is not 0 to 86400 seconds")) }
            return .success(.epoch(epoch, interval: f.interval, screen: screen, show: show, kept: f.ntp))
        }
        guard let time = f.time_us.flatMap(instant) else { return .failure(.init("'time_us' is not an instant")) }
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

    /// Instants travel as whole microseconds since 1970 (JSON integers): a number of seconds
    /// with a fraction came back from Foundation's JSON a bit off one time in two, and every
    /// screen must read a command's instant to the bit. `GroupTimeline.microseconds` makes
    /// the instants sent whole microseconds first.
    static func us(_ t: Double) -> Int64 { t.isFinite && abs(t) < 9e12 ? Int64((t * 1e6).rounded()) : 0 }

    /// Microseconds as seconds, when an instant from 2020 to 2200.
    static func instant(_ us: Int64) -> Double? {
        let t = Double(us) / 1e6
        return instants.contains(t) ? t : nil
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
