@testable import CarouselDevices
import Testing

/// The screen on an HDMI-CEC bus as a playback device: recorded message sequences (written
/// as cec-ctl and the specification write them, "04:44:03": header, opcode, operands) and
/// what it answers and hears.
@Suite struct CECFollowerTests {
    static func m(_ text: String) -> CECMessage {
        CECMessage(bytes: text.split(separator: ":").map { UInt8($0, radix: 16)! })!
    }

    /// Playback device 4 at 1.0.0.0, as the vivid driver's output gets.
    static func follower() -> CECFollower {
        var f = CECFollower()
        f.logicalAddress = 4
        f.physicalAddress = 0x1000
        return f
    }

    static func hex(_ messages: [CECMessage]) -> [String] {
        messages.map { $0.bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: ":") }
    }

    @Test func messagesAreReadAndWrittenAsTheBusCarriesThem() {
        #expect(CECMessage(bytes: []) == nil)
        #expect(CECMessage(bytes: [UInt8](repeating: 0, count: 17)) == nil, "16 bytes at most")
        let poll = CECMessage(bytes: [0x44])!
        #expect(poll.opcode == nil && poll.initiator == 4 && poll.destination == 4)
        let active = CECMessage(from: 4, to: CECMessage.broadcast, .activeSource, CECMessage.addressBytes(0x1200))
        #expect(Self.hex([active]) == ["4f:82:12:00"] && active.isBroadcast && active.address(at: 0) == 0x1200)
        #expect(CECMessage.dotted(0x1200) == "1.2.0.0" && Self.m("4f:82:12").address(at: 0) == nil)
    }

    @Test func theRemotesKeysAreHeardOnlyWhenSentToThisScreen() {
        var f = Self.follower()
        #expect(f.receive(Self.m("04:44:03")).heard == [.key(.left)])
        #expect(f.receive(Self.m("04:44:00")).heard == [.key(.select)])
        #expect(f.receive(Self.m("04:44:0d")).heard == [.key(.exit)])
        let released = f.receive(Self.m("04:45"))
        #expect(released.heard.isEmpty && released.send.isEmpty)
        // A key the program has no use for (a number) is heard as nothing, and not refused.
        let number = f.receive(Self.m("04:44:21"))
        #expect(number.heard.isEmpty && number.send.isEmpty)
        // Another device's keys, and a broadcast press (which the specification forbids).
        #expect(f.receive(Self.m("08:44:03")).heard.isEmpty && f.receive(Self.m("0f:44:03")).heard.isEmpty)
        // A press without its key: refused as an invalid operand.
        let bare = f.receive(Self.m("04:44"))
        #expect(bare.heard.isEmpty && Self.hex(bare.send) == ["40:00:44:03"])
    }

    @Test func itWakesTheTVAndPutsItInStandbyOnlyWhileTheTVShowsIt() {
        var f = Self.follower()
        #expect(f.standby().isEmpty, "before it woke the TV, the TV is not showing it")
        #expect(Self.hex(f.wake(takeOver: true)) == ["40:04", "4f:82:10:00"])
        #expect(f.activeSource)
        #expect(Self.hex(f.standby()) == ["40:36"])
        f.tvWentToStandby()
        #expect(Self.hex(f.wake(takeOver: false)) == ["40:04", "4f:82:10:00"], "a TV in standby wakes at a presence too")
        // Someone switches the TV to a games console at 2.0.0.0.
        #expect(f.receive(Self.m("8f:82:20:00")).send.isEmpty)
        #expect(!f.activeSource && f.standby().isEmpty, "the family's film is left alone")
        #expect(f.wake(takeOver: false).isEmpty, "a presence does not take the TV from the console")
        #expect(Self.hex(f.wake(takeOver: true)) == ["40:04", "4f:82:10:00"], "the opening hours do")
        // A routing change away from it, then back to it through a switch.
        _ = f.receive(Self.m("0f:80:10:00:30:00"))
        #expect(!f.activeSource && f.standby().isEmpty)
    }

    @Test func theTVsOwnStandbyIsHeardOnceAndNotAfterItsOwnStandby() {
        var f = Self.follower()
        _ = f.wake(takeOver: true)
        #expect(f.receive(Self.m("0f:36")).heard == [.tvStandby])
        #expect(f.receive(Self.m("0f:36")).heard.isEmpty, "said once")
        #expect(!f.activeSource)
        _ = f.wake(takeOver: true)
        _ = f.standby()
        f.tvWentToStandby()
        #expect(f.receive(Self.m("0f:36")).heard.isEmpty, "the TV echoing the screen's own standby is not the TV's remote")
        // A Standby from another player is not the TV's.
        _ = f.wake(takeOver: true)
        #expect(f.receive(Self.m("84:36")).heard.isEmpty)
    }

    @Test func theTVChoosingThisInputIsHeardAndAnswered() {
        var f = Self.follower()
        let chosen = f.receive(Self.m("0f:86:10:00"))
        #expect(chosen.heard == [.selected] && Self.hex(chosen.send) == ["4f:82:10:00"] && f.activeSource)
        #expect(f.receive(Self.m("0f:86:10:00")).heard.isEmpty, "already shown")
        let asked = f.receive(Self.m("0f:85"))
        #expect(Self.hex(asked.send) == ["4f:82:10:00"], "the active source answers Request Active Source")
        _ = f.receive(Self.m("0f:86:20:00"))
        #expect(!f.activeSource && f.receive(Self.m("0f:85")).send.isEmpty, "another input chosen: it stays quiet")
    }

    @Test func itAnswersWhatAFollowerMustAndRefusesTheRest() {
        var f = Self.follower()
        #expect(Self.hex(f.receive(Self.m("04:8f")).send) == ["40:90:00"], "power on")
        f.screenOn = false
        #expect(Self.hex(f.receive(Self.m("04:8f")).send) == ["40:90:01"], "standby while the screen is dark")
        #expect(Self.hex(f.receive(Self.m("04:8d:00")).send) == ["40:8e:00"], "the menu is active: TVs then pass their keys")
        #expect(Self.hex(f.receive(Self.m("04:1a:01")).send) == ["40:00:1a:00"], "Give Deck Status: unrecognised")
        #expect(f.receive(Self.m("0f:1a:01")).send.isEmpty, "a broadcast is never refused")
        #expect(f.receive(Self.m("04:00:44:00")).send.isEmpty && f.receive(Self.m("04:ff")).send.isEmpty,
                "a Feature Abort is not answered (no loop of refusals), Abort is the kernel's")
        #expect(f.receive(Self.m("08:1a:01")).send.isEmpty, "another device's message")
        #expect(f.receive(Self.m("44:1a:01")).send.isEmpty, "its own message, looped back")
        #expect(f.receive(Self.m("04")).send.isEmpty, "a poll")
        let report = f.receive(Self.m("04:90:01"))
        #expect(report.heard == [.tvPower(.standby)] && f.tvPower == .standby)
        #expect(f.receive(Self.m("04:90:07")).heard.isEmpty, "a power state that does not exist")
        var unclaimed = CECFollower()
        #expect(unclaimed.receive(Self.m("04:44:03")).heard.isEmpty && unclaimed.wake(takeOver: true).isEmpty,
                "nothing before a logical address is claimed")
    }
}
