import CarouselCore
import CarouselControl

/// This screen in its group (`--group`): the group's step instants and commands move the
/// show, and a person's or a remote's move here moves the group (`ScreenGroup`).
final class GroupPart: LoopPart {
    let group: ScreenGroup

    init(group: ScreenGroup, showing sources: [ImageSource]) {
        self.group = group
        group.showChanged(sources)
    }

    func nextDue(now: Double, loop: InteractiveLoop) -> Double? {
        guard loop.screenOn else { return nil }
        // The group's item fell due while the view moved, and the motion ended after the
        // group's part of the pass (in the draw): one more pass now, not at the next step.
        if group.waitingForRest && !loop.scene.activity.held { return now }
        return group.nextDue(now: now)
    }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        // A person's or a remote's move here is the group's (autoplay's own are not): a step
        // to an item moves every screen at one instant, this one too; the outcome of
        // anything else is announced once the view rests.
        guard case .view(let c) = input else { return .notMine }
        switch c {
        case .resize, .autoplay, .holding: break
        case .step(let step, _): if group.step(step, now: now, scene: loop.scene) { return .done }
        default: group.acted()
        }
        return .notMine
    }

    func pass(now: Double, loop: InteractiveLoop) throws {
        // The group's step instants and commands, every screen making them now; after the
        // advance, so that a motion ending in it lets the screen follow at once.
        let (steps, pause) = group.pass(now: now, scene: loop.scene, paused: loop.paused)
        for step in steps { try loop.scene.handle(step) }
        try loop.scene.apply(.nextStep(group.upcoming(now: now, count: loop.scene.sources.count)))
        if !steps.isEmpty { loop.needsDraw = true }
        if let pause { loop.paused = pause }
    }

    var holdsAnswers: Bool { group.announcing }

    func publish(into s: inout ShowState) {
        s.group = group.status
        s.capabilities.inGroup = true
    }
}
