import CFontconfig

/// Which installed font draws a character the caption font lacks: fontconfig's best sans-serif
/// face whose character set holds it (Noto Sans CJK for 東京, Noto Sans Thai, Noto Color Emoji
/// for 🎉, from Debian's fonts-noto-cjk, fonts-noto-core and fonts-noto-color-emoji), asked
/// once per character and remembered. fontconfig's own configuration of this machine is
/// loaded the first time a caption needs it, not before. Main thread (the text's).
final class FontFallback {
    /// A face in a font file (a collection, `.ttc`, holds several).
    struct Face: Hashable {
        var file: String
        var index: Int
    }

    private var config: OpaquePointer?
    private var loaded = false
    private var known: [UInt32: Face?] = [:]
    /// Characters remembered at most (a caption's are few; a hostile title's could be many).
    static let rememberedMost = 4096

    deinit { if let config { FcConfigDestroy(config) } }

    /// The face fontconfig chooses for `scalar` (`emoji`: drawn as a colour emoji, from the
    /// emoji family when one has it), or nil when no installed font has it.
    func face(for scalar: Unicode.Scalar, emoji: Bool = false) -> Face? {
        let key = scalar.value | (emoji ? 0x8000_0000 : 0)
        if let face = known[key] { return face }
        if !loaded {
            loaded = true
            config = FcInitLoadConfigAndFonts()
        }
        guard let config else { return nil }
        let found = (emoji ? Self.match(scalar, family: "emoji", in: config) : nil) ?? Self.match(scalar, family: "sans-serif", in: config)
        if known.count >= Self.rememberedMost { known.removeAll() }
        known[key] = found
        return found
    }

    private static func match(_ scalar: Unicode.Scalar, family: String, in config: OpaquePointer) -> Face? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let wanted = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(wanted) }
        _ = FcCharSetAddChar(wanted, scalar.value)
        _ = kc_fc_add_charset(pattern, wanted)
        _ = kc_fc_add_family(pattern, family)
        _ = FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        // The best match may still lack it (nothing installed has it).
        var has: OpaquePointer?
        guard kc_fc_charset(match, &has) == FcResultMatch, let has, FcCharSetHasChar(has, scalar.value) != 0 else { return nil }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard kc_fc_file(match, &file) == FcResultMatch, let file else { return nil }
        _ = kc_fc_index(match, &index)
        return Face(file: String(cString: file), index: Int(index))
    }
}
