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
    /// What this screen can do: only that is offered (a control Home Assistant shows that
    /// the screen then refuses would snap back without a word).
    var capabilities = ShowState.Capabilities()

    /// (topic, JSON) of every entity, and the empty retained configs that take away an
    /// entity this screen no longer offers (discovery of an earlier start).
    var configs: [(String, [UInt8])] {
        let id = settings.id
        var device: [String: Any] = ["identifiers": ["kiosk-carousel-\(id)"], "name": "Kiosk \(id)",
                                     "model": "Picture kiosk", "manufacturer": "KioskCarousel", "sw_version": version]
        if let url = capabilities.controlURL { device["configuration_url"] = url }
        func entity(_ component: String, _ object: String, _ name: String, _ extra: [String: Any]) -> (String, [UInt8]) {
            // default_entity_id, not object_id: Home Assistant 2025.10 warns about object_id,
            // announced to stop working in 2026.4.
            var c: [String: Any] = ["name": name, "unique_id": "kiosk-carousel-\(id)-\(object)",
                                    "default_entity_id": "\(component).kiosk_\(id)_\(object)", "device": device,
                                    "availability_topic": base + "/availability"]
            c.merge(extra) { $1 }
            let data = (try? JSONSerialization.data(withJSONObject: c, options: [.sortedKeys])) ?? Data()
            return (topic(component, object), Array(data))
        }
        func topic(_ component: String, _ object: String) -> String { "homeassistant/\(component)/\(id)/\(object)/config" }
        var light: [String: Any] = ["command_topic": base + "/cmd/screen", "state_topic": base + "/state/screen",
                                    "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:monitor",
                                    "json_attributes_topic": base + "/state/screen_attributes"]
        if hasBacklight {
            light["brightness_command_topic"] = base + "/cmd/brightness"
            light["brightness_state_topic"] = base + "/state/brightness"
            light["brightness_scale"] = 255
        }
        var offered: [(String, [UInt8])] = [
            entity("button", "next", "Next", ["command_topic": base + "/cmd/next", "icon": "mdi:skip-next"]),
            entity("button", "previous", "Previous", ["command_topic": base + "/cmd/previous", "icon": "mdi:skip-previous"]),
            entity("button", "first", "First", ["command_topic": base + "/cmd/first", "icon": "mdi:skip-backward"]),
            entity("button", "last", "Last", ["command_topic": base + "/cmd/last", "icon": "mdi:skip-forward"]),
            entity("button", "reload", "Reload", ["command_topic": base + "/cmd/reload", "icon": "mdi:reload",
                                                 "entity_category": "config"]),
            entity("light", "screen", "Screen", light),
            entity("sensor", "title", "Picture", ["state_topic": base + "/state/title",
                                                  "json_attributes_topic": base + "/state/attributes", "icon": "mdi:image"]),
            entity("sensor", "failed", "Pictures failed", ["state_topic": base + "/state/failed", "state_class": "total_increasing",
                                                            "icon": "mdi:image-broken", "entity_category": "diagnostic"]),
            entity("image", "screenshot", "Screenshot", ["image_topic": base + "/screenshot", "content_type": "image/png"]),
        ]
        var withdrawn: [String] = []
        // A number to choose among: Home Assistant refuses a number entity whose max is not
        // above its min (seen in 2024.3.3: "'max' must be > 'min'", at the start of a show
        // not scanned yet, or of one picture).
        if capabilities.count >= 2 {
            offered.append(entity("number", "index", "Picture number", [
                "command_topic": base + "/cmd/goto", "state_topic": base + "/state/index", "min": 0,
                "max": capabilities.count - 1, "step": 1, "mode": "box", "icon": "mdi:numeric"]))
        } else {
            withdrawn.append(topic("number", "index"))
        }
        if capabilities.canPlay {
            offered.append(entity("switch", "playing", "Autoplay", [
                "command_topic": base + "/cmd/playing", "state_topic": base + "/state/playing",
                "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:play-pause"]))
        } else {
            withdrawn.append(topic("switch", "playing"))
        }
        if let wall = capabilities.wall {
            // The words people read; the screen's own view names go over the wire.
            offered.append(entity("select", "view", "View", [
                "command_topic": base + "/cmd/view", "state_topic": base + "/state/view",
                "options": ["Carousel", "Wall"],
                "value_template": "{{ 'Carousel' if value == 'carousel' else 'Wall' }}",
                "command_template": "{{ 'carousel' if value == 'Carousel' else '\(wall)' }}",
                "icon": "mdi:view-carousel"]))
        } else {
            withdrawn.append(topic("select", "view"))
        }
        if capabilities.inGroup {
            offered.append(entity("binary_sensor", "clock", "Clock", [
                "state_topic": base + "/state/clock_problem", "payload_on": "ON", "payload_off": "OFF", "device_class": "problem",
                "json_attributes_topic": base + "/state/clock", "entity_category": "diagnostic"]))
        } else {
            withdrawn.append(topic("binary_sensor", "clock"))
        }
        return offered + withdrawn.map { ($0, []) }
    }
}
