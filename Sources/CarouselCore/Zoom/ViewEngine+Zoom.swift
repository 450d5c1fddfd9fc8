/// The zoom composed into a view's gestures (the carousel's): one pointer on a picture at
/// fit drives the strip as before; a second finger down turns whatever the first was doing
/// into a pinch of the centred picture; one pointer on a zoomed picture pans it, unless it
/// starts at the picture's left or right edge and goes outwards, when the strip takes it
/// (to the neighbour, as in a phone's gallery); a double tap zooms in about the tapped point
/// or back to fit.
extension ViewEngine {
    /// A pointer event of a view whose `zoomPan` is set.
    mutating func zoomingPointer(_ e: PointerEvent) {
        guard zoomPan != nil else { return }
        let settings = core.gestures.settings
        switch e.phase {
        case .down:
            guard fingers.add(e.pointer, at: e.location) else { return }  // a third finger
            if let span = fingers.span {
                guard zoomPan?.target != nil else { return }  // nothing to pinch: the strip's rule, one finger
                if core.gestures.isActive {
                    // The strip's drag becomes a pinch: the strip goes back to the picture.
                    core.gestures.abandon()
                    pressEnded(time: e.time)
                }
                zoomPan?.hold()
                fingers.mode = .pinch(start: span.midpoint, distance: span.distance)
            } else if zoomPan?.isZoomed == true, core.scroller.isResting {
                zoomPan?.hold()
                fingers.velocityX.reset()
                fingers.velocityY.reset()
                fingers.velocityX.add(time: e.time, position: e.location.x)
                fingers.velocityY.add(time: e.time, position: e.location.y)
                fingers.mode = .pan(owner: e.pointer, start: e.location, startTime: e.time, moved: false)
            } else {
                fingers.mode = .strip
                stripPointer(e)
            }

        case .move:
            guard fingers.move(e.pointer, to: e.location) else { return }
            switch fingers.mode {
            case .strip:
                stripPointer(e)
            case .pinch(let start, let distance):
                if let span = fingers.span {
                    zoomPan?.pinch(from: start, startDistance: distance, to: span.midpoint, distance: span.distance)
                }
            case .pan(let owner, let start, let startTime, let moved) where owner == e.pointer:
                fingers.velocityX.add(time: e.time, position: e.location.x)
                fingers.velocityY.add(time: e.time, position: e.location.y)
                let travel = Point(x: e.location.x - start.x, y: e.location.y - start.y)
                if !moved {
                    guard abs(travel.x) > settings.slop || abs(travel.y) > settings.slop else { return }
                    if abs(travel.x) >= abs(travel.y), zoomPan?.showsEdge(towards: travel.x) == true {
                        // At the picture's edge and outwards: the strip takes the drag.
                        zoomPan?.letGo()
                        fingers.mode = .strip
                        stripPointer(PointerEvent(.down, owner, x: start.x, y: start.y, time: startTime))
                        stripPointer(e)
                        return
                    }
                    fingers.mode = .pan(owner: owner, start: start, startTime: startTime, moved: true)
                }
                zoomPan?.pan(by: travel)
            case .pan, .waiting, .idle:
                break
            }

        case .up, .cancel:
            let mode = fingers.mode
            guard fingers.remove(e.pointer) else { return }
            switch mode {
            case .strip:
                stripPointer(e)
            case .pinch:
                if let (id, at) = fingers.remaining, (zoomPan?.scale ?? 1) > 1.001 {
                    // One finger stays on a zoomed picture: it pans from here.
                    zoomPan?.hold()
                    fingers.velocityX.reset()
                    fingers.velocityY.reset()
                    fingers.mode = .pan(owner: id, start: at, startTime: e.time, moved: true)
                } else {
                    zoomPan?.release(velocity: Point(x: 0, y: 0), time: e.time)
                    if fingers.remaining != nil { fingers.mode = .waiting }
                }
            case .pan(let owner, let start, let startTime, let moved) where owner == e.pointer:
                if !moved && e.phase == .up && e.time - startTime < settings.tapMaxDuration {
                    zoomPan?.letGo()
                    let zoomSettings = zoomPan?.settings ?? ZoomSettings()
                    if fingers.isDoubleTap(at: start, time: e.time, settings: zoomSettings) {
                        zoomPan?.doubleTap(at: start, time: e.time)
                    }
                } else {
                    let flung = e.phase == .up
                    let velocity = Point(x: flung ? fingers.velocityX.velocity(at: e.time) : 0,
                                         y: flung ? fingers.velocityY.velocity(at: e.time) : 0)
                    zoomPan?.release(velocity: velocity, time: e.time)
                }
                if fingers.remaining != nil { fingers.mode = .waiting }
            case .pan, .waiting, .idle:
                break
            }
        }
    }

    /// The one-pointer gesture tracker's part: the strip's drag, release and tap. A tap on the
    /// centred picture at rest that follows another is a double tap: it zooms instead.
    private mutating func stripPointer(_ e: PointerEvent) {
        guard let g = core.gestures.handle(e) else { return }
        if case .tapped(let p, let t) = g, let zoom = zoomPan, let target = zoom.target,
           core.scroller.pressCaughtMotion == false, position == Double(target.virtualIndex),
           zoom.map(target.content).contains(p) {
            if fingers.isDoubleTap(at: p, time: t, settings: zoom.settings) {
                core.scroller.stop()
                zoomPan?.doubleTap(at: p, time: t)
                return
            }
        } else if case .tapped = g {
            fingers.lastTap = nil
        }
        apply(g)
    }
}
