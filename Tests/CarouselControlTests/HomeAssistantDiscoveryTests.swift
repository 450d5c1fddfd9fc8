@testable import CarouselControl
import Foundation
import Testing

/// What Home Assistant is offered: configs it accepts. Its number entity refuses a `max`
/// not above `min` (Home Assistant 2024.3.3, seen live: "'max' must be > 'min'" for a show
/// not scanned yet), so the picture number is offered only with two pictures or more.
@Suite struct HomeAssistantDiscoveryTests {
    static func configs(count: Int) -> [String: [UInt8]] {
        var d = HomeAssistantDiscovery(settings: MQTTSettings(host: "127.0.0.1", port: 1883, tls: false, id: "lobby"),
                                       base: "kiosk-carousel/lobby", version: "test", hasBacklight: false)
        d.capabilities.count = count
        return Dictionary(d.configs, uniquingKeysWith: { $1 })
    }

    @Test(arguments: [0, 1, 2, 13])
    func thePictureNumberIsOfferedOnlyWithSomethingToChoose(count: Int) throws {
        let number = try #require(Self.configs(count: count)["homeassistant/number/lobby/index/config"])
        if count < 2 {
            #expect(number.isEmpty, "withdrawn (an empty retained config)")
        } else {
            let c = try #require(try JSONSerialization.jsonObject(with: Data(number)) as? [String: Any])
            let (lo, hi) = (try #require(c["min"] as? Int), try #require(c["max"] as? Int))
            #expect(hi > lo && hi == count - 1)
        }
    }
}
