import Glibc

/// Two threads over a ring of row buffers: the caller's thread fills batches of rows (a
/// decoder library handing out scanlines), a second thread takes each full batch in order
/// (fitting it, converting its colours). On a board with more than one core the fitting
/// then costs no time of its own: a 24 MP JPEG's 9 ms of resampling and 10 ms of colour
/// conversion run while libjpeg decodes the next rows. CPU time is the same; with one core,
/// or for a small picture, everything runs on the caller's thread, one batch after another.
enum RowPipeline {
    /// Batches in flight: enough that neither thread waits on the other's hiccups.
    static let slots = 4
    /// The second thread's stack: it only resamples and converts (the default, 8 MB, would
    /// count against a decoder helper's address-space limit).
    static let stackBytes = 256 << 10
    /// Below this many source pixels a second thread is not worth starting.
    static let minimumPixels = 1 << 20

    /// Whether this machine has a second core to fit on.
    static let hasSpareCore = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

    /// Runs `produce` on this thread, each time with `batch` row pointers of `rowBytes`
    /// bytes to fill; it returns how many rows it filled (0: no more) or throws. `consume`
    /// gets each filled batch (its first row and the number of rows), in order, on the
    /// second thread. Returns once `consume` has had every batch; after a throw, once the
    /// second thread has stopped (the batches not yet consumed are dropped).
    static func run<Failure: Error>(rowBytes: Int, rows: Int, batch: Int,
                                    produce: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) throws(Failure) -> Int,
                                    consume: @escaping (UnsafePointer<UInt8>, Int) -> Void) throws(Failure) {
        let ring = Ring(rowBytes: rowBytes, batch: batch, slots: hasSpareCore && rowBytes / 4 * rows >= minimumPixels ? slots : 1)
        defer { ring.deallocate() }
        guard ring.slots > 1, let fitter = FittingThread(ring: ring, consume: consume) else {
            // One thread: fill a batch, take it, again.
            while true {
                let n = try produce(ring.pointers(0))
                guard n > 0 else { return }
                consume(ring.rows(0), n)
            }
        }
        var slot = 0
        do throws(Failure) {
            while true {
                ring.waitForFree()
                let n = try produce(ring.pointers(slot))
                ring.hand(slot: slot, rows: n)
                if n <= 0 { break }
                slot = (slot + 1) % ring.slots
            }
        } catch {
            ring.abandon()
            fitter.join()
            throw error
        }
        fitter.join()
    }

    /// The buffers, and which of them are full, under one lock.
    private final class Ring: @unchecked Sendable {
        let slots: Int
        let batch: Int
        let rowBytes: Int
        private let memory: UnsafeMutablePointer<UInt8>
        private let rowPointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
        /// Rows in each full slot, in the order handed (0: the end).
        private var full: [(slot: Int, rows: Int)] = []
        private var freeSlots: Int
        private var abandoned = false
        /// Allocated, not stored: a mutex must not move.
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

        init(rowBytes: Int, batch: Int, slots: Int) {
            self.slots = slots
            self.batch = batch
            self.rowBytes = rowBytes
            freeSlots = slots
            memory = .allocate(capacity: rowBytes * batch * slots)
            rowPointers = .allocate(capacity: batch * slots)
            for i in 0..<(batch * slots) { rowPointers[i] = memory + i * rowBytes }
            pthread_mutex_init(lock, nil)
            pthread_cond_init(changed, nil)
        }

        func deallocate() {
            memory.deallocate()
            rowPointers.deallocate()
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(lock)
            changed.deallocate()
            lock.deallocate()
        }

        func pointers(_ slot: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?> { rowPointers + slot * batch }
        func rows(_ slot: Int) -> UnsafePointer<UInt8> { UnsafePointer(memory + slot * batch * rowBytes) }

        /// Producer: waits until a slot is free and takes it.
        func waitForFree() {
            pthread_mutex_lock(lock)
            while freeSlots == 0 { pthread_cond_wait(changed, lock) }
            freeSlots -= 1
            pthread_mutex_unlock(lock)
        }

        /// Producer: `slot` holds `rows` rows (0 or fewer: there are no more).
        func hand(slot: Int, rows: Int) {
            pthread_mutex_lock(lock)
            full.append((slot, max(0, rows)))
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }

        /// Producer: stop the consumer; what it has not taken is dropped.
        func abandon() {
            pthread_mutex_lock(lock)
            abandoned = true
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }

        /// Consumer: the next full slot, or nil at the end.
        func next() -> (slot: Int, rows: Int)? {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            while full.isEmpty && !abandoned { pthread_cond_wait(changed, lock) }
            if abandoned { return nil }
            let first = full.removeFirst()
            return first.rows > 0 ? first : nil
        }

        /// Consumer: done with a slot.
        func release() {
            pthread_mutex_lock(lock)
            freeSlots += 1
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(lock)
        }
    }

    /// The second thread: takes full slots until the end.
    private final class FittingThread: @unchecked Sendable {
        private let ring: Ring
        private let consume: (UnsafePointer<UInt8>, Int) -> Void
        private var thread = pthread_t()

        /// nil when no thread could be started (then the caller fits on its own).
        init?(ring: Ring, consume: @escaping (UnsafePointer<UInt8>, Int) -> Void) {
            self.ring = ring
            self.consume = consume
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, RowPipeline.stackBytes)
            let context = Unmanaged.passRetained(self).toOpaque()
            let rc = pthread_create(&thread, &attributes, { context in
                let me = Unmanaged<FittingThread>.fromOpaque(context!).takeRetainedValue()
                me.serve()
                return nil
            }, context)
            if rc != 0 {
                Unmanaged<FittingThread>.fromOpaque(context).release()
                return nil
            }
        }

        private func serve() {
            while let (slot, rows) = ring.next() {
                consume(ring.rows(slot), rows)
                ring.release()
            }
        }

        func join() { pthread_join(thread, nil) }
    }
}
