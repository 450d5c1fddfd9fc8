/// An iPhone's Live Photo, copied off the phone or exported, is two files side by side: the
/// still (`IMG_1234.HEIC`, or `.JPG` when exported as most compatible) and its motion
/// (`IMG_1234.MOV`; Google Takeout's export makes it `IMG_1234.MP4`). In a folder they are
/// one item: the still, with the clip as its motion. Paired by the name before the extension
/// (the same, letter for letter) and the extension (any case), unless both carry Apple's
/// content identifier and they differ (two phones' IMG_0001 in one folder:
/// `LivePhotoIdentity`). An `.MP4` is many phones' ordinary clip, so it pairs only where
/// `together` has seen that the still is an iPhone's Live Photo (it carries an identifier);
/// without that look (`together` not given) it never pairs. A clip with no still beside it
/// stays a clip of its own.
enum LivePhotoPairs {
    static let stillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
    static let motionExtensions: Set<String> = ["mov", "mp4"]

    /// `name`'s part before its last dot and its extension in lower case; nil without one (or
    /// for a hidden name of only an extension, `.MOV`).
    private static func split(_ name: String) -> (base: String, ext: String)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return (String(name[..<dot]), name[name.index(after: dot)...].lowercased())
    }

    /// Whether `name` is an MP4, which pairs only with a still shown to be a Live Photo's.
    static func isMP4(_ name: String) -> Bool { name.lowercased().hasSuffix(".mp4") }

    /// For the file names of one folder: the motion of each still that has one (still name
    /// → motion name). The motions named here are not items of their own.
    /// `together` is asked of each still and motion paired by name; a MOV and a still of one
    /// name are one unless it says no.
    static func pairs(_ names: [String], together: (_ still: String, _ motion: String) -> Bool = { _, motion in !isMP4(motion) }) -> [String: String] {
        var stills: [String: String] = [:], motions: [String: String] = [:]
        for name in names {
            guard let (base, ext) = split(name) else { continue }
            // Two stills or two motions of one name (IMG_1.JPG and IMG_1.HEIC): the first
            // in name order, so the choice does not depend on the folder's listing order.
            if stillExtensions.contains(ext) { stills[base] = min(stills[base] ?? name, name) }
            // A MOV before an MP4 of the same name (an export beside the original).
            if motionExtensions.contains(ext) {
                motions[base] = [motions[base] ?? name, name].min { (isMP4($0) ? 1 : 0, $0) < (isMP4($1) ? 1 : 0, $1) }!
            }
        }
        var found: [String: String] = [:]
        for (base, still) in stills { if let motion = motions[base], together(still, motion) { found[still] = motion } }
        return found
    }

    /// For the stills and motions of one folder that `pairs` left alone (a renamed export:
    /// `IMG_1234.HEIC` beside `IMG_1234 (1).MOV`, or `Live.MP4`): a motion whose content
    /// identifier (`motionID`) is the identifier of exactly one still (`stillID`), and no other
    /// motion's, is that still's (still name → motion name). The stills are looked into only
    /// where some motion carries an identifier: a folder of clips from other phones, which
    /// carry none, costs a look into each clip's `moov`, never into its pictures.
    static func byIdentifier(stills: [String], motions: [String], stillID: (String) -> String?,
                             motionID: (String) -> String?) -> [String: String] {
        var motionsByID: [String: [String]] = [:]
        for name in motions.sorted() {
            guard let ext = split(name)?.ext, motionExtensions.contains(ext), let id = motionID(name), !id.isEmpty else { continue }
            motionsByID[id, default: []].append(name)
        }
        guard !motionsByID.isEmpty else { return [:] }
        var stillsByID: [String: [String]] = [:]
        for name in stills.sorted() {
            guard let ext = split(name)?.ext, stillExtensions.contains(ext), let id = stillID(name), motionsByID[id] != nil else { continue }
            stillsByID[id, default: []].append(name)
        }
        var found: [String: String] = [:]
        for (id, stills) in stillsByID {
            guard stills.count == 1, let motions = motionsByID[id], motions.count == 1 else { continue }
            found[stills[0]] = motions[0]
        }
        return found
    }
}
