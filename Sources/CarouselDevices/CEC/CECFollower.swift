/// What the screen says and answers on the HDMI-CEC bus as a playback device, and what it
/// hears: pure (no device, no clock), so recorded message sequences are its tests.
///
/// Decided: the screen wakes the TV (Image View On, then Active Source, which switches the
/// TV to its input) when the screen comes on, and puts it in standby when the screen goes
/// dark only while the TV shows it (it is the active source): a family watching another
/// input at closing time keeps its film. A wake by presence or a touch does not take the
/// TV from another input either; the opening hours and a remote command do.
public struct CECFollower: Sendable {
    /// The logical address claimed (4, 8, 11: playback); nil before the claim.
    public var logicalAddress: UInt8?
    /// The adapter's physical address (0xFFFF: not on a bus).
    public var physicalAddress: UInt16 = 0xFFFF
    /// The TV shows this screen's input, as far as the bus said.
    public private(set) var activeSource = false
    /// The TV's last reported power, nil before it said.
    public private(set) var tvPower: TVPower?
    /// Another device took the TV's input since this screen last had it.
    public private(set) var anotherSource = false
    /// The screen is lit (reported to a TV that asks for this device's power).
    public var screenOn = true

    public enum TVPower: UInt8, Sendable {
        case on = 0, standby = 1, waking = 2, goingToStandby = 3
        public var name: String {
            switch self {
            case .on: "on"
            case .standby: "standby"
            case .waking: "waking"
            case .goingToStandby: "going to standby"
            }
        }
    }

    /// What a received message means to the program.
    public enum Heard: Equatable, Sendable {
        /// A remote key pressed (a held key repeats it).
        case key(CECKey)
        /// The TV went to standby (its own remote, or another device's Standby).
        case tvStandby
        /// The TV switched to this screen's input (a person chose it).
        case selected
        /// The TV reported its power.
        case tvPower(TVPower)
    }

    public init() {}

    /// Answers a message from the bus: the messages to send back and what it meant. Any
    /// bytes at all: a message too short for its opcode is refused with Feature Abort
    /// (invalid operand) when sent to this screen, ignored when broadcast.
    public mutating func receive(_ m: CECMessage) -> (send: [CECMessage], heard: [Heard]) {
        guard let me = logicalAddress, m.initiator != me, let code = m.opcode else { return ([], []) }
        let toMe = m.destination == me
        guard toMe || m.isBroadcast else { return ([], []) }
        let op = CECMessage.Opcode(rawValue: code)
        // Broadcast-only and directed-only messages the wrong way round are ignored, as the
        // specification asks.
        switch op {
        case .userControlPressed where toMe:
            guard let raw = m.operands.first else { return (invalid(m, me), []) }
            guard let key = CECKey(rawValue: raw) else { return ([], []) }
            return ([], [.key(key)])
        case .userControlReleased where toMe:
            return ([], [])
        case .giveDevicePowerStatus where toMe:
            return ([CECMessage(from: me, to: m.initiator, .reportPowerStatus, [screenOn ? 0 : 1])], [])
        case .reportPowerStatus where toMe:
            guard let raw = m.operands.first else { return (invalid(m, me), []) }
            guard let power = TVPower(rawValue: raw), m.initiator == CECMessage.tv else { return ([], []) }
            tvPower = power
            return ([], [.tvPower(power)])
        case .menuRequest where toMe:
            // TVs ask before they pass their remote's keys on: the menu is "activated".
            return ([CECMessage(from: me, to: m.initiator, .menuStatus, [0])], [])
        case .standby where m.initiator == CECMessage.tv || m.isBroadcast:
            let was = tvPower
            tvPower = .standby
            activeSource = false
            return ([], was == .standby ? [] : [.tvStandby])
        case .requestActiveSource where m.isBroadcast:
            return (activeSource ? [activeSourceMessage(me)] : [], [])
        case .setStreamPath where m.isBroadcast:
            guard let address = m.address(at: 0) else { return ([], []) }
            guard address == physicalAddress, physicalAddress != 0xFFFF else {
                anotherSource = activeSource || anotherSource
                activeSource = false
                return ([], [])
            }
            let was = activeSource
            activeSource = true
            anotherSource = false
            tvPower = .on
            return ([activeSourceMessage(me)], was ? [] : [.selected])
        case .activeSource where m.isBroadcast:
            guard let address = m.address(at: 0) else { return ([], []) }
            if address != physicalAddress {
                anotherSource = true
                activeSource = false
            }
            return ([], [])
        case .routingChange where m.isBroadcast, .routingInformation where m.isBroadcast:
            guard let new = m.address(at: op == .routingChange ? 2 : 0) else { return ([], []) }
            if new != physicalAddress && activeSource {
                activeSource = false
                anotherSource = true
            }
            return ([], [])
        case .featureAbort, .abort, .standby:
            // Abort is the kernel's to answer; a Standby from another player is not the TV's.
            return ([], [])
        default:
            // The kernel answers the core messages (address, name, vendor, version) itself;
            // anything else sent to this screen is refused, as a follower must.
            return (toMe ? [CECMessage(from: me, to: m.initiator, .featureAbort, [code, 0])] : [], [])
        }
    }

    /// The screen came on: the TV out of standby and on this screen's input. `takeOver`
    /// false (a presence, a touch): not while another device has the TV.
    public mutating func wake(takeOver: Bool) -> [CECMessage] {
        guard let me = logicalAddress, physicalAddress != 0xFFFF else { return [] }
        if anotherSource && !takeOver && tvPower != .standby { return [] }
        activeSource = true
        anotherSource = false
        tvPower = .on
        return [CECMessage(from: me, to: CECMessage.tv, .imageViewOn), activeSourceMessage(me)]
    }

    /// The screen went dark: the TV to standby while it shows this screen.
    public mutating func standby() -> [CECMessage] {
        guard let me = logicalAddress, activeSource else { return [] }
        return [CECMessage(from: me, to: CECMessage.tv, .standby)]
    }

    /// The TV took the Standby: it is off, and no longer shows anything.
    public mutating func tvWentToStandby() {
        tvPower = .standby
    }

    /// The question that tells whether a TV is there and what its power is.
    public func askTVPower() -> CECMessage? {
        logicalAddress.map { CECMessage(from: $0, to: CECMessage.tv, .giveDevicePowerStatus) }
    }

    private func activeSourceMessage(_ me: UInt8) -> CECMessage {
        CECMessage(from: me, to: CECMessage.broadcast, .activeSource, CECMessage.addressBytes(physicalAddress))
    }

    private func invalid(_ m: CECMessage, _ me: UInt8) -> [CECMessage] {
        m.opcode.map { [CECMessage(from: me, to: m.initiator, .featureAbort, [$0, 3])] } ?? []
    }
}
