import CarouselCore

/// What one input device (a Linux evdev node) says, turned into fingers, a pointer, a wheel
/// and key activity: the kernel's event stream of one device, decoded the way the kernel's
/// input protocol means it. Pure: bytes in, `DeviceInput` out; `EventDeviceReader` feeds it.
///
/// What SDL 2.26's own evdev reader gets wrong, and this gets right (found by kiosk/vm-test,
/// issue 43: a drag through QEMU's USB tablet was lost one boot in two):
/// - an axis missing from a report keeps its last value (SDL took it as 0: a press that
///   moved only sideways landed at the top edge of the screen);
/// - an absolute axis is scaled from the device's own range to the screen (SDL passed the
///   raw value: a panel reporting 0–4095 or 0–32767 pointed off the screen);
/// - only event nodes are read (SDL also read the PS/2 emulation `/dev/input/mouseN` as if
///   it were evdev: garbage presses and motion);
/// - a `SYN_DROPPED` (the reader fell behind and the kernel dropped events) ends what was
///   held instead of inventing motion from half a report.
public struct EvdevDecoder {
    /// What the device can do, read once from its capabilities.
    public struct Capabilities: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// Fingers with slots (the kernel's multitouch protocol B).
            case multitouch
            /// One contact (BTN_TOUCH and ABS_X/ABS_Y): a resistive or single-touch panel.
            case singleTouch
            /// An absolute pointer with a left button: a tablet, a panel presenting as a mouse,
            /// a virtual machine's pointer.
            case absolutePointer
            /// A mouse.
            case relativePointer
            /// Keys only (a keyboard, a remote's receiver, a power button): SDL reads them.
            case keys
        }
        public var kind: Kind
        /// The range of the X and Y axes used for positions (the multitouch ones for `.multitouch`).
        public var x: ClosedRange<Int32>
        public var y: ClosedRange<Int32>
        /// How many slots a multitouch device has.
        public var slots: Int
        /// REL_WHEEL_HI_RES is given (120 a notch); the plain REL_WHEEL is then not counted.
        public var hiResWheel: Bool

        public init(kind: Kind, x: ClosedRange<Int32> = 0...1, y: ClosedRange<Int32> = 0...1,
                    slots: Int = 1, hiResWheel: Bool = false) {
            self.kind = kind
            self.x = x
            self.y = y
            self.slots = max(1, min(slots, Self.maxSlots))
            self.hiResWheel = hiResWheel
        }

        /// More slots than any panel has are not kept (a device may claim 2^31).
        public static let maxSlots = 32

        /// Says what a device is from its event types, keys, absolute and relative axes and
        /// properties (bit sets as the kernel's EVIOCGBIT/EVIOCGPROP give them). Nil: nothing
        /// this program reads (a PC speaker, a lid switch, a touchpad).
        public static func classify(types: BitSet, keys: BitSet, absolute: BitSet, relative: BitSet,
                                    properties: BitSet, range: (UInt16) -> ClosedRange<Int32>?) -> Capabilities? {
            let hiRes = relative.contains(Code.relWheelHiRes)
            // Slots: the kernel's protocol B. A device without them (protocol A, old drivers)
            // is read by the single contact every such driver also reports.
            if absolute.contains(Code.absMTPositionX) && absolute.contains(Code.absMTPositionY)
                && absolute.contains(Code.absMTSlot) && !properties.contains(Code.propPointer) {
                guard let x = range(Code.absMTPositionX), let y = range(Code.absMTPositionY) else { return nil }
                var slots = 1
                if let r = range(Code.absMTSlot) {
                    slots = Int(clamping: Int64(r.upperBound) - Int64(r.lowerBound) + 1)
                }
                return Capabilities(kind: .multitouch, x: x, y: y, slots: slots, hiResWheel: hiRes)
            }
            if absolute.contains(Code.absX) && absolute.contains(Code.absY) && !properties.contains(Code.propPointer),
               let x = range(Code.absX), let y = range(Code.absY) {
                if keys.contains(Code.btnLeft) { return Capabilities(kind: .absolutePointer, x: x, y: y, hiResWheel: hiRes) }
                if keys.contains(Code.btnTouch) { return Capabilities(kind: .singleTouch, x: x, y: y, hiResWheel: hiRes) }
            }
            if relative.contains(Code.relX) && relative.contains(Code.relY) && keys.contains(Code.btnLeft) {
                return Capabilities(kind: .relativePointer, hiResWheel: hiRes)
            }
            // Any key below the buttons, or past them (KEY_OK and on: remotes' keys).
            if types.contains(Code.evKey), keys.contains(anyIn: 1..<Code.btnMisc) || keys.contains(anyIn: Code.keyOK..<Code.keyMax) {
                return Capabilities(kind: .keys)
            }
            return nil
        }
    }

    /// The kernel's event type, code and value, and its time (seconds on CLOCK_MONOTONIC).
    public struct Event: Equatable, Sendable {
        public var type: UInt16
        public var code: UInt16
        public var value: Int32
        public var time: Double
        public init(type: UInt16, code: UInt16, value: Int32, time: Double) {
            self.type = type
            self.code = code
            self.value = value
            self.time = time
        }
    }

    public let capabilities: Capabilities
    /// Tells this device's fingers from another's (the high bits of each finger's id).
    private let device: Int64
    /// Where a relative pointer is, in pixels of `screen` (it has no place of its own).
    private let screen: (width: Double, height: Double)

    private struct Slot {
        var contact: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// What the report being collected changed.
        var began = false, ended = false, moved = false
        /// Down before a SYN_DROPPED: ignored until it lifts.
        var stale = false
        /// Down as far as the engine was told.
        var told = false
    }
    private var slots: [Slot]
    private var current = 0
    private var x: Int32 = 0, y: Int32 = 0
    private var pointerX = 0.0, pointerY = 0.0
    private var moved = false
    private var button: Bool? = nil
    private var buttonDown = false
    private var touch: Bool? = nil
    private var wheel = 0.0, hwheel = 0.0
    private var keyActivity = false
    private var dropping = false

    /// - Parameters:
    ///   - device: a number for this device, unique among those open (its fingers' ids).
    ///   - screen: pixels a relative pointer moves over.
    public init(_ capabilities: Capabilities, device: Int, screen: (width: Double, height: Double)) {
        self.capabilities = capabilities
        self.device = Int64(device)
        self.screen = (max(1, screen.width), max(1, screen.height))
        slots = Array(repeating: Slot(), count: capabilities.slots)
        pointerX = self.screen.width / 2
        pointerY = self.screen.height / 2
    }

    /// Takes one event; what it completes (at SYN_REPORT) comes back.
    public mutating func take(_ e: Event) -> [DeviceInput] {
        if e.type == Code.evSyn {
            switch e.code {
            case Code.synReport:
                if dropping {
                    dropping = false
                    return resync(time: e.time)
                }
                return report(time: e.time)
            case Code.synDropped:
                dropping = true
                return []
            default:
                return []
            }
        }
        guard !dropping else { return [] }
        switch e.type {
        case Code.evKey:
            if e.code == Code.btnLeft, e.value != 2 { button = e.value != 0 }
            else if e.code == Code.btnTouch, e.value != 2 { touch = e.value != 0 }
            else if e.code < Code.btnMisc || e.code >= Code.keyOK { keyActivity = true }
        case Code.evAbs:
            absolute(e.code, e.value)
        case Code.evRel:
            relative(e.code, e.value)
        default:
            break
        }
        return []
    }

    private mutating func absolute(_ code: UInt16, _ value: Int32) {
        switch capabilities.kind {
        case .multitouch:
            switch code {
            case Code.absMTSlot:
                // A slot past those kept: its contact is not followed.
                current = Int(value)
            case Code.absMTTrackingID:
                guard slots.indices.contains(current) else { return }
                if value < 0 {
                    if slots[current].contact >= 0 { slots[current].ended = true }
                    slots[current].contact = -1
                } else {
                    if slots[current].contact >= 0 && slots[current].contact != value { slots[current].ended = true }
                    if slots[current].contact != value { slots[current].began = true }
                    slots[current].contact = value
                }
            case Code.absMTPositionX:
                guard slots.indices.contains(current) else { return }
                slots[current].x = value
                slots[current].moved = true
            case Code.absMTPositionY:
                guard slots.indices.contains(current) else { return }
                slots[current].y = value
                slots[current].moved = true
            default:
                break
            }
        case .singleTouch, .absolutePointer:
            if code == Code.absX { x = value; moved = true }
            else if code == Code.absY { y = value; moved = true }
        case .relativePointer, .keys:
            break
        }
    }

    private mutating func relative(_ code: UInt16, _ value: Int32) {
        switch code {
        case Code.relX where capabilities.kind == .relativePointer:
            pointerX = min(max(pointerX + Double(value), 0), screen.width - 1)
            moved = true
        case Code.relY where capabilities.kind == .relativePointer:
            pointerY = min(max(pointerY + Double(value), 0), screen.height - 1)
            moved = true
        case Code.relWheel where !capabilities.hiResWheel: wheel += Double(value)
        case Code.relHWheel where !capabilities.hiResWheel: hwheel += Double(value)
        case Code.relWheelHiRes where capabilities.hiResWheel: wheel += Double(value) / 120
        case Code.relHWheelHiRes where capabilities.hiResWheel: hwheel += Double(value) / 120
        default: break
        }
    }

    /// A whole report: what changed, in the order a person did it.
    private mutating func report(time: Double) -> [DeviceInput] {
        var out: [DeviceInput] = []
        switch capabilities.kind {
        case .multitouch:
            for i in slots.indices {
                var s = slots[i]
                defer { s.began = false; s.ended = false; s.moved = false; slots[i] = s }
                let id = device << 16 | Int64(i)
                let (px, py) = (Self.unit(s.x, capabilities.x), Self.unit(s.y, capabilities.y))
                if s.ended {
                    if s.told { out.append(.finger(id, .up, x: px, y: py, time: time)) }
                    s.told = false
                    s.stale = false
                }
                if s.contact >= 0 && !s.stale {
                    if s.began {
                        out.append(.finger(id, .down, x: px, y: py, time: time))
                        s.told = true
                    } else if s.told && s.moved {
                        out.append(.finger(id, .move, x: px, y: py, time: time))
                    }
                }
                if s.contact < 0 { s.stale = false }
            }
        case .singleTouch:
            let id = device << 16
            let (px, py) = (Self.unit(x, capabilities.x), Self.unit(y, capabilities.y))
            if let t = touch, t != buttonDown {
                buttonDown = t
                out.append(.finger(id, t ? .down : .up, x: px, y: py, time: time))
            } else if moved && buttonDown {
                out.append(.finger(id, .move, x: px, y: py, time: time))
            }
        case .absolutePointer, .relativePointer:
            let (px, py) = pointerUnit
            if let b = button, b != buttonDown {
                // A press after the motion of the same report: it lands where the pointer is now.
                if moved && !b { out.append(.pointer(.move, x: px, y: py, time: time)) }
                buttonDown = b
                out.append(.pointer(b ? .down : .up, x: px, y: py, time: time))
            } else if moved {
                // Motion without the button: SDL moves its cursor from its own reading;
                // the loop need only wake for it.
                out.append(buttonDown ? .pointer(.move, x: px, y: py, time: time) : .activity)
            }
        case .keys:
            break
        }
        if wheel != 0 || hwheel != 0 { out.append(.wheel(vertical: wheel, horizontal: hwheel, time: time)) }
        if keyActivity { out.append(.activity) }
        clearReport()
        return out
    }

    /// The device's state as its ioctls give it (EVIOCGKEY, EVIOCGABS, EVIOCGMTSLOTS): what
    /// `sync` compares with what the engine was told after events were dropped.
    public struct State: Equatable, Sendable {
        /// BTN_TOUCH (a single-touch panel) or BTN_LEFT (a pointer) down.
        public var pressed = false
        /// ABS_X and ABS_Y.
        public var x: Int32 = 0, y: Int32 = 0
        /// Each slot's contact (its tracking id; -1: none) and place, multitouch only.
        public var slots: [(contact: Int32, x: Int32, y: Int32)] = []

        public init(pressed: Bool = false, x: Int32 = 0, y: Int32 = 0, slots: [(contact: Int32, x: Int32, y: Int32)] = []) {
            self.pressed = pressed
            self.x = x
            self.y = y
            self.slots = slots
        }

        public static func == (a: State, b: State) -> Bool {
            a.pressed == b.pressed && a.x == b.x && a.y == b.y && a.slots.elementsEqual(b.slots) { $0 == $1 }
        }
    }

    /// A SYN_DROPPED was taken and nothing has made up for it yet: the reader should read
    /// the device's state and `sync` (the events queued after the drop are incomplete).
    public var needsSync: Bool { dropping }

    /// After events were dropped (and the events queued since thrown away): the device's
    /// `state` now, told as what changed since the engine last heard. A finger that lifted
    /// in the gap lifts, one that came down comes down (a tap whose press the kernel
    /// dropped, as it does when the reader sets the clock of a device touched the moment it
    /// was opened, still taps), one that moved moves. `time`: now, on CLOCK_MONOTONIC.
    public mutating func sync(_ state: State, time: Double) -> [DeviceInput] {
        dropping = false
        var out: [DeviceInput] = []
        switch capabilities.kind {
        case .multitouch:
            for i in slots.indices {
                let now = i < state.slots.count ? state.slots[i] : (contact: Int32(-1), x: slots[i].x, y: slots[i].y)
                var s = slots[i]
                let id = device << 16 | Int64(i)
                let (px, py) = (Self.unit(now.x, capabilities.x), Self.unit(now.y, capabilities.y))
                if s.told && (now.contact < 0 || now.contact != s.contact) {
                    out.append(.finger(id, .up, x: Self.unit(s.x, capabilities.x), y: Self.unit(s.y, capabilities.y), time: time))
                    s.told = false
                }
                let moved = now.x != s.x || now.y != s.y
                if now.contact >= 0 && !s.told && (now.contact != s.contact || !s.stale) {
                    out.append(.finger(id, .down, x: px, y: py, time: time))
                    s.told = true
                    s.stale = false
                } else if now.contact >= 0 && s.told && moved {
                    out.append(.finger(id, .move, x: px, y: py, time: time))
                }
                if now.contact < 0 { s.stale = false }
                (s.contact, s.x, s.y) = (now.contact, now.x, now.y)
                s.began = false
                s.ended = false
                s.moved = false
                slots[i] = s
            }
        case .singleTouch:
            (x, y) = (state.x, state.y)
            let (px, py) = (Self.unit(x, capabilities.x), Self.unit(y, capabilities.y))
            if state.pressed != buttonDown {
                buttonDown = state.pressed
                out.append(.finger(device << 16, state.pressed ? .down : .up, x: px, y: py, time: time))
            }
        case .absolutePointer, .relativePointer:
            if capabilities.kind == .absolutePointer { (x, y) = (state.x, state.y) }
            if state.pressed != buttonDown {
                buttonDown = state.pressed
                out.append(.pointer(state.pressed ? .down : .up, x: pointerUnit.0, y: pointerUnit.1, time: time))
            }
        case .keys:
            break
        }
        clearReport()
        return out
    }

    /// After events were dropped, where the device's state cannot be read: whatever was
    /// held ends (cancelled), and a finger still down is ignored until it lifts; the state
    /// read since the drop stands.
    private mutating func resync(time: Double) -> [DeviceInput] {
        var out: [DeviceInput] = []
        switch capabilities.kind {
        case .multitouch:
            for i in slots.indices {
                if slots[i].told {
                    out.append(.finger(device << 16 | Int64(i), .cancel, x: Self.unit(slots[i].x, capabilities.x),
                                       y: Self.unit(slots[i].y, capabilities.y), time: time))
                }
                slots[i].told = false
                slots[i].stale = slots[i].contact >= 0
                slots[i].began = false
                slots[i].ended = false
                slots[i].moved = false
            }
        case .singleTouch:
            if buttonDown {
                out.append(.finger(device << 16, .cancel, x: Self.unit(x, capabilities.x), y: Self.unit(y, capabilities.y), time: time))
            }
            buttonDown = false
        case .absolutePointer, .relativePointer:
            if buttonDown { out.append(.pointer(.cancel, x: pointerUnit.0, y: pointerUnit.1, time: time)) }
            buttonDown = false
        case .keys:
            break
        }
        clearReport()
        return out
    }

    /// Forgets what the report just ended carried (the axes' values stay).
    private mutating func clearReport() {
        touch = nil
        button = nil
        moved = false
        wheel = 0
        hwheel = 0
        keyActivity = false
    }

    private var pointerUnit: (Double, Double) {
        switch capabilities.kind {
        case .relativePointer: return (pointerX / screen.width, pointerY / screen.height)
        default: return (Self.unit(x, capabilities.x), Self.unit(y, capabilities.y))
        }
    }

    /// A raw axis value as 0–1 of its range (clamped: some panels report past their range).
    static func unit(_ v: Int32, _ range: ClosedRange<Int32>) -> Double {
        let span = Double(range.upperBound) - Double(range.lowerBound)
        guard span > 0 else { return 0 }
        return min(max((Double(v) - Double(range.lowerBound)) / span, 0), 1)
    }

    /// The kernel's codes used here (linux/input-event-codes.h).
    public enum Code {
        public static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evRel: UInt16 = 2, evAbs: UInt16 = 3
        public static let synReport: UInt16 = 0, synDropped: UInt16 = 3
        public static let relX: UInt16 = 0, relY: UInt16 = 1, relHWheel: UInt16 = 6, relWheel: UInt16 = 8
        public static let relWheelHiRes: UInt16 = 11, relHWheelHiRes: UInt16 = 12
        public static let absX: UInt16 = 0, absY: UInt16 = 1
        public static let absMTSlot: UInt16 = 0x2f, absMTPositionX: UInt16 = 0x35, absMTPositionY: UInt16 = 0x36
        public static let absMTTrackingID: UInt16 = 0x39
        public static let btnMisc: UInt16 = 0x100, btnLeft: UInt16 = 0x110, btnTouch: UInt16 = 0x14a
        public static let keyOK: UInt16 = 0x160, keyMax: UInt16 = 0x2ff
        public static let propPointer: UInt16 = 0
    }
}

