/// One HDMI-CEC message as the bus carries it: a header byte (initiator and destination, a
/// nibble each), then an opcode and its operands; 16 bytes at most. Bytes from the bus are
/// outside input: `init?(bytes:)` takes any bytes and refuses what no message can be.
public struct CECMessage: Equatable, Sendable, CustomStringConvertible {
    /// Logical addresses: 0 the TV, 4, 8, 11 playback devices, 15 broadcast (as a
    /// destination) or unregistered (as an initiator).
    public static let tv: UInt8 = 0
    public static let broadcast: UInt8 = 15

    public var initiator: UInt8
    public var destination: UInt8
    /// Nil: a poll (the header alone), which asks whether an address is taken.
    public var opcode: UInt8?
    public var operands: [UInt8]

    public init(from initiator: UInt8, to destination: UInt8, _ opcode: Opcode, _ operands: [UInt8] = []) {
        self.initiator = initiator & 0x0F
        self.destination = destination & 0x0F
        self.opcode = opcode.rawValue
        self.operands = operands
    }

    /// The message in `bytes`; nil for none or more than 16 bytes.
    public init?(bytes: [UInt8]) {
        guard let header = bytes.first, bytes.count <= 16 else { return nil }
        initiator = header >> 4
        destination = header & 0x0F
        opcode = bytes.count > 1 ? bytes[1] : nil
        operands = bytes.count > 2 ? Array(bytes[2...]) : []
    }

    public var bytes: [UInt8] {
        [initiator << 4 | destination] + (opcode.map { [$0] } ?? []) + operands
    }

    public var isBroadcast: Bool { destination == Self.broadcast }

    /// The opcodes the program sends or answers (CEC 1.4, the specification's names).
    public enum Opcode: UInt8, Sendable {
        case featureAbort = 0x00
        case imageViewOn = 0x04
        case textViewOn = 0x0D
        case standby = 0x36
        case userControlPressed = 0x44
        case userControlReleased = 0x45
        case giveOSDName = 0x46
        case routingChange = 0x80
        case routingInformation = 0x81
        case activeSource = 0x82
        case givePhysicalAddress = 0x83
        case reportPhysicalAddress = 0x84
        case requestActiveSource = 0x85
        case setStreamPath = 0x86
        case giveDeviceVendorID = 0x8C
        case menuRequest = 0x8D
        case menuStatus = 0x8E
        case giveDevicePowerStatus = 0x8F
        case reportPowerStatus = 0x90
        case inactiveSource = 0x9D
        case getCECVersion = 0x9F
        case abort = 0xFF
    }

    /// A physical address (four nibbles, 1.0.0.0 the TV's first HDMI input) from two
    /// operands at `offset`; nil when the message is too short.
    public func address(at offset: Int) -> UInt16? {
        guard operands.count >= offset + 2 else { return nil }
        return UInt16(operands[offset]) << 8 | UInt16(operands[offset + 1])
    }

    public static func addressBytes(_ address: UInt16) -> [UInt8] { [UInt8(address >> 8), UInt8(address & 0xFF)] }

    /// 1.0.0.0 for 0x1000.
    public static func dotted(_ address: UInt16) -> String {
        [12, 8, 4, 0].map { String((address >> UInt16($0)) & 0xF, radix: 16) }.joined(separator: ".")
    }

    public var description: String {
        "\(initiator)->\(destination == Self.broadcast ? "all" : String(destination)) "
            + (bytes.dropFirst().map { String($0, radix: 16, uppercase: false) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined(separator: ":"))
    }
}

/// The TV remote's keys (User Control Pressed's operand) the program gives a meaning to.
public enum CECKey: UInt8, Sendable, CaseIterable {
    case select = 0x00, up = 0x01, down = 0x02, left = 0x03, right = 0x04
    case rootMenu = 0x09, exit = 0x0D
    case play = 0x44, stop = 0x45, pause = 0x46, rewind = 0x48, fastForward = 0x49
    case forward = 0x4B, backward = 0x4C
    case playFunction = 0x60, pausePlayFunction = 0x61

}
