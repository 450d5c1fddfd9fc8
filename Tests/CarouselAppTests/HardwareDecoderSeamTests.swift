@testable import CarouselMedia
import Foundation
import Testing

/// A hardware decoder's device nodes reach the sandboxed video helper through its device
/// broker (`carousel video-helper --check devices`, as an integrator runs it on a board):
/// the nodes handed through open and their ioctls reach the driver; a terminal's ioctl and
/// any other file stay refused by the filter (EPERM). The kernel's virtual codec decoding
/// through it is proven by `kiosk/vm-test --full` (vicodec), which this machine's kernel
/// cannot load.
@Suite struct HardwareDecoderSeamTests {
    static func check(_ extra: [String]) throws -> CarouselBinary.Result {
        try CarouselBinary.run(["video-helper", "--check", "devices"] + extra, timeout: 60)
    }

    @Test func aHandedDeviceOpensAndItsIoctlsReachTheDriverWhileOthersStayRefused() throws {
        let r = try Self.check(["--devices", "/dev/null,/dev/zero"])
        let eperm = String(cString: strerror(EPERM)), enotty = String(cString: strerror(ENOTTY))
        if HelperSandbox.sanitized {
            // A sanitizer's runtime delays a trapped call's signal: the seam is off, and the
            // opens stay refused as without devices.
            #expect(r.stdout.contains("/dev/null: open refused (\(eperm))"), "\(r.stdout)")
            return
        }
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("sandbox: seccomp filter on every thread; devices handed through: /dev/null /dev/zero, through the device broker"),
                "\(r.stderr)")
        for device in ["/dev/null", "/dev/zero"] {
            // ENOTTY is the driver's answer to a V4L2 request it does not know: the request got there.
            #expect(r.stdout.contains("\(device): opened through the broker; VIDIOC_QUERYCAP: \(enotty)"), "\(r.stdout)")
            #expect(r.stdout.contains("\(device): TCGETS: \(eperm)"), "a terminal's ioctl is not a decoder's: \(r.stdout)")
        }
        #expect(r.stdout.contains("/etc/hostname: open refused (\(eperm))"), "\(r.stdout)")
        // The broker ended with its helper.
        if let pid = r.stderr.split(separator: "(process ").last?.prefix(while: \.isNumber), let n = Int32(pid) {
            var gone = false
            for _ in 0..<40 where !gone {
                gone = kill(n, 0) != 0 || ((try? String(contentsOfFile: "/proc/\(n)/status", encoding: .utf8)) ?? "").contains("State:\tZ")
                if !gone { usleep(50_000) }
            }
            #expect(gone, "the broker \(n) outlived its helper")
        } else {
            Issue.record("no broker process named: \(r.stderr)")
        }
    }

    @Test func softwareDecodingHandsNothingThroughAndAFileIsNoDevice() throws {
        let software = try Self.check(["--devices", "/dev/null", "--decoders", "software"])
        #expect(software.status != 0 && software.stdout.contains("no device nodes to hand through"), "\(software.stdout)")
        #expect(software.stderr.contains("devices handed through: none"), "\(software.stderr)")
        let file = try Self.check(["--devices", "/etc/hostname"])
        #expect(file.status != 0 && file.stdout.contains("no device nodes to hand through"), "only character devices: \(file.stdout)")
    }
}
