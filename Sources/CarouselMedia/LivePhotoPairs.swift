/// An iPhone's Live Photo, copied off the phone or exported, is two files side by side: the
/// still (`IMG_1234.HEIC`, or `.JPG` when exported as most compatible) and its motion
/// (`IMG_1234.MOV`). In a folder they are one item: the still, with the clip as its motion.
/// Paired by the name before the extension (the same, letter for letter) and the extension
/// (any case), unless both carry Apple's content identifier and they differ (two phones'
/// IMG_0001 in one folder: `LivePhotoIdentity`); a MOV with no still beside it stays a clip
/// of its own.
enum LivePhotoPairs {
    static let stillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
    static let motionExtensions: Set<String> = ["mov"]

    /// For the file names of one folder: the motion of each still that has one (still name
    /// → motion name). The motions named here are not items of their own.
    /// `together` is asked of each still and motion paired by name.
    static func pairs(_ names: [String], together: (_ still: String, _ motion: String) -> Bool = { _, _ in true }) -> [String: String] {
        var stills: [String: String] = [:], motions: [String: String] = [:]
        for name in names {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { continue }
            let base = String(name[..<dot]), ext = name[name.index(after: dot)...].lowercased()
            // Two stills or two motions of one name (IMG_1.JPG and IMG_1.HEIC): the first
            // in name order, so the choice does not depend on the folder's listing order.
            if stillExtensions.contains(ext) { stills[base] = min(stills[base] ?? name, name) }
            if motionExtensions.contains(ext) { motions[base] = min(motions[base] ?? name, name) }
        }
        var found: [String: String] = [:]
        for (base, still) in stills { if let motion = motions[base], together(still, motion) { found[still] = motion } }
        return found
    }
}
