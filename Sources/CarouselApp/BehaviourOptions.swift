import ArgumentParser
import CarouselCore

/// What the carousel does by itself and how far a fling may go: shared by `carousel render`
/// (on virtual time, for tests) and the interactive `carousel`.
public struct BehaviourOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Step to the next item every SECONDS while nobody touches the screen.", valueName: "SECONDS"))
    public var autoplay: Double?

    @Option(help: ArgumentHelp("After input, autoplay resumes once nobody has touched the screen for SECONDS (default 30).", valueName: "SECONDS"))
    public var idleResume: Double?

    @Option(help: ArgumentHelp("Slide back to the first item after SECONDS without input.", valueName: "SECONDS"))
    public var idleHome: Double?

    @Option(help: ArgumentHelp("Most items one fling may travel (1: a fling never skips an item).", valueName: "N"))
    public var maxFlingItems: Int?

    @Option(help: ArgumentHelp("How autoplay, keys and remote commands move to another picture: slide (the strip moves), fade (a crossfade in place) or none (at once). Drags always slide.", valueName: "KIND"))
    public var transition: TransitionKind = .slide

    @Option(help: ArgumentHelp("How long a fade takes, in milliseconds (default 600).", valueName: "MS"))
    public var transitionMs: Double?

    @Flag(help: "While autoplay dwells on a picture, zoom it slowly (to 1.12x) and pan towards a point chosen per picture; a touch stops it. Pictures are decoded 1.12x larger for it.")
    public var kenBurns = false

    public enum TransitionKind: String, ExpressibleByArgument, CaseIterable, Sendable {
        case slide, fade, none
    }

    public init() {}

    public func validate() throws {
        if let ms = transitionMs, !(ms >= 50 && ms <= 10_000) {
            throw ValidationError("--transition-ms must be from 50 to 10000, not \(ms)")
        }
        // Under a second between steps is a slideshow nobody can look at, and a settle
        // animation (up to 0.45 s) must finish before the next one starts.
        if let a = autoplay, !(a >= 1 && a.isFinite) { throw ValidationError("--autoplay must be at least 1 second, not \(a)") }
        if let r = idleResume, !(r >= 0 && r.isFinite) { throw ValidationError("--idle-resume must be 0 or more seconds, not \(r)") }
        if let h = idleHome, !(h >= 1 && h.isFinite) { throw ValidationError("--idle-home must be at least 1 second, not \(h)") }
        if let m = maxFlingItems, m < 1 { throw ValidationError("--max-fling-items must be 1 or more, not \(m)") }
    }

    /// These options as config-file entries, for `--print-config`.
    var configEntries: [ConfigEntry] {
        [.init("autoplay", autoplay.map { .number($0) }, unset: "off"),
         .init("idle-resume", .number(idleResume ?? AttractSettings().idleResume)),
         .init("idle-home", idleHome.map { .number($0) }, unset: "off"),
         .init("max-fling-items", maxFlingItems.map { .number(Double($0)) }, unset: "unlimited"),
         .init("transition", .string(transition.rawValue)),
         .init("ken-burns", .bool(kenBurns)),
         .init("transition-ms", .number(transitionMs ?? Transition.defaultFadeSeconds * 1000))]
    }

    /// These options applied over `settings`.
    public func apply(to settings: inout CarouselSettings) {
        settings.attract.autoplayInterval = autoplay
        if let r = idleResume { settings.attract.idleResume = r }
        settings.attract.idleHome = idleHome
        settings.release.maxFlingItems = maxFlingItems
        settings.kenBurns = kenBurns
        switch transition {
        case .slide: settings.transition = .slide
        case .fade: settings.transition = .fade((transitionMs ?? Transition.defaultFadeSeconds * 1000) / 1000)
        case .none: settings.transition = .none
        }
    }
}
