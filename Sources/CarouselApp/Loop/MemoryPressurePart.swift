import CarouselMedia

/// The kernel's memory pressure (`MemoryPressureWatcher`): its level is told to the view,
/// which keeps fewer pictures and clips while memory is short.
final class MemoryPressurePart: LoopPart {
    let watcher: MemoryPressureWatcher

    init(watcher: MemoryPressureWatcher) { self.watcher = watcher }

    func perform(_ input: AppInput, now: Double, byPerson: Bool, loop: InteractiveLoop) throws -> PartHandling {
        guard case .memoryPressureChanged = input else { return .notMine }
        try loop.scene.apply(.memoryPressure(watcher.level, time: now))
        return .done
    }
}
