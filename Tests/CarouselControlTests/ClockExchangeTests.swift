import CarouselControl
import Testing

/// NTP's arithmetic over the broker: a clock ahead by 40 ms with legs of 3 and 5 ms.
@Suite struct ClockExchangeTests {
    @Test func anOffsetAndTheRoundTripComeOutOfOneExchange() {
        let ping = 1_790_000_000.0
        // The other clock is 40 ms ahead; 3 ms there, 2 ms to answer, 5 ms back.
        let got = ping + 0.003 + 0.040, sent = got + 0.002, received = sent - 0.040 + 0.005
        let (offset, roundTrip) = ClockExchange.offset(ping: ping, got: got, sent: sent, received: received)
        #expect(abs(offset - 0.039) < 1e-6, "off by half the legs' difference (1 ms): \(offset)")
        #expect(abs(roundTrip - 0.008) < 1e-6)
    }

    @Test func theGroupsClockIsTheMedianOfTheOthers() {
        #expect(ClockExchange.offsetFromGroup([]) == nil)
        #expect(ClockExchange.offsetFromGroup([0.001, 0.002, 5.0]) == -0.002, "one screen far off does not move it")
        #expect(ClockExchange.offsetFromGroup([0.010, 0.020]) == -0.015)
        #expect(ClockExchange.offsetFromGroup([.nan, 0.004]) == -0.004)
    }

    @Test func theErrorIsHalfTheMedianRoundTrip() {
        let r = ClockExchange.fromGroup([(0.002, 0.004), (0.001, 0.040), (0.003, 0.006)])
        #expect(r?.offset == -0.002 && r?.error == 0.003)
        #expect(ClockExchange.fromGroup([]) == nil)
    }
}
