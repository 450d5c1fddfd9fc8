import CSDL2
import CarouselCore

extension VideoMatrix {
    var mode: SDL_YUV_CONVERSION_MODE {
        switch self {
        case .bt601: SDL_YUV_CONVERSION_BT601
        case .bt709: SDL_YUV_CONVERSION_BT709
        case .full601: SDL_YUV_CONVERSION_JPEG
        }
    }

    /// Makes this the conversion used from now on. SDL has one for all YUV textures (read
    /// as each is drawn or uploaded): set before a video frame goes up and is drawn.
    public func use() { SDL_SetYUVConversionMode(mode) }
}

extension SDLTexture {
    /// A streaming texture for video frames: 4:2:0 YUV in three planes (I420) or two
    /// (`nv12`), converted to colours where the renderer draws (on the GPU where there is one).
    public static func video(renderer: SDLRenderer, width: Int, height: Int, nv12: Bool) throws(SDLError) -> SDLTexture {
        let format = nv12 ? SDL_PIXELFORMAT_NV12 : SDL_PIXELFORMAT_IYUV
        guard let t = SDL_CreateTexture(renderer.handle, format.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(max(2, width)), Int32(max(2, height))) else {
            throw SDLError("SDL_CreateTexture (video)")
        }
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_NONE)
        return SDLTexture(adopting: t, renderer: renderer)
    }

    /// A streaming texture for an animated picture's frames: R, G, B, A bytes, blended
    /// where they are transparent.
    public static func animation(renderer: SDLRenderer, width: Int, height: Int) throws(SDLError) -> SDLTexture {
        guard let t = SDL_CreateTexture(renderer.handle, SDL_PIXELFORMAT_RGBA32.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(max(1, width)), Int32(max(1, height))) else {
            throw SDLError("SDL_CreateTexture (animation)")
        }
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
        return SDLTexture(adopting: t, renderer: renderer)
    }

    /// Uploads one frame's planes (Y, U, V; or Y and interleaved UV; or one of RGBA), each
    /// with its row pitch.
    public func updateVideo(planes: [UnsafeRawPointer], pitches: [Int]) throws(SDLError) {
        let rc: Int32
        if planes.count == 1, pitches.count == 1 {
            rc = SDL_UpdateTexture(handle, nil, planes[0], Int32(pitches[0]))
        } else if planes.count == 2, pitches.count == 2 {
            rc = SDL_UpdateNVTexture(handle, nil, planes[0].assumingMemoryBound(to: UInt8.self), Int32(pitches[0]),
                                     planes[1].assumingMemoryBound(to: UInt8.self), Int32(pitches[1]))
        } else if planes.count == 3, pitches.count == 3 {
            rc = SDL_UpdateYUVTexture(handle, nil, planes[0].assumingMemoryBound(to: UInt8.self), Int32(pitches[0]),
                                      planes[1].assumingMemoryBound(to: UInt8.self), Int32(pitches[1]),
                                      planes[2].assumingMemoryBound(to: UInt8.self), Int32(pitches[2]))
        } else {
            throw SDLError("a video frame of \(planes.count) planes")
        }
        if rc != 0 { throw SDLError("SDL_UpdateYUVTexture") }
    }
}

extension SDLRenderer {
    /// Draws `texture` (its `source` pixels) turned `quarterTurns` clockwise, filling
    /// `destination` (whose sides are the turned ones): a phone's portrait clip, stored on its side.
    public func draw(_ texture: SDLTexture, source: (width: Int, height: Int), turned quarterTurns: Int, in destination: Rect,
                     brightness: Double = 1) {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return draw(texture, source: source, in: destination, brightness: brightness) }
        // Drawn unturned into a rectangle of the same centre with the stored sides, then turned about it.
        let sides = turns % 2 == 1 ? Size(width: destination.size.height, height: destination.size.width) : destination.size
        var dst = SDL_FRect(x: Float(destination.midX - sides.width / 2), y: Float(destination.midY - sides.height / 2),
                            w: Float(sides.width), h: Float(sides.height))
        var src = SDL_Rect(x: 0, y: 0, w: Int32(source.width), h: Int32(source.height))
        let v = UInt8(min(max(brightness, 0), 1) * 255)
        SDL_SetTextureColorMod(texture.handle, v, v, v)
        SDL_RenderCopyExF(handle, texture.handle, &src, &dst, Double(90 * turns), nil, SDL_FLIP_NONE)
    }
}
