import ArgumentParser
import CarouselControl
import Foundation

/// `--group`: screens that show one show in step, over the MQTT broker and the hosts'
/// clocks (kept by NTP). Off by default.
struct GroupOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Show one show in step with the other screens of group NAME: autoplay steps at the same instants on all, and a swipe, key or remote command on any screen moves them all (needs --mqtt, or --group-epoch for autoplay alone).", valueName: "NAME"))
    var group: String?

    @Option(help: ArgumentHelp("The instant the group's show began (ISO 8601, e.g. 2026-01-01T00:00:00Z, or seconds since 1970); unset: the screens agree on the earliest start over the broker.", valueName: "TIME"))
    var groupEpoch: String?

    @Option(help: ArgumentHelp("Seconds between a command on one screen and the instant every screen of the group shows it (default 0.15): longer than the broker's round trip.", valueName: "SECONDS"))
    var groupLead: Double?

    init() {}

    static let defaultLead = 0.15

    /// `--group-epoch` as seconds since 1970; nil when unset or not an instant.
    var epoch: Double? {
        guard let text = groupEpoch?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text), seconds.isFinite { return seconds }
        let f = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            f.formatOptions = options
            if let d = f.date(from: text) { return d.timeIntervalSince1970 }
        }
        return nil
    }

    func validate(mqtt: String?) throws {
        guard let group else {
            if (groupEpoch != nil || groupLead != nil) && !ConfigFile.checkingOneKey { throw ValidationError("--group-epoch and --group-lead are for --group, which is not set") }
            return
        }
        if group.isEmpty || MQTTSettings.topicSafe(group) != group {
            throw ValidationError("--group may hold letters, digits, - and _ only (up to 64), not \(group)")
        }
        if let text = groupEpoch {
            guard let e = epoch, e >= 1_577_836_800, e < 7_258_118_400 else {
                throw ValidationError("--group-epoch must be an instant from 2020 on, as 2026-01-01T00:00:00Z or seconds since 1970, not \(text)")
            }
        }
        if let lead = groupLead, !(lead >= 0 && lead <= 5) { throw ValidationError("--group-lead must be from 0 to 5 seconds, not \(lead)") }
        if mqtt == nil && groupEpoch == nil && !ConfigFile.checkingOneKey {
            throw ValidationError("--group \(group) needs --mqtt (the screens agree and pass commands over the broker), or --group-epoch for autoplay in step alone")
        }
    }

    var configEntries: [ConfigEntry] {
        [.init("group", group.map { .string($0) }, unset: "none"),
         .init("group-epoch", groupEpoch.map { .string($0) }, unset: "agreed over the broker"),
         .init("group-lead", .number(groupLead ?? Self.defaultLead))]
    }
}
