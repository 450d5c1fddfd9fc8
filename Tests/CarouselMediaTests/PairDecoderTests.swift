import CarouselCore
@testable import CarouselMedia
import Testing

/// A pair (`--pair-portraits`) decoded as one picture from its two, each through the
/// decoder below it, alone.
@Suite struct PairDecoderTests {
    /// Fills what it is asked for with the colour its file name says, fitted as a real
    /// decoder fits (a picture of `aspect`); "bad" fails. Records what it was asked.
    final class Solid: ImageDecoding, @unchecked Sendable {
        var asked: [(path: String, partners: Int, box: Size, part: Rect?)] = []
        /// A part comes back this much smaller than asked (a picture with fewer pixels).
        var partShrink = 1.0
        static let colours: [String: (UInt8, UInt8, UInt8)] = ["red": (255, 0, 0), "green": (0, 255, 0)]

        func decode(_ source: ImageSource, fittingIn box: Size) throws(ImageError) -> PixelImage {
            asked.append((source.path, source.partners.count, box, nil))
            return try paint(source, AspectFit.size(of: Size(width: 1, height: source.aspect ?? 1), in: box))
        }

        func decode(_ source: ImageSource, part: Rect, fittingIn box: Size) throws(ImageError) -> PixelImage {
            asked.append((source.path, source.partners.count, box, part))
            return try paint(source, Size(width: (box.width * partShrink).rounded(), height: (box.height * partShrink).rounded()))
        }

        private func paint(_ source: ImageSource, _ size: Size) throws(ImageError) -> PixelImage {
            guard let c = Self.colours[source.path] else { throw ImageError(path: source.path, reason: "is broken") }
            var image = PixelImage(width: Int(size.width), height: Int(size.height), fill: (c.0, c.1, c.2, 255))
            image.fullSize = Size(width: 3000, height: 3000 * (source.aspect ?? 1))
            return image
        }
    }

    static func pair(_ a: String, _ b: String) -> ImageSource {
        var first = ImageSource(path: a), second = ImageSource(path: b)
        first.aspect = 1.5
        second.aspect = 1.5
        first.partners = [second]
        return first
    }

    static func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[(y * image.width + x) * 4 ..< (y * image.width + x) * 4 + 4])
    }

    @Test func eachPictureIsDecodedAloneIntoItsHalfTransparentBetween() throws {
        let inner = Solid()
        let image = try PairDecoder(inner: inner).decode(Self.pair("red", "green"), fittingIn: Size(width: 1000, height: 600))
        // Two 2:3 halves of 400x600 with 12 px between.
        #expect(image.width == 812 && image.height == 600)
        #expect(Self.pixel(image, 10, 300) == [255, 0, 0, 255] && Self.pixel(image, 805, 300) == [0, 255, 0, 255])
        #expect(Self.pixel(image, 405, 300)[3] == 0, "the gap is transparent")
        #expect(inner.asked.map(\.path) == ["red", "green"] && inner.asked.allSatisfy { $0.partners == 0 }, "each alone")
        #expect(inner.asked.allSatisfy { $0.box == Size(width: 400, height: 600) })
        // Its full size: the halves' own pixels (3000 wide each, shown 400 wide).
        #expect(image.fullSize == Size(width: 812 * 7.5, height: 600 * 7.5))
        // Anything else goes straight through.
        #expect(try PairDecoder(inner: inner).decode(ImageSource(path: "red"), fittingIn: Size(width: 10, height: 10)).width == 10)
    }

    @Test func aPictureThatFailsLeavesThePlaceholderAndTheOtherShows() throws {
        let image = try PairDecoder(inner: Solid()).decode(Self.pair("bad", "green"), fittingIn: Size(width: 1000, height: 600))
        #expect(Self.pixel(image, 10, 300) == [0x4a, 0x30, 0x30, 255])
        #expect(Self.pixel(image, 805, 300) == [0, 255, 0, 255])
        #expect(image.note?.contains("bad: is broken") == true)
        #expect(throws: ImageError.self) { try PairDecoder(inner: Solid()).decode(Self.pair("bad", "bad"), fittingIn: Size(width: 100, height: 60)) }
        // Previews: a missing half is no failure to show, the pair waits for its decode.
        #expect(throws: ImageError.self) {
            try PairDecoder(inner: Solid(), failsWhole: true).decode(Self.pair("bad", "green"), fittingIn: Size(width: 100, height: 60))
        }
    }

    @Test func aZoomsPartIsMadeOfEachPicturesOwnPart() throws {
        let inner = Solid()
        // The middle of the pair at 812x600: the right quarter of red, the gap, the left of green.
        let part = Rect(x: 300.0 / 812, y: 0.25, width: 212.0 / 812, height: 0.5)
        let image = try PairDecoder(inner: inner).decode(Self.pair("red", "green"), part: part, fittingIn: Size(width: 424, height: 600))
        #expect(image.width == 424 && image.height == 600)
        #expect(Self.pixel(image, 10, 300) == [255, 0, 0, 255] && Self.pixel(image, 410, 300) == [0, 255, 0, 255])
        #expect(Self.pixel(image, 212, 300)[3] == 0)
        let asked = inner.asked.compactMap { a in a.part.map { (a.path, $0) } }
        #expect(asked.count == 2 && asked[0].0 == "red" && abs(asked[0].1.minX - 0.75) < 1e-9 && abs(asked[0].1.minY - 0.25) < 1e-9)
        #expect(asked[1].0 == "green" && abs(asked[1].1.minX) < 1e-9 && abs(asked[1].1.size.width - 100.0 / 400) < 1e-9)
        // Parts that come back at half the size asked (their pictures' own pixels): the whole
        // is made at half the size, the gap with them (it was twice as wide, found in a render).
        inner.partShrink = 0.5
        let small = try PairDecoder(inner: inner).decode(Self.pair("red", "green"), part: part, fittingIn: Size(width: 424, height: 600))
        #expect(small.width == 212 && small.height == 300)
        #expect(Self.pixel(small, 99, 150) == [255, 0, 0, 255] && Self.pixel(small, 113, 150) == [0, 255, 0, 255])
        #expect(Self.pixel(small, 106, 150)[3] == 0)
    }
}
