import CarouselCore
import Foundation

/// Home Assistant's MQTT discovery for one screen: retained configs under
/// `homeassistant/<component>/<id>/<object>/config`, one device, a `unique_id` on every
/// entity, and every entity's availability following the screen's last will.
struct HomeAssistantDiscovery {
    let settings: MQTTSettings
    let base: String
    let version: String
    let hasBacklight: Bool
    /// `--group`: a problem sensor for the clock.
    var inGroup = false

    /// (topic, JSON) of every entity.
    var configs: [(String, [UInt8])] {
        let id = settings.id
        let device: [String: Any] = ["identifiers": ["kiosk-carousel-\(id)"], "name": "Kiosk \(id)",
                                     "model": "KioskCarousel", "manufacturer": "KioskCarousel", "sw_version": version]
        func entity(_ component: String, _ object: String, _ name: String, _ extra: [String: Any]) -> (String, [UInt8]) {
            var c: [String: Any] = ["name": name, "unique_id": "kiosk-carousel-\(id)-\(object)",
                                    "object_id": "kiosk_\(id)_\(object)", "device": device,
                                    "availability_topic": base + "/availability"]
            c.merge(extra) { $1 }
            let data = (try? JSONSerialization.data(withJSONObject: c, options: [.sortedKeys])) ?? Data()
            return ("homeassistant/\(component)/\(id)/\(object)/config", Array(data))
        }
        var light: [String: Any] = ["command_topic": base + "/cmd/screen", "state_topic": base + "/state/screen",
                                    "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:monitor"]
        if hasBacklight {
            light["brightness_command_topic"] = base + "/cmd/brightness"
            light["brightness_state_topic"] = base + "/state/brightness"
            light["brightness_scale"] = 255
        }
        let clock = inGroup ? [entity("binary_sensor", "clock", "Clock", [
            "state_topic": base + "/state/clock_problem", "payload_on": "ON", "payload_off": "OFF", "device_class": "problem",
            "json_attributes_topic": base + "/state/clock", "entity_category": "diagnostic"])] : []
        return clock + [
            entity("button", "next", "Next", ["command_topic": base + "/cmd/next", "icon": "mdi:skip-next"]),
            entity("button", "previous", "Previous", ["command_topic": base + "/cmd/previous", "icon": "mdi:skip-previous"]),
            entity("button", "reload", "Reload", ["command_topic": base + "/cmd/reload", "icon": "mdi:reload"]),
            entity("light", "screen", "Screen", light),
            entity("switch", "playing", "Autoplay", ["command_topic": base + "/cmd/playing", "state_topic": base + "/state/playing",
                                                    "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:play-pause"]),
            entity("select", "view", "View", ["command_topic": base + "/cmd/view", "state_topic": base + "/state/view",
                                              "options": ViewKind.allCases.map(\.rawValue), "icon": "mdi:view-carousel"]),
            entity("sensor", "title", "Picture", ["state_topic": base + "/state/title",
                                                  "json_attributes_topic": base + "/state/attributes", "icon": "mdi:image"]),
            entity("sensor", "failed", "Pictures failed", ["state_topic": base + "/state/failed", "state_class": "total_increasing",
                                                            "icon": "mdi:image-broken"]),
            entity("image", "screenshot", "Screen", ["image_topic": base + "/screenshot", "content_type": "image/png"]),
        ]
    }
}
