// The parsers are internal to their modules: reached with @testable imports, which only
// a debug build allows (Tests/Fuzz/run and the tests build debug). A release build of the
// whole package gets the targets without bodies.
#if DEBUG
@testable import CarouselApp
@testable import CarouselControl
@testable import CarouselCore
@testable import CarouselMedia
@testable import CarouselDevices
@testable import CarouselSDL
#else
import CarouselApp
import CarouselControl
import CarouselCore
import CarouselMedia
import CarouselSDL
#endif

/// Every parser of the program that reads bytes from outside, by name: the image parts'
/// (`MediaFuzzTargets`) and the command's own (the config file, the gesture script, the
/// opening hours). The fuzz targets in Tests/Fuzz and the corpus replay in the tests use it.
public enum FuzzTargets {
    #if DEBUG
    public static let all: [String: @Sendable ([UInt8]) -> Void] = MediaFuzzTargets.all.merging([
        // Checked against the image options (a flag, options, lists) rather than all of
        // `run`'s: each key is parsed by the command's parser, and `run`'s whole parser
        // takes 0.1 s a key in an instrumented build: too slow to fuzz. Same code path.
        "config": { _ = try? ConfigFile(text: String(decoding: $0, as: UTF8.self), path: "fuzz.toml", for: SourceOptions.self) },
        "gesture-script": { _ = try? GestureScript(parsing: String(decoding: $0, as: UTF8.self)) },
        "opening-hours": { _ = try? Schedule(parsing: String(decoding: $0, as: UTF8.self)) },
        // A kept fair round (XDG state, --order fair), as a power cut or anyone may leave it:
        // read, then reconciled with items and walked, as a start does.
        "fair-round": { bytes in
            guard var round = try? FairRound(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
            var rng = SeededRandom(seed: 1)
            round.reconcile(with: round.order.dropFirst().map { $0 } + ["/new.jpg"], using: &rng)
            if !round.isComplete { round.shown(at: round.next) }
            round.newRound(keeping: [0], using: &rng)
        },
        // A control API request as the server hands it over: "METHOD TARGET" on the first
        // line, the body after it (the JSON payloads MQTT commands carry too).
        "control-request": { bytes in
            let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
            let line = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ", maxSplits: 1)
            let body = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
            _ = ControlRoute.parse(method: line.first.map(String.init) ?? "", target: line.count > 1 ? String(line[1]) : "", body: body)
        },
        // An MQTT command: the topic's last level on the first line, the payload after it.
        "mqtt-command": { bytes in
            let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
            let payload = newline < bytes.endIndex ? Array(bytes[(newline + 1)...]) : []
            _ = MQTTCommand.parse(name: String(decoding: bytes[..<newline], as: UTF8.self), payload: payload)
        },
        // A group message as the broker hands it over (`--group`).
        "group-message": { bytes in _ = GroupMessage.parse(bytes) },
        // What an HDMI-CEC bus sends the screen (--cec): byte 0 the screen's logical address
        // (low nibble) and whether it shows on the TV (bit 4), byte 1 a length, then that
        // many bytes a message, again and again; each answered by the follower, whose
        // answers must be messages the bus can carry.
        "cec-message": { bytes in
            guard bytes.count >= 2 else { return }
            var follower = CECFollower()
            follower.logicalAddress = bytes[0] & 0x0F
            follower.physicalAddress = 0x1000
            if bytes[0] & 0x10 != 0 { _ = follower.wake(takeOver: true) }
            var i = 1
            while i < bytes.count {
                let length = Int(bytes[i]) % 18
                let end = min(bytes.count, i + 1 + length)
                if let m = CECMessage(bytes: Array(bytes[(i + 1)..<end])) {
                    let (send, _) = follower.receive(m)
                    for reply in send where reply.bytes.count > 16 || CECMessage(bytes: reply.bytes) != reply {
                        fatalError("cec-message: an answer the bus cannot carry: \(reply)")
                    }
                }
                _ = follower.standby()
                i = end
            }
        },
        // An input device's event stream (KMS/DRM, EventDeviceReader): byte 0 says what the
        // device is and byte 1 its slots, then 8 bytes an event (type, code, value; little-endian).
        "evdev": { bytes in
            guard bytes.count >= 2 else { return }
            let kinds: [EvdevDecoder.Capabilities.Kind] = [.multitouch, .singleTouch, .absolutePointer, .relativePointer, .keys]
            let caps = EvdevDecoder.Capabilities(kind: kinds[Int(bytes[0]) % kinds.count], x: -5...4095, y: 0...Int32(bytes[1]) + 1,
                                                 slots: Int(bytes[1]), hiResWheel: bytes[0] & 0x80 != 0)
            var decoder = EvdevDecoder(caps, device: 7, screen: (1280, 800))
            var i = 2
            while i + 8 <= bytes.count {
                let u16 = { (k: Int) in UInt16(bytes[k]) | UInt16(bytes[k + 1]) << 8 }
                let value = Int32(bitPattern: UInt32(u16(i + 4)) | UInt32(u16(i + 6)) << 16)
                _ = decoder.take(.init(type: u16(i), code: u16(i + 2), value: value, time: Double(i)))
                i += 8
            }
        },
    ]) { a, _ in a }
    #else
    public static let all: [String: @Sendable ([UInt8]) -> Void] = [:]
    #endif

    public static var names: [String] { all.keys.sorted() }
}
