import Foundation
import Testing
@testable import CarouselApp

/// The backlight through a sysfs-shaped folder: found, read and set in the kernel's units.
@Suite struct BacklightTests {
    @Test func theFirstBacklightIsFoundReadAndSet() throws {
        let root = try Fixtures.temporaryFolder("backlight")
        #expect(Backlight.find(root: root) == nil, "an empty class has none")
        let dir = root + "/10-0045"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "255\n".write(toFile: dir + "/max_brightness", atomically: true, encoding: .utf8)
        try "51\n".write(toFile: dir + "/brightness", atomically: true, encoding: .utf8)
        let light = try #require(Backlight.find(root: root))
        #expect(light.maximum == 255 && light.level == 0.2)
        #expect(light.set(0.4) == nil)
        #expect(try String(contentsOfFile: dir + "/brightness", encoding: .utf8) == "102")
        #expect(light.level == 0.4)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: dir + "/brightness")
        if getuid() != 0 {
            #expect(light.set(1)?.contains("cannot be written") == true, "a read-only file is said, not a crash")
        }
    }
}
