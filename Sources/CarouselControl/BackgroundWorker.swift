import Foundation
import NIOConcurrencyHelpers

/// One thread of its own for the control part's heavy work (PNG screenshots), started at
/// the first job at a lower priority than drawing; jobs run in order, at most `limit`
/// waiting (more are refused).
final class BackgroundWorker: Sendable {
    static let limit = 4
    private let jobs = NIOLockedValueBox<(queue: [@Sendable () -> Void], started: Bool)>(([], false))
    private let ready = DispatchSemaphore(value: 0)
    private let setUp: @Sendable () -> Void

    /// - Parameter setUp: runs first on the worker's thread (lowers its priority).
    init(setUp: @escaping @Sendable () -> Void) {
        self.setUp = setUp
    }

    /// Queues `job`; false when `limit` jobs wait already.
    func run(_ job: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, start) = jobs.withLockedValue { s -> (Bool, Bool) in
            guard s.queue.count < Self.limit else { return (false, false) }
            s.queue.append(job)
            defer { s.started = true }
            return (true, !s.started)
        }
        guard accepted else { return false }
        if start {
            let thread = Thread { [self] in
                setUp()
                while true {
                    ready.wait()
                    let next = jobs.withLockedValue { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
                    next?()
                }
            }
            thread.name = "control-encoder"
            thread.start()
        }
        ready.signal()
        return true
    }
}
