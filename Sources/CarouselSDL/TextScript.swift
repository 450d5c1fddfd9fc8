/// The writing system of a caption's character, as HarfBuzz shapes it (ISO 15924 codes):
/// the scripts whose shaping or direction differs from Latin's, told by their Unicode
/// blocks; `common` for spaces, digits and punctuation, which belong to the run around them.
enum TextScript: String, Equatable {
    case latin = "Latn", arabic = "Arab", hebrew = "Hebr", syriac = "Syrc", thaana = "Thaa", thai = "Thai", lao = "Laoo"
    case devanagari = "Deva", bengali = "Beng", gurmukhi = "Guru", gujarati = "Gujr", tamil = "Taml", telugu = "Telu"
    case kannada = "Knda", malayalam = "Mlym", sinhala = "Sinh", khmer = "Khmr", myanmar = "Mymr", tibetan = "Tibt"
    case han = "Hani", hiragana = "Hira", katakana = "Kana", hangul = "Hang", common = "Zyyy"

    var isRightToLeft: Bool { self == .arabic || self == .hebrew || self == .syriac || self == .thaana }

    /// The script of `character`'s first scalar; nil for one that takes its neighbours'.
    static func of(_ character: Character) -> TextScript? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        let v = scalar.value
        if scalar.properties.isWhitespace || scalar.properties.generalCategory.isNeutral { return nil }
        switch v {
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return .hebrew
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
        case 0x0700...0x074F: return .syriac
        case 0x0780...0x07BF: return .thaana
        case 0x0900...0x097F, 0xA8E0...0xA8FF: return .devanagari
        case 0x0980...0x09FF: return .bengali
        case 0x0A00...0x0A7F: return .gurmukhi
        case 0x0A80...0x0AFF: return .gujarati
        case 0x0B80...0x0BFF: return .tamil
        case 0x0C00...0x0C7F: return .telugu
        case 0x0C80...0x0CFF: return .kannada
        case 0x0D00...0x0D7F: return .malayalam
        case 0x0D80...0x0DFF: return .sinhala
        case 0x0E00...0x0E7F: return .thai
        case 0x0E80...0x0EFF: return .lao
        case 0x0F00...0x0FFF: return .tibetan
        case 0x1000...0x109F: return .myanmar
        case 0x1780...0x17FF: return .khmer
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
        case 0x3040...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF: return .katakana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return .han
        default: return .latin
        }
    }
}

private extension Unicode.GeneralCategory {
    /// Digits, punctuation and symbols: they go with the run they stand in.
    var isNeutral: Bool {
        switch self {
        case .decimalNumber, .otherNumber, .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .spaceSeparator, .control, .format:
            return true
        default:
            return false
        }
    }
}
