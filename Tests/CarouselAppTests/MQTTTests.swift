import Foundation
import Testing
import TestSupport
@testable import CarouselApp
@testable import CarouselBench

/// MQTT and Home Assistant against the real broker: mosquitto on a loopback port of the
/// test's own, watched and commanded with mosquitto_sub and mosquitto_pub.
@Suite(.serialized, .enabled(if: RequiredTools.run(missing: MosquittoBroker.unavailableReason), "mosquitto missing; run kiosk/setup"))
struct MQTTTests {
    @Test func stateDiscoveryCommandsAndTheLastWill() throws {
        let broker = try MosquittoBroker()
        let app = try RunningCarousel(args: [try Fixtures.imageFolder(), "--size", "640x360", "--autoplay", "30", "--order", "name",
                                             "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", "lobby"],
                                      display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        let base = "kiosk-carousel/lobby"
        #expect(broker.waitForRetained(base + "/state/index") == "0", "log: \(app.log)")
        #expect(broker.retained(base + "/availability") == "online")
        #expect(broker.retained(base + "/state/playing") == "ON")
        #expect(broker.retained(base + "/state/screen") == "ON")

        // Discovery: one device, a unique id and the last will on every entity.
        // Only what this screen can do: autoplay is set, there is no wall (so no View).
        _ = broker.waitForRetained("homeassistant/number/lobby/index/config")
        let configs = broker.retainedAll("homeassistant/+/lobby/+/config")
        let offered = ["button/lobby/next", "button/lobby/previous", "button/lobby/first", "button/lobby/last",
                       "button/lobby/reload", "number/lobby/index", "light/lobby/screen", "switch/lobby/playing",
                       "sensor/lobby/title", "sensor/lobby/failed", "image/lobby/screenshot"]
        #expect(Set(configs.keys) == Set(offered.map { "homeassistant/\($0)/config" }), "\(configs.keys.sorted())")
        var uniqueIDs: Set<String> = [], names: Set<String> = []
        for (topic, text) in configs {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(c["availability_topic"] as? String == base + "/availability")
            if let id = c["unique_id"] as? String { uniqueIDs.insert(id) }
            if let name = c["name"] as? String { names.insert(name) }
            let device = c["device"] as? [String: Any]
            #expect(device?["identifiers"] as? [String] == ["kiosk-carousel-lobby"])
            #expect(device?["model"] as? String != device?["manufacturer"] as? String)
            // default_entity_id, which Home Assistant 2025.10 and later want instead of object_id.
            let component = topic.split(separator: "/")[1]
            #expect(c["object_id"] == nil && (c["default_entity_id"] as? String)?.hasPrefix("\(component).kiosk_lobby_") == true)
        }
        #expect(uniqueIDs.count == offered.count && names.count == offered.count, "one name each: \(names.sorted())")
        #expect(configs["homeassistant/button/lobby/reload/config"]?.contains(#""entity_category":"config""#) == true)
        #expect(configs["homeassistant/sensor/lobby/failed/config"]?.contains(#""entity_category":"diagnostic""#) == true)
        // The screenshot for the image entity: a PNG, small.
        // Encoded after the connection (seconds under ThreadSanitizer).
        _ = broker.waitForRetained(base + "/screenshot", timeout: 30)
        let shot = broker.retainedBytes(base + "/screenshot")
        #expect(shot.starts(with: [0x89, 0x50, 0x4e, 0x47]) && shot.count < 400_000)

        // Commands, as Home Assistant's entities send them.
        broker.publish(base + "/cmd/next", "PRESS")
        #expect(broker.waitForRetained(base + "/state/index", toBe: "1") == "1")
        broker.publish(base + "/cmd/goto", #"{"index": 3}"#)
        #expect(broker.waitForRetained(base + "/state/index", toBe: "3") == "3")
        broker.publish(base + "/cmd/goto", "2.0")  // Home Assistant's number entity
        #expect(broker.waitForRetained(base + "/state/index", toBe: "2") == "2")
        broker.publish(base + "/cmd/playing", "OFF")
        #expect(broker.waitForRetained(base + "/state/playing", toBe: "OFF") == "OFF")
        broker.publish(base + "/cmd/view", "mosaic")
        broker.publish(base + "/cmd/goto", "not a number")
        broker.publish(base + "/cmd/brightness", String(repeating: "9", count: 5000))
        broker.publish(base + "/cmd/screen", "OFF")
        #expect(broker.waitForRetained(base + "/state/screen", toBe: "OFF") == "OFF")
        #expect(app.waitForLog("mqtt: \(base)/cmd/goto: ignored, goto takes an index"))
        #expect(app.waitForLog("mqtt: \(base)/cmd/brightness: ignored, the payload is longer than 4096 bytes"))
        #expect(app.waitForLog("mqtt: \(base)/cmd/view: not done, this screen shows the carousel only"))
        broker.publish(base + "/cmd/screen", "ON")
        #expect(broker.waitForRetained(base + "/state/screen", toBe: "ON") == "ON")

        // Home Assistant restarted: discovery comes again.
        let before = app.log
        broker.clearRetained("homeassistant/button/lobby/next/config")
        broker.publish("homeassistant/status", "online", retain: false)
        #expect(broker.waitForRetained("homeassistant/button/lobby/next/config") != nil, "discovery not republished; \(before)")

        // A crash: the broker sends the last will.
        kill(app.process.processIdentifier, SIGKILL)
        #expect(broker.waitForRetained(base + "/availability", toBe: "offline", timeout: 60) == "offline")
    }

    @Test func theBrokerGoingAwayNeverStopsTheShowAndItComesBackWithTheState() throws {
        let broker = try MosquittoBroker()
        let app = try RunningCarousel(args: [try Fixtures.imageFolder(), "--size", "640x360", "--control", "127.0.0.1:0",
                                             "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", "hall"],
                                      display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(broker.waitForRetained("kiosk-carousel/hall/state/index") == "0")
        broker.stop()
        #expect(app.waitForLog("mqtt: lost the broker"), "log: \(app.log)")
        // The show goes on without it: keys, the API, drawing.
        let port = try #require(app.log.split(separator: "\n").first { $0.contains("control: listening on") }
            .flatMap { Int($0.split(separator: ":").last!) })
        #expect(HTTPProbe(port: port).request("POST", "/next")?.json?["index"] as? Int == 1)
        // Back (a new broker on the same port, which knows no retained state): all again.
        try broker.restart()
        #expect(broker.waitForRetained("kiosk-carousel/hall/state/index", timeout: 90) == "1", "log: \(app.log)")
        #expect(broker.retained("kiosk-carousel/hall/availability") == "online")
        #expect(app.log.components(separatedBy: "mqtt: lost the broker").count == 2, "one line per change: \(app.log)")
        // At exit: offline, said by the program itself.
        kill(app.process.processIdentifier, SIGTERM)
        app.process.waitUntilExit()
        // Under ThreadSanitizer a race it reported makes the status 66: its report is in the log.
        #expect(app.process.terminationStatus == 0, "log: \(app.log)")
        #expect(broker.retained("kiosk-carousel/hall/availability") == "offline")
    }

    @Test func aScreenWithAWallAndNoAutoplayOffersTheViewAndNoAutoplaySwitch() throws {
        let broker = try MosquittoBroker()
        // An earlier start of this screen offered autoplay: its config is taken away.
        broker.publish("homeassistant/switch/hall/playing/config", #"{"name": "Autoplay"}"#, retain: true)
        let app = try RunningCarousel(args: [try Fixtures.imageFolder(), "--size", "640x360", "--view", "grid",
                                             "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", "hall"],
                                      display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        let select = try #require(broker.waitForRetained("homeassistant/select/hall/view/config"), "log: \(app.log)")
        let c = try #require(try JSONSerialization.jsonObject(with: Data(select.utf8)) as? [String: Any])
        #expect(c["options"] as? [String] == ["Carousel", "Wall"])
        #expect((c["command_template"] as? String)?.contains("'grid'") == true, "the wall is this screen's grid, not a mosaic")
        #expect(Poll.until(10) { broker.retained("homeassistant/switch/hall/playing/config") == nil }, "no autoplay: no switch")
        #expect(broker.waitForRetained("kiosk-carousel/hall/state/view") == "grid")
        broker.publish("kiosk-carousel/hall/cmd/screen", "OFF")
        let panel = broker.waitForRetained("kiosk-carousel/hall/state/screen_attributes", toBe: #"{"panel":"black, the panel stays lit"}"#)
        #expect(panel == #"{"panel":"black, the panel stays lit"}"#, "the dummy display cannot switch its panel off")
    }

    @Test func anOccupancySensorWakesTheScreenAndNobodyThereLetsItGoDark() throws {
        let broker = try MosquittoBroker()
        let topic = "zigbee2mqtt/hall_sensor"
        let app = try RunningCarousel(args: [try Fixtures.imageFolder(), "--size", "640x360", "--control", "127.0.0.1:0",
                                             "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", "hall",
                                             "--presence-timeout", "5", "--presence-topic", topic],
                                      display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(app.waitForLog("mqtt: connected"), "\(app.log)")
        let port = try #require(app.log.split(separator: "\n").first { $0.contains("control: listening on") }
            .flatMap { Int($0.split(separator: ":").last!) })
        func screen() -> [String: Any]? { HTTPProbe(port: port).request("GET", "/status")?.json?["screen"] as? [String: Any] }
        // On at start; dark 5 s after it with nobody there.
        #expect(screen()?["on"] as? Bool == true)
        #expect(Poll.until(15) { screen()?["on"] as? Bool == false }, "\(String(describing: screen()))")
        #expect(screen()?["reason"] as? String == "nobody")
        // Someone comes (Zigbee2MQTT's JSON): on at once, and on while occupied.
        let woke = Date()
        broker.publish(topic, #"{"occupancy": true, "battery": 90}"#)
        #expect(Poll.until(5) { screen()?["on"] as? Bool == true }, "\(String(describing: screen()))")
        let took = Date().timeIntervalSince(woke)
        Thread.sleep(forTimeInterval: 6)
        #expect(screen()?["on"] as? Bool == true, "still occupied after the timeout")
        // Gone (Home Assistant's binary sensor's OFF): dark 5 s later.
        broker.publish(topic, "OFF")
        Thread.sleep(forTimeInterval: 2)
        #expect(screen()?["on"] as? Bool == true)
        #expect(Poll.until(10) { screen()?["on"] as? Bool == false })
        // Not a presence: one line, nothing changes.
        broker.publish(topic, "banana")
        #expect(app.waitForLog("mqtt: \(topic): ignored, not a presence (ON or OFF): banana"), "\(app.log)")
        #expect(screen()?["on"] as? Bool == false)
        // The control API's /presence does the same.
        #expect(HTTPProbe(port: port).request("POST", "/presence", body: #"{"present": true}"#)?.status == 200)
        #expect(screen()?["on"] as? Bool == true)
        print("presence to a lit screen: \(String(format: "%.0f", took * 1000)) ms (polled at 0.2 s)")
    }

    @Test func badOptionsAreRefusedWithOneLine() throws {
        let folder = try Fixtures.imageFolder()
        for (args, said) in [(["--mqtt", "http://x"], "--mqtt must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
                             (["--mqtt-id", "x"], "are for --mqtt, which is not set"),
                             (["--mqtt", "mqtt://x", "--mqtt-password-file", "/p"], "--mqtt-password-file needs --mqtt-user"),
                             (["--mqtt", "mqtt://x", "--mqtt-id", "a/b"], "--mqtt-id may hold letters, digits"),
                             (["--presence-topic", "a/b", "--presence-timeout", "30"], "--presence-topic needs --mqtt"),
                             (["--mqtt", "mqtt://x", "--presence-topic", "a/#", "--presence-timeout", "30"], "--presence-topic must be one topic"),
                             (["--mqtt", "mqtt://x", "--presence-topic", "a/b"], "--presence-topic needs --presence-timeout"),
                             (["--presence-timeout", "1"], "--presence-timeout must be 5 to 86400 seconds")] {
            let r = try CarouselBinary.run([folder] + args, environment: ["SDL_VIDEODRIVER": "dummy"])
            #expect(r.status == 64 && r.stderr.contains(said), "\(args): \(r.stderr)")
        }
    }
}

/// A mosquitto broker of the test's own on a free loopback port, and its clients.
final class MosquittoBroker {
    static var unavailableReason: String? {
        OutsideProgram.missing(.mosquitto, .mosquittoPasswd, .mosquittoSub, .mosquittoPub)
    }

    let port: Int
    private var process: Process?
    private let config: String
    /// The user the broker's own clients (publish, retained) connect as; nil: anonymous.
    var user: (name: String, password: String)?

    init() throws {
        try RequiredTools.check(Self.unavailableReason)
        port = Int(ControlPoller.freePort() ?? 18830)
        config = try Fixtures.temporaryFolder("mosquitto") + "/mosquitto.conf"
        try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".write(toFile: config, atomically: true, encoding: .utf8)
        try restart()
    }

    /// A broker as a wall's should be set up: no anonymous clients, a password for each user,
    /// and an ACL: `users` name → (password, the topic filters it may write; it reads all).
    convenience init(users: [String: (password: String, writes: [String])]) throws {
        let acl = users.sorted(by: { $0.key < $1.key }).map { name, u in
            "user \(name)\ntopic read #\n" + u.writes.map { "topic write \($0)\n" }.joined()
        }.joined(separator: "\n")
        try self.init(accounts: users.mapValues(\.password), acl: acl)
    }

    /// A broker with these accounts (name → password) and this `acl_file` text, no anonymous
    /// clients (kiosk/mosquitto-kiosk.acl, for one).
    init(accounts: [String: String], acl: String) throws {
        try RequiredTools.check(Self.unavailableReason)
        port = Int(ControlPoller.freePort() ?? 18830)
        let folder = try Fixtures.temporaryFolder("mosquitto-users")
        config = folder + "/mosquitto.conf"
        // mosquitto_passwd's file format: user:$7$... (PBKDF2); made by the tool itself.
        for (name, password) in accounts.sorted(by: { $0.key < $1.key }) {
            let p = Process()
            p.executableURL = try OutsideProgram.mosquittoPasswd.url
            p.arguments = ["-b"] + (FileManager.default.fileExists(atPath: folder + "/passwd") ? [] : ["-c"]) + [folder + "/passwd", name, password]
            try p.run()
            p.waitUntilExit()
        }
        try acl.write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
        try """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(folder)/passwd
            acl_file \(folder)/acl
            persistence false

            """.write(toFile: config, atomically: true, encoding: .utf8)
        try restart()
    }

    deinit { stop() }

    func restart() throws {
        let p = Process()
        p.executableURL = try OutsideProgram.mosquitto.url
        p.arguments = ["-c", config]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        for _ in 0..<50 where ControlPoller.get(port: port, path: "/") == -Int(ECONNREFUSED) { Thread.sleep(forTimeInterval: 0.1) }
    }

    func stop() {
        guard let p = process else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    /// Runs a client; killed after `seconds` (its own -W relies on SIGALRM, which the test
    /// runner's threads block, and the block is inherited).
    private func run(_ tool: OutsideProgram, _ args: [String], seconds: Double = 1.5) -> Data {
        let p = Process()
        guard let url = try? tool.url else { return Data() }
        p.executableURL = url
        p.arguments = ["-h", "127.0.0.1", "-p", String(port)] + (user.map { ["-u", $0.name, "-P", $0.password] } ?? []) + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return Data() }
        let pid = p.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        return data
    }

    func publish(_ topic: String, _ message: String, retain: Bool = false) {
        _ = run(.mosquittoPub, ["-t", topic, "-m", message] + (retain ? ["-r"] : []))
    }

    func clearRetained(_ topic: String) { _ = run(.mosquittoPub, ["-t", topic, "-r", "-n"]) }

    /// The retained message of `topic` (nil: none), read within a second.
    func retainedBytes(_ topic: String) -> [UInt8] {
        Array(run(.mosquittoSub, ["-t", topic, "-C", "1", "--retained-only", "-N"], seconds: 1))
    }

    func retained(_ topic: String) -> String? {
        let b = retainedBytes(topic)
        return b.isEmpty ? nil : String(decoding: b, as: UTF8.self)
    }

    /// Every retained message under a filter, by topic.
    func retainedAll(_ filter: String) -> [String: String] {
        let text = String(decoding: run(.mosquittoSub, ["-t", filter, "--retained-only", "-v"], seconds: 1.5), as: UTF8.self)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { out[String(parts[0])] = String(parts[1]) }
        }
        return out
    }

    /// Waits until `topic` has a retained message (equal to `expected` if given).
    func waitForRetained(_ topic: String, toBe expected: String? = nil, timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var last: String?
        while Date() < deadline {
            last = retained(topic)
            if let last, expected == nil || last == expected { return last }
        }
        return last
    }
}

extension MQTTTests {
    @Test func aClipsStateReachesTheBroker() throws {
        let broker = try MosquittoBroker()
        let dir = try ClipRenderTests.folder(.h264MP4)
        let app = try RunningCarousel(args: [dir, "--size", "640x360", "--start-index", "1",
                                             "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--mqtt-id", "clip"],
                                      display: ":0", environment: ["SDL_VIDEODRIVER": "dummy"])
        defer { if app.process.isRunning { kill(app.process.processIdentifier, SIGKILL) } }
        #expect(broker.waitForRetained("kiosk-carousel/clip/state/video", toBe: "playing", timeout: 30) == "playing")
        broker.publish("kiosk-carousel/clip/cmd/next", "")
        #expect(broker.waitForRetained("kiosk-carousel/clip/state/video", toBe: "stopped", timeout: 30) == "stopped")
    }
}
