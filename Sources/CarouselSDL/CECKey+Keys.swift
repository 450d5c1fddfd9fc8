import CarouselDevices

extension CECKey {
    /// The keyboard key that does the same, as the remote's keys step and open the show as
    /// keys do: OK opens (or plays and pauses), Exit and the menu key go back. Nil for Play,
    /// Pause and Stop, which set a state rather than toggle it (the run loop's).
    public var key: KeyPress.Name? {
        switch self {
        case .select: .enter
        case .up: .up
        case .down: .down
        case .left, .backward: .left
        case .right, .forward: .right
        case .rootMenu, .exit: .backspace
        case .pausePlayFunction: .playPause
        case .play, .pause, .stop, .playFunction: nil
        case .rewind: .rewind
        case .fastForward: .fastForward
        }
    }
}
