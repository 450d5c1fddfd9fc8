import CarouselControl

/// The panel's backlight (`/sys/class/backlight`): a remote `brightness` sets it, and its
/// level is published. Without one, the command is refused with the reason.
final class BacklightPart: LoopPart {
    private let backlight: Backlight?
    /// The level as last read or set: published without reading sysfs each pass.
    private var level: Double?

    init(backlight: Backlight? = Backlight.find()) {
        self.backlight = backlight
        level = backlight?.level
    }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        guard case .brightness(let value) = input else { return .notMine }
        guard let backlight else { return .refused("this panel has no backlight the program can set (/sys/class/backlight has none)") }
        if let problem = backlight.set(value) { return .refused(problem) }
        level = backlight.level
        return .done
    }

    func publish(into s: inout ShowState) { s.brightness = level }
}
