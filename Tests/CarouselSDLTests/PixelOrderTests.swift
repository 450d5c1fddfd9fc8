import CarouselSDL
import Testing

@Suite struct PixelOrderTests {
    @Test func rgbaBytesBecomeARGBWords() {
        // R, G, B, A bytes of two pixels: 0xAARRGGBB words, whatever the machine's byte order.
        #expect(PixelOrder.argb(fromRGBA: [0x11, 0x22, 0x33, 0x44, 0xFF, 0x00, 0x80, 0x01]) == [0x4411_2233, 0x01FF_0080])
        #expect(PixelOrder.argb(fromRGBA: []) == [])
    }
}
