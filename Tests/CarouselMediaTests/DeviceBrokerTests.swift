import CDeviceBroker
@testable import CarouselMedia
import Foundation
import Glibc
import Testing

/// The device broker answers a sandboxed video helper's opens (see CDeviceBroker): a request
/// is hostile input, from a process that may be running a compromised decoder. Only the
/// exact paths it was given open, only with a decoder's flags; each open is a new one.
@Suite struct DeviceBrokerTests {
    /// In this test process (the helper's broker is the same code): started once, asked
    /// directly, as the SIGSYS handler asks it. Not under a sanitizer, whose runtime a
    /// forked copy of a many-threaded process must not enter.
    @Test(.enabled(if: !HelperSandbox.sanitized)) func onlyTheListedDevicesOpenAndOnlyForUse() throws {
        // A descriptor far up, as a busy process has (the suite's own, under load): the
        // broker must not keep it (a pipe's reader would wait for the broker's end).
        let far = fcntl(0, F_DUPFD_CLOEXEC, 4000)
        defer { if far >= 0 { close(far) } }
        let started = ["/dev/null", "/dev/zero"].withCStringArray { kc_broker_start($0, 2) }
        #expect(started == 0 || started == -EALREADY)
        let pid = kc_broker_pid()
        #expect(pid > 0)

        let fd = kc_broker_open("/dev/zero", O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0, "a listed device opens: \(fd)")
        if fd >= 0 {
            var byte: UInt8 = 7
            #expect(read(fd, &byte, 1) == 1 && byte == 0, "and it is /dev/zero")
            let again = kc_broker_open("/dev/zero", O_RDONLY)
            #expect(again >= 0 && again != fd, "each open is a new descriptor")
            #expect(fcntl(again, F_GETFD) & FD_CLOEXEC == 0, "close-on-exec as asked, not as passed")
            close(again)
            close(fd)
        }
        let refused: [(String, Int32)] = [
            ("/etc/hostname", O_RDONLY),                      // not listed
            ("/dev/null/../null", O_RDONLY),                  // not the listed spelling
            ("/dev/../dev/null", O_RDONLY),
            ("dev/null", O_RDONLY),                           // relative
            ("/dev/nul", O_RDONLY), ("/dev/null2", O_RDONLY), // a prefix, a longer name
            ("/dev/null", O_RDWR | O_CREAT),                  // creating
            ("/dev/null", O_WRONLY | O_TRUNC),                // truncating
            ("/dev/null", O_RDONLY | 0o10000000),           // O_PATH: a path descriptor
            ("/dev/null", O_RDONLY | O_DIRECTORY),
            (String(repeating: "/", count: 300) + "dev/null", O_RDONLY),  // longer than a request holds
            ("", O_RDONLY),
        ]
        for (path, flags) in refused {
            let answer = kc_broker_open(path, flags)
            #expect(answer < 0, "\(path) with flags \(flags) must be refused, got \(answer)")
            if answer >= 0 { close(answer) }
        }
        #expect(kc_broker_open("/etc/hostname", O_RDONLY) == -EPERM)
        // Requests made at random around the listed names: only a listed name, byte for
        // byte, with a decoder's flags, opens.
        var generator = SystemRandomNumberGenerator()
        let decoderFlags: Int32 = O_ACCMODE | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        for _ in 0..<2000 {
            var bytes = Array((Bool.random(using: &generator) ? "/dev/zero" : "/dev/null").utf8)
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 1...255, using: &generator)
                case 1: bytes.insert(UInt8.random(in: 1...255, using: &generator), at: at)
                default: bytes.remove(at: at)
                }
                if bytes.isEmpty { bytes = [0x2F] }
            }
            let path = String(decoding: bytes, as: UTF8.self)
            let flags = Bool.random(using: &generator) ? O_RDONLY : Int32.random(in: 0...0o17777777, using: &generator)
            let listed = path == "/dev/zero" || path == "/dev/null"
            let expected = listed && Array(path.utf8) == bytes && flags & ~decoderFlags == 0
            let answer = kc_broker_open(path, flags)
            #expect((answer >= 0) == expected, "\(bytes) with flags \(String(flags, radix: 8)): \(answer)")
            if answer >= 0 { close(answer) }
        }
        #expect(kc_broker_open(String(repeating: "a", count: 300), O_RDONLY) == -ENAMETOOLONG)
        // The broker lives under its own filter, with nothing open but its socket.
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        #expect(status.contains("Seccomp:\t2"), "the broker runs filtered")
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        #expect(open.count == 1, "the broker holds only its socket: \(open)")
    }
}

extension Array where Element == String {
    /// The strings as a C array of C strings for the call.
    func withCStringArray<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
