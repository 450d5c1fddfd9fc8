@testable import CarouselMedia
import Foundation
import Testing
import TestSupport

/// A clip is told by its first bytes, whatever its name: every container the tests make
/// (AVCHD's M2TS too, its packets 192 bytes apart), and not a HEIF picture or other bytes.
@Suite struct ClipContainerTests {
    static func head(_ path: String) throws -> [UInt8] {
        Array([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))).prefix(ClipContainer.sniffBytes))
    }

    @Test func everyContainerIsToldByItsContent() throws {
        let dir = try MediaFixtures.folder("sniff")
        for kind in ClipFixtures.Kind.all {
            let path = try ClipFixtures.make(kind, seconds: [0], width: 64, height: 48, rate: 10, in: dir, name: "clip-\(kind.ext)")
            #expect(ClipContainer.isClip(try Self.head(path)), "\(kind)")
        }
        // A camcorder's M2TS: a 4-byte time stamp before each 188-byte packet.
        let m2ts = dir + "/00000.m2ts"
        try ReferenceEncoders.run(.ffmpeg, ["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=red:size=64x48:rate=25:duration=1",
                                             "-c:v", "libx264", "-preset", "ultrafast", "-f", "mpegts", "-mpegts_m2ts_mode", "1", m2ts])
        let head = try Self.head(m2ts)
        #expect(head[0] != 0x47 && head[4] == 0x47 && ClipContainer.isClip(head), "M2TS")
    }

    @Test func picturesAndOtherBytesAreNotClips() throws {
        let heic = try MediaFixtures.folder("sniff-heic") + "/still.heic"
        try ReferenceEncoders.run(.convert, ["-size", "64x48", "xc:red", heic])
        #expect(!ClipContainer.isClip(try Self.head(heic)), "HEIC")
        var text = Array("RIFF....WAVEfmt ".utf8) + [UInt8](repeating: 0x47, count: 20)
        #expect(!ClipContainer.isClip(text), "a WAVE file")
        text = [0x47] + [UInt8](repeating: 0, count: 199)
        #expect(!ClipContainer.isClip(text), "one sync byte is not a transport stream")
        #expect(!ClipContainer.isClip([0, 0, 1, 0xB3] + [UInt8](repeating: 0, count: 60)), "an MPEG video elementary stream")
    }
}
