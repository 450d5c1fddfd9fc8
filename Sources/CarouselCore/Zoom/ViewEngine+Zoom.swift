/// The zoom composed into a view's gestures (the carousel's): one pointer on a picture at
/// fit drives the strip as before; a second finger down turns whatever the first was doing
/// into a pinch of the centred picture; one pointer on a zoomed picture pans it, unless it
/// starts at the picture's left or right edge and goes outwards, when the strip takes it
/// (to the neighbour, as in a phone's gallery); a double tap zooms in about the tapped point
/// or back to fit.
extension ViewEngine {
    /// A pointer event of a view whose `core.zoom` is set.
    mutating func zoomingPointer(_ e: PointerEvent) {
        guard core.zoom != nil else { return }
        let settings = core.gestures.settings
        switch e.phase {
        case .down:
            guard core.pinch.add(e.pointer, at: e.location) else { return }  // a third finger
            if let span = core.pinch.span {
                guard core.zoom?.target != nil else { return }  // nothing to pinch: the strip's rule, one finger
                if core.gestures.isActive {
                    // The strip's drag becomes a pinch: the strip goes back to the picture.
                    core.gestures.abandon()
                    pressEnded(time: e.time)
                }
                core.zoom?.hold()
                core.pinch.mode = .pinch(start: span.midpoint, distance: span.distance)
            } else if core.zoom?.isZoomed == true, core.scroller.isResting {
                core.zoom?.hold()
                core.pinch.velocityX.reset()
                core.pinch.velocityY.reset()
                core.pinch.velocityX.add(time: e.time, position: e.location.x)
                core.pinch.velocityY.add(time: e.time, position: e.location.y)
                core.pinch.mode = .pan(owner: e.pointer, start: e.location, startTime: e.time, moved: false)
            } else {
                core.pinch.mode = .strip
                stripPointer(e)
            }

        case .move:
            guard core.pinch.move(e.pointer, to: e.location) else { return }
            switch core.pinch.mode {
            case .strip:
                stripPointer(e)
            case .pinch(let start, let distance):
                if let span = core.pinch.span {
                    core.zoom?.pinch(from: start, startDistance: distance, to: span.midpoint, distance: span.distance)
                }
            case .pan(let owner, let start, let startTime, let moved) where owner == e.pointer:
                core.pinch.velocityX.add(time: e.time, position: e.location.x)
                core.pinch.velocityY.add(time: e.time, position: e.location.y)
                let travel = Point(x: e.location.x - start.x, y: e.location.y - start.y)
                if !moved {
                    guard abs(travel.x) > settings.slop || abs(travel.y) > settings.slop else { return }
                    if abs(travel.x) >= abs(travel.y), core.zoom?.showsEdge(towards: travel.x) == true {
                        // At the picture's edge and outwards: the strip takes the drag.
                        core.zoom?.letGo()
                        core.pinch.mode = .strip
                        stripPointer(PointerEvent(.down, owner, x: start.x, y: start.y, time: startTime))
                        stripPointer(e)
                        return
                    }
                    core.pinch.mode = .pan(owner: owner, start: start, startTime: startTime, moved: true)
                }
                core.zoom?.pan(by: travel)
            case .pan, .waiting, .idle:
                break
            }

        case .up, .cancel:
            let mode = core.pinch.mode
            guard core.pinch.remove(e.pointer) else { return }
            switch mode {
            case .strip:
                stripPointer(e)
            case .pinch:
                if let (id, at) = core.pinch.remaining, (core.zoom?.scale ?? 1) > 1.001 {
                    // One finger stays on a zoomed picture: it pans from here.
                    core.zoom?.hold()
                    core.pinch.velocityX.reset()
                    core.pinch.velocityY.reset()
                    core.pinch.mode = .pan(owner: id, start: at, startTime: e.time, moved: true)
                } else {
                    core.zoom?.release(velocity: Point(x: 0, y: 0), time: e.time)
                    if core.pinch.remaining != nil { core.pinch.mode = .waiting }
                }
            case .pan(let owner, let start, let startTime, let moved) where owner == e.pointer:
                if !moved && e.phase == .up && e.time - startTime < settings.tapMaxDuration {
                    core.zoom?.letGo()
                    let zoomSettings = core.zoom?.settings ?? ZoomSettings()
                    if core.pinch.isDoubleTap(at: start, time: e.time, settings: zoomSettings) {
                        core.zoom?.doubleTap(at: start, time: e.time)
                    }
                } else {
                    let flung = e.phase == .up
                    let velocity = Point(x: flung ? core.pinch.velocityX.velocity(at: e.time) : 0,
                                         y: flung ? core.pinch.velocityY.velocity(at: e.time) : 0)
                    core.zoom?.release(velocity: velocity, time: e.time)
                }
                if core.pinch.remaining != nil { core.pinch.mode = .waiting }
            case .pan, .waiting, .idle:
                break
            }
        }
    }

    /// The one-pointer gesture tracker's part: the strip's drag, release and tap. A tap on the
    /// centred picture at rest that follows another is a double tap: it zooms instead.
    private mutating func stripPointer(_ e: PointerEvent) {
        guard let g = core.gestures.handle(e) else { return }
        if case .tapped(let p, let t) = g, let zoom = core.zoom, let target = zoom.target,
           core.scroller.pressCaughtMotion == false, position == Double(target.virtualIndex),
           zoom.map(target.content).contains(p) {
            if core.pinch.isDoubleTap(at: p, time: t, settings: zoom.settings) {
                core.scroller.stop()
                core.zoom?.doubleTap(at: p, time: t)
                return
            }
        } else if case .tapped = g {
            core.pinch.lastTap = nil
        }
        apply(g)
    }
}
