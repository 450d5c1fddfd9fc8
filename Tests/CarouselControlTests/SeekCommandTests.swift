import CarouselControl
import CarouselCore
import Testing

/// `seek` as the HTTP API's JSON and MQTT's plain payloads say it, and what a seek leads to.
@Suite struct SeekCommandTests {
    @Test func theBodiesAndPayloadsOfASeek() {
        func http(_ body: String) -> ControlCommand? { try? ControlPayload.command("seek", json: Array(body.utf8)).get() }
        func mqtt(_ payload: String) -> ControlCommand? { try? MQTTCommand.parse(name: "seek", payload: Array(payload.utf8)).get() }
        #expect(http(#"{"seconds": 12.5}"#) == .seek(.to(12.5)))
        #expect(http(#"{"by": -10}"#) == .seek(.by(-10)))
        for bad in [#"{"seconds": -1}"#, #"{"seconds": 1, "by": 2}"#, #"{"by": "ten"}"#, "{}", "12"] {
            #expect(http(bad) == nil, "\(bad)")
        }
        #expect(mqtt("12.5") == .seek(.to(12.5)))
        #expect(mqtt("+10") == .seek(.by(10)))
        #expect(mqtt("-10") == .seek(.by(-10)))
        #expect(mqtt(#"{"seconds": 3}"#) == .seek(.to(3)))
        for bad in ["", "ten", "nan", "inf", "1e400"] { #expect(mqtt(bad) == nil, "\(bad)") }
        #expect(ControlCommand.seek(.by(1)).name == "seek")
    }

    @Test func whereASeekLeads() {
        #expect(ClipSeek.to(12).target(from: 3, duration: 20) == 12)
        #expect(ClipSeek.to(30).target(from: 3, duration: 20) == 20, "not past the end")
        #expect(ClipSeek.by(-10).target(from: 3, duration: 20) == 0, "not before the start")
        #expect(ClipSeek.by(10).target(from: 3, duration: nil) == 13, "a clip of unknown length")
        #expect(ClipSeek.by(.nan).target(from: 3, duration: 20) == 0)
    }
}