/// A set of the kernel's capability bits, as EVIOCGBIT fills a byte array.
public struct BitSet: Equatable, Sendable {
    public var bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ codes: [UInt16]) {
        bytes = Array(repeating: 0, count: Int(codes.max() ?? 0) / 8 + 1)
        for c in codes { bytes[Int(c) / 8] |= 1 << (c % 8) }
    }
    public func contains(_ code: UInt16) -> Bool {
        let i = Int(code) / 8
        return i < bytes.count && bytes[i] & (1 << (code % 8)) != 0
    }
    func contains(anyIn codes: Range<UInt16>) -> Bool { codes.contains { contains($0) } }
}

/// One thing an input device did, as the run loop takes it.
public enum DeviceInput: Equatable, Sendable {
    /// The engine's own phases (down, move, up, cancel).
    public typealias Phase = PointerEvent.Phase
    /// A finger: its id (unique while it is down), where (0–1 across and down the panel)
    /// and when (seconds, CLOCK_MONOTONIC).
    case finger(Int64, Phase, x: Double, y: Double, time: Double)
    /// The pointer's left button and its motion while held, 0–1 of the screen.
    case pointer(Phase, x: Double, y: Double, time: Double)
    /// Wheel notches: up and right positive.
    case wheel(vertical: Double, horizontal: Double, time: Double)
    /// Something SDL reads itself (keys, the cursor's motion): the loop wakes to let it.
    case activity

    /// Motion only: what may go when too much waits (a press or a lift may not).
    var isMotion: Bool {
        switch self {
        case .finger(_, .move, _, _, _), .pointer(.move, _, _, _), .activity: true
        default: false
        }
    }
}
