import Foundation

/// The one thread that starts decoder helpers. A helper asks the kernel to kill it when its
/// parent ends, and on Linux "parent" means the thread that started it: a helper started
/// from a short-lived thread would die with that thread. This thread lives exactly as long
/// as the helpers should (until `finish`).
final class SpawnThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var finished = false

    init() {
        let thread = Thread { [self] in serve() }
        thread.name = "decoder-spawn"
        thread.start()
    }

    /// Runs `body` on this thread and returns its result; nil once finished.
    func run<T>(_ body: @escaping @Sendable () -> T) -> T? {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        guard !finished else { condition.unlock(); return nil }
        jobs.append { result.value = body(); done.signal() }
        condition.signal()
        condition.unlock()
        done.wait()
        return result.value
    }

    /// Lets the thread end once the job under way (if any) is done; later `run`s return nil.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty { condition.unlock(); return }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
