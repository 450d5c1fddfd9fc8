import CarouselCore
import CarouselMedia
import CarouselPainting
import CarouselSDL
import Glibc
import CarouselClock
import CarouselSources

/// The clip playing in a view: the centred item of a carousel at rest, when it is a clip,
/// plays in a video helper of its own (`ClipPlayer`) from its start each time it arrives,
/// its frames paced on the loop's clock (`FramePacing`) and uploaded as they fall due into
/// one YUV texture, drawn where its poster is. It stops, and its helper goes, as soon as
/// the item is no longer the one at rest. A picture with a clip of its own (a Motion Photo)
/// plays it on arrival as `--motion` says, drawn over the still, and never holds the show:
/// once it ends its helper goes and the still shows again. An animated picture (GIF, WebP)
/// plays its frames the same way, instead of its still, as often as it says, and stays on its
/// last frame if it ends. A clip (not a picture's motion) can be sought: it goes on from the
/// new place, or, paused, shows the frame there. With `--audio` a clip's sound plays through
/// the sound output, open while it plays, and its frames keep to what is heard instead of
/// the loop's clock. Under autoplay the clip the show goes to next is made ready while the
/// one playing ends (`prepare`, `ClipPreparation`), so it shows at once on arrival. Logs
/// `video_started` {index, decoder, ahead (1: made ready ahead), ready (1: its first frame
/// was there as the strip rested), wait_ms (from the strip's rest to its first frame)}, `video_seek` {index,
/// position_ms}, `video_ended` {index}, in a group `clip_frame` {index, frame_ms, wall_ms}
/// once a second, and `frames_dropped` {index, shown, dropped, late,
/// and with sound drift_ms (the farthest a frame showed from the sound) and drifted (how
/// many more than 40 ms)}. Main thread.
final class ClipStage {
    private let playing: ClipPlaying
    private let renderer: SDLRenderer
    private let record: (String, Double, KeyValuePairs<String, EventLog.Value>) -> Void
    private let warn: (String) -> Void
    /// `carousel render`: the frame due at the script's time is waited for.
    private let waits: Bool
    private var player: ClipPlayer?
    private(set) var item: Int?
    /// The file (path and version) playing.
    private var file: FileIdentity?
    private var started = 0.0
    private var pacing = FramePacing()
    private var queue: [ClipPlayer.Waiting] = []
    private var texture: SDLTexture?
    private var said = false
    private var over = false
    /// Under autoplay the clip holds the show until it ends (or plays `maxSeconds`).
    private(set) var holdsShow = false
    /// When the frame on screen has shown for its duration (the clip's end, after its last).
    private var shownUntil: Double?
    /// Since when the clip is paused (the frame on screen stays; decoding waits a ring ahead).
    private var pausedSince: Double?
    /// The clip is a picture's own (a Motion Photo's): at its end the still shows again.
    private var isMotion = false
    /// The picture's own frames (an animation): at its end its last frame stays.
    private var isAnimation = false
    /// What plays, to start it again after its end for a seek back into it.
    private var playingPath: String?
    /// The side of the square its frames come scaled into (the scene's box for a picture);
    /// nil: as decoded.
    private var maxSide: Int?
    /// The clip's length as its poster said it (`show`).
    private var posterLength: Double?
    /// The helper was last told a frame came late (`tellLateness`).
    private var saidLate = false
    private var loops = false
    /// Seeks the player has landed that this stage has followed.
    private var seeksFollowed = 0
    /// Where the frame on screen lies in the clip.
    private var position = 0.0
    /// Paused and sought: the frame at the new place is to show, once it comes.
    private var stillWanted = false
    /// When the seek not landed yet was asked for.
    private var soughtAt: Double?
    /// When the clip playing showed its first frame.
    private var firstFrameAt: Double?
    /// The clip playing was made ready ahead (`prepare`): its first frame waited for it.
    private var adopted = false
    /// The clip made ready had its first frame as the strip rested on it.
    private var adoptedReady = false
    /// The sound output, with `--audio` (live only: `carousel render` is silent).
    private let sound: SDLSound?
    /// The clip playing plays its sound.
    private var withSound = false
    /// That the sound output cannot be opened was said (once).
    private var soundRefusalSaid = false
    /// The clips (each file's version) that failed on their own account: not tried again,
    /// and not said again, until the file changes, as broken pictures are (a damaged clip
    /// held autoplay's show for seconds on every pass).
    private var failedFiles: Set<FileIdentity> = []
    /// The clip autoplay goes to next, started ahead (`prepare`): its helper decodes its first
    /// frames into its ring and waits there until the strip rests on it, or is stopped.
    private var upcoming: Upcoming?

    private struct Upcoming {
        var item: Int
        var file: FileIdentity
        var path: String
        var player: ClipPlayer
        var maxSide: Int?
        var since: Double
    }

    /// In a group, the longest a clip's clock goes back to the strip's rest (a clip started
    /// long after, the screen lit again, starts from its own start).
    static let restKept = 5.0

    /// In a group, how far into a clip the group may be before a screen joining opens it
    /// there rather than from its start (its frames up to the group's then passed over).
    static let joinSeek = 1.0

    /// Seconds an upcoming clip waits for the strip to rest on it before its helper goes
    /// (the show went elsewhere, a finger holds the strip).
    static let upcomingKept = ClipPreparation.lead + 8

    /// Pauses the clip at `time`, or lets it go on from the frame it showed.
    func setPaused(_ paused: Bool, at time: Double) {
        if paused, pausedSince == nil { pausedSince = time }
        if withSound, paused != (pausedSince != nil) { sound?.pause(paused) }
        if !paused, let since = pausedSince {
            pausedSince = nil
            pacing.delay(by: time - since)
            shownUntil = shownUntil.map { $0 + time - since }
            started += time - since  // --video-max counts the time it played
        }
    }

    init(playing: ClipPlaying, renderer: SDLRenderer, waits: Bool,
         record: @escaping (String, Double, KeyValuePairs<String, EventLog.Value>) -> Void, warn: @escaping (String) -> Void) {
        self.playing = playing
        self.renderer = renderer
        self.waits = waits
        self.record = record
        self.warn = warn
        sound = playing.sound && !waits ? SDLSound() : nil
    }

    deinit { player?.stop() }

    /// Opens the sound output for a clip; whether it plays its sound.
    private func openSound() -> Bool {
        guard let sound else { return false }
        guard let refusal = sound.open() else { return true }
        if !soundRefusalSaid {
            soundRefusalSaid = true
            warn("--audio: \(refusal); clips play without sound")
        }
        return false
    }

    /// Plays `source` as item `item` from `time` (nil: nothing plays). `loop`: again at its end.
    /// A picture's own clip plays as its motion: a Live Photo's file beside it
    /// (`source.motion`), or what its decode found (`motion`: a Motion Photo's bytes, or an
    /// animation's frames, which loop as the file says). The same item showing the same file
    /// goes on; another file there (a reload) starts anew. `box`: the most the clip is shown
    /// at, in pixels (a picture's box in the scene): its frames come no larger than its
    /// longer side either way, whichever way the clip is turned.
    /// `length`: the clip's length as its poster said it (`PixelImage.clipLength`), which
    /// holds the show before the player has opened the clip.
    /// `behindGroup`: in a group, how long before `restedAt` the group's strips rested there
    /// (this screen joined, or woke, during the clip): it plays from the group's place in it.
    func show(_ source: ImageSource?, motion: PictureMotion? = nil, item: Int?, loop: Bool, box: Size? = nil,
              restedAt: Double? = nil, behindGroup: Double = 0, length: Double? = nil, at time: Double) {
        guard item != self.item || source?.file != file || (item != nil && player == nil && !over) else { return }
        end(at: time)
        posterLength = length
        // The clip made ready for this item plays now (it stays ready while the strip moves
        // to it); one made for another item, or not taken below, goes.
        let ready = item == nil ? nil : upcoming
        if item != nil { upcoming = nil }
        // A picture with nothing to play keeps it: the show goes from it to the clip made
        // ready (taken away at each pass, a picture's last seconds started a helper a pass).
        var keep = false
        defer { if let ready, ready.player !== player, !keep { ready.player.stop() } }
        func keepReady() { keep = true; upcoming = ready }
        // A web clip plays from its cached copy, once its poster's decode has fetched it
        // whole: until then nothing plays, and the next pass asks again.
        guard let item, let source, let local = playing.localFile(source.path) else { return }
        if failedFiles.contains(source.file) {
            self.item = item
            file = source.file
            over = true
            return
        }
        let play: (path: String, range: ByteRange?)
        if source.isClip {
            play = (local, nil)
        } else if playing.motion == .off {
            return keepReady()
        } else if let live = source.motion {
            // A web picture's motion plays once downloaded too; until then nothing plays.
            guard let file = playing.localFile(live) else { return }
            // Paired by name on a server (WebDAV), as a folder's are, and checked as a
            // folder's are once both are here: two phones' IMG_0001 are two pictures.
            if RemoteURL.isRemote(source.path), !LivePhotoIdentity.belongTogether(still: local, motion: file) {
                warn("\(source.path): \(live) is another Live Photo's motion (their content identifiers differ); shown as a still")
                if failedFiles.count >= 10_000 { failedFiles.removeAll() }
                failedFiles.insert(source.file)
                self.item = item
                self.file = source.file
                over = true
                return
            }
            play = (file, nil)
        } else if case .clip(let range)? = motion {
            play = (local, range)
        } else if case .frames? = motion {
            play = (local, nil)
            isAnimation = true
        } else {
            return keepReady()
        }
        self.item = item
        file = source.file
        isMotion = !source.isClip
        // An animation plays as often as its file says, whatever is asked here.
        loops = isAnimation ? false : isMotion ? playing.motion == .loop : loop && !playing.holdsGroup
        playingPath = play.path
        maxSide = box.map { Int(max($0.width, $0.height).rounded(.up)) }
        withSound = source.isClip && openSound()
        // Live, the clock starts with the first frame (it shows at once); rendered, at the
        // time it arrived, so a frame's place in the script never depends on the decoder's
        // speed; in a group, at the instant the strip came to rest (`restedAt`, the same on
        // every screen), the frames before a late first one passed over, so that each screen
        // shows the same frame at each refresh. A screen that joined the group during the
        // clip (its step came `behindGroup` late) opens it where the group is, more than
        // `joinSeek` in: it neither starts it again nor decodes its way there.
        let grouped = playing.holdsGroup && !isMotion
        let rest = restedAt.flatMap { time - $0 < Self.restKept ? $0 : nil } ?? time
        var origin = grouped ? rest - max(0, behindGroup) : rest
        if let length = length ?? posterLength, time - origin >= length {
            // The group played it through before this screen came to it (a screen that
            // started slowly, on a busy board): played from its start it would run out of
            // step until the group moves on; its poster shows until the group's next step.
            if grouped {
                self.item = item
                file = source.file
                over = true
                closeSound()
                record("video_skipped", time, ["index": .int(item), "reason": .string("the group played it through before this screen came")])
                return
            }
            origin = rest
        }
        let into = grouped && time - origin > Self.joinSeek ? time - origin : 0
        do throws(ImageError) {
            if let ready, ready.item == item, ready.file == source.file, source.isClip, !loops, ready.path == play.path,
               ready.maxSide == maxSide, ready.player.state != .ended, into == 0 {
                player = ready.player
                adopted = true
                adoptedReady = ready.player.state == .playing
            } else {
                player = try ClipPlayer(path: play.path, name: source.path, range: play.range, settings: playing.settings, loop: loops,
                                        from: into, sound: withSound, maxSide: maxSide, wake: playing.wake)
                if into > 0 { record("video_seek", time, ["index": .int(item), "position_ms": .int(Int((into * 1000).rounded())), "reason": .string("joined the group during it")]) }
            }
        } catch {
            warn(error.description)
            over = true
            closeSound()
            return
        }
        started = time
        holdsShow = !loops && !isMotion
        position = into
        pacing = FramePacing(start: waits ? time : grouped ? origin : nil)
    }

    /// Stops the clip and the one made ready (the screen went dark, the view changed): their
    /// helpers go now.
    func stop(at time: Double) {
        end(at: time)
        upcoming?.player.stop()
        upcoming = nil
    }

    /// Ends the clip playing (it moved away): its helper goes now.
    private func end(at time: Double) {
        if let player, let item {
            if pacing.shown > 0 { recordFrames(item: item, at: time) }
            player.stop()
        }
        closeSound()
        player = nil
        item = nil
        file = nil
        queue.removeAll()
        texture = nil
        said = false
        over = false
        holdsShow = false
        shownUntil = nil
        pausedSince = nil
        isMotion = false
        isAnimation = false
        playingPath = nil
        maxSide = nil
        saidLate = false
        seeksFollowed = 0
        position = 0
        stillWanted = false
        soughtAt = nil
        firstFrameAt = nil
        adopted = false
        adoptedReady = false
    }

    /// Starts `source`, autoplay's next item `item`, ahead in a helper of its own: its first
    /// frames wait in its ring until `show` plays it there (the strip came to rest on it),
    /// so it shows at once. Only a clip's own file, one that has not failed, whose file is
    /// here; one made ready for another item goes.
    func prepare(_ source: ImageSource, item: Int, box: Size?, at time: Double) {
        guard source.isClip, item != self.item, !failedFiles.contains(source.file) else { return }
        if let u = upcoming, u.item == item, u.file == source.file { return }
        upcoming?.player.stop()
        upcoming = nil
        guard let local = playing.localFile(source.path) else { return }
        let side = box.map { Int(max($0.width, $0.height).rounded(.up)) }
        // Its sound is decoded with it when clips play theirs (the output opens on arrival).
        guard let player = try? ClipPlayer(path: local, name: source.path, settings: playing.settings, loop: false,
                                           sound: playing.sound && sound != nil, maxSide: side, wake: playing.wake) else { return }
        upcoming = Upcoming(item: item, file: source.file, path: local, player: player, maxSide: side, since: time)
    }

    /// The item whose clip is made ready; nil when none is.
    var preparedItem: Int? { upcoming?.item }

    /// The resident memory of the helper playing, bytes; nil when none plays.
    var helperResident: Int? { player?.helperProcess.flatMap(SystemMemory.resident(of:)) }

    /// Lets go of a clip made ready that waited too long for the strip (its helper holds a
    /// decoder and a ring of frames).
    private func dropStaleUpcoming(at now: Double) {
        guard let u = upcoming, now - u.since > Self.upcomingKept else { return }
        u.player.stop()
        upcoming = nil
    }

    /// Seconds until the clip playing lets the show go (its end, or `--video-max`); nil when
    /// it does not hold the show or its length is not known.
    func remaining(at now: Double) -> Double? {
        guard holdsShow, let player, pausedSince == nil else { return nil }
        // Its clock's start, once set (at the first frame, or in a group at the strip's rest,
        // before any frame came), plus its length; until then from now.
        // Before the player has opened the clip, its poster's word for its length: a helper
        // slow to start (a Pi's first, an emulated machine's) still holds a group at once.
        let end = (player.shape?.duration ?? (player.shape == nil ? posterLength : nil)).map { length in
            pacing.start.map { $0 + length } ?? now + max(0, length - position)
        }
        let limit = playing.maxSeconds.map { started + $0 }
        guard let until = [end, limit].compactMap({ $0 }).min() else { return nil }
        return max(0, until - now)
    }

    private func recordFrames(item: Int, at time: Double) {
        if pacing.shownWithSound > 0 {
            record("frames_dropped", time, ["index": .int(item), "shown": .int(pacing.shown), "dropped": .int(pacing.dropped),
                                            "skipped": .int(pacing.skipped), "late": .int(pacing.late),
                                            "drift_ms": .int(Int((pacing.worstDrift * 1000).rounded())), "drifted": .int(pacing.drifted)])
        } else {
            record("frames_dropped", time, ["index": .int(item), "shown": .int(pacing.shown), "dropped": .int(pacing.dropped),
                                            "skipped": .int(pacing.skipped), "late": .int(pacing.late)])
        }
    }

    private func closeSound() {
        if withSound { sound?.close() }
        withSound = false
    }

    /// A helper decodes for this stage now (not stopped, ended or failed).
    var isDecoding: Bool { player != nil && item != nil && !over }

    /// The clip playing as `carousel bench` measures it; nil when none plays.
    var figures: ClipFigures? {
        guard let player, let item, let helper = player.helperProcess else { return nil }
        return ClipFigures(item: item, helper: helper, arrived: started, firstFrame: firstFrameAt,
                           shown: pacing.shown, dropped: pacing.dropped, skipped: pacing.skipped, late: pacing.late, width: player.shape?.width,
                           height: player.shape?.height, decoder: player.shape?.decoder,
                           drift: pacing.shownWithSound > 0 ? pacing.worstDrift : nil, drifted: pacing.drifted, readyAhead: adopted)
    }

    /// Moves the clip playing (a clip's own, not a picture's motion) as `seek` says; false
    /// when there is none to move. After its end it starts again from there.
    @discardableResult
    func seek(_ seek: ClipSeek, at time: Double) -> Bool {
        guard let player, let item, let path = playingPath, !isMotion else { return false }
        if case .failed = player.state { return false }
        let target = seek.target(from: position, duration: player.shape?.duration)
        record("video_seek", time, ["index": .int(item), "position_ms": .int(Int((target * 1000).rounded()))])
        // The old place's sound stops now; the new place's comes once the seek lands.
        if withSound { sound?.clear() }
        if player.state == .ended {
            // Its helper has let the clip go: a new one plays it from there.
            player.stop()
            let paused = pausedSince
            if !withSound { withSound = openSound() }
            do throws(ImageError) {
                self.player = try ClipPlayer(path: path, name: player.name, settings: playing.settings, loop: loops, from: target,
                                             sound: withSound, maxSide: maxSide, wake: playing.wake)
            } catch {
                warn(error.description)
                return true
            }
            queue.removeAll()
            over = false
            shownUntil = nil
            seeksFollowed = 0
            holdsShow = !loops && (playing.maxSeconds.map { time < started + $0 } ?? true)
            pacing.restart(showing: waits ? target : nil, at: time)
            stillWanted = paused != nil
            position = target
            return true
        }
        player.seek(to: target)
        position = target
        soughtAt = time
        stillWanted = pausedSince != nil
        return true
    }

    /// Takes the frames that came, following a seek that landed since: the frames from
    /// before it go back unseen, and the clock starts again with the first after it (at
    /// once; in `render`, the frame sought shows at the time it was asked for).
    private func takeFrames(from player: ClipPlayer, at now: Double) {
        let came = player.take()
        queue += came
        let seeked = player.seeked
        // Frames the decoder skipped (behind, told by QoS) show as gaps between those that came.
        if seeked.count != seeksFollowed { pacing.forgetReceived() }
        for f in came where f.seek == seeked.count { pacing.received(time: f.time, duration: f.duration) }
        guard seeked.count != seeksFollowed else { return }
        seeksFollowed = seeked.count
        for f in queue where f.seek < seeked.count { player.release(f.index) }
        queue.removeAll { $0.seek < seeked.count }
        if withSound { sound?.clear() }
        shownUntil = nil
        pacing.restart(showing: waits ? seeked.time : nil, at: soughtAt ?? now)
        soughtAt = nil
    }

    /// Puts the frame in ring buffer `frame` into the texture and gives the buffer back;
    /// whether the picture changed.
    private func upload(_ frame: ClipPlayer.Waiting, from player: ClipPlayer, item: Int, at now: Double) throws(SDLError) -> Bool {
        defer { player.release(frame.index) }
        // A frame from before a seek not landed yet does not move back where the next goes.
        if soughtAt == nil { position = frame.position }
        guard let shape = player.shape, let planes = player.planes(of: frame.index) else { return false }
        if shape.layout == .rgba {
            if texture == nil || texture?.width != shape.width || texture?.height != shape.height {
                texture = try SDLTexture.animation(renderer: renderer, width: shape.width, height: shape.height)
            }
        } else if texture == nil || texture?.width != max(2, shape.width) || texture?.height != max(2, shape.height) {
            // OpenGL's renderer takes SDL's conversion mode when a YUV texture is made: this
            // clip's, not the one the clip before left set.
            shape.matrix.use()
            texture = try SDLTexture.video(renderer: renderer, width: shape.width, height: shape.height, nv12: shape.layout == .nv12)
        }
        try texture?.updateVideo(planes: planes, pitches: shape.pitches)
        if !said {
            said = true
            firstFrameAt = now
            record("video_started", now, ["index": .int(item), "decoder": .string(shape.decoder), "ahead": .int(adopted ? 1 : 0),
                                            "ready": .int(adoptedReady ? 1 : 0), "wait_ms": .int(Int(((now - started) * 1000).rounded()))])
            Log.info("\(player.name): playing with \(shape.decoder.isEmpty ? "an unnamed decoder" : shape.decoder)")
        }
        return true
    }

    /// Paused and sought: the first frame from the new place shows, and stays; playing on,
    /// the clip goes on from it.
    private func showStill(from player: ClipPlayer, item: Int, pausedSince since: Double) throws(SDLError) -> Bool {
        guard stillWanted else { return false }
        if waits, soughtAt != nil { player.waitForSeek(after: seeksFollowed, timeout: 10) }
        takeFrames(from: player, at: since)
        if waits, queue.isEmpty { player.waitForNews(timeout: 10); takeFrames(from: player, at: since) }
        guard !queue.isEmpty else { return false }
        let frame = queue.removeFirst()
        stillWanted = false
        pacing.restart(showing: frame.time, at: since)
        shownUntil = pacing.due([frame.time + frame.duration])
        return try upload(frame, from: player, item: item, at: since)
    }

    /// Takes the frames that came and uploads the one due at `now`; whether the picture changed.
    func pump(at now: Double) throws(SDLError) -> Bool {
        dropStaleUpcoming(at: now)
        guard let player, let item else { return false }
        if let since = pausedSince { return try showStill(from: player, item: item, pausedSince: since) }
        if waits { waitForFrame(due: now, from: player) }
        takeFrames(from: player, at: now)
        if withSound, let sound {
            for piece in player.takeSound() { sound.queue(piece.samples, at: piece.time) }
            pacing.follow(heard: sound.heard, at: now)
        }
        var changed = false
        let choice = pacing.choose(queue.map(\.time), at: now)
        if let show = choice.show {
            for passed in queue[0..<show] { player.release(passed.index) }
            let frame = queue[show]
            queue.removeFirst(show + 1)
            shownUntil = pacing.due([frame.time + frame.duration])
            tellLateness(of: frame, to: player, at: now)
            changed = try upload(frame, from: player, item: item, at: now)
            sayPosition(of: frame, item: item, at: now)
        }
        switch player.state {
        case .ended where queue.isEmpty && !over && now >= (shownUntil ?? now):
            over = true
            holdsShow = false
            closeSound()
            record("video_ended", now, ["index": .int(item)])
            if isAnimation {
                // Its last frame stays; the helper goes.
                player.stop()
            } else if isMotion {
                // The still shows again, and the helper goes.
                player.stop()
                texture = nil
                changed = true
            }
        case .failed(let reason) where !over:
            over = true
            holdsShow = false
            closeSound()
            warn("\(player.name): \(reason)")
            record("video_failed", now, ["index": .int(item), "reason": .string(reason)])
            if player.failedOnTheFile, let file {
                if failedFiles.count >= 10_000 { failedFiles.removeAll() }
                failedFiles.insert(file)
            }
        default: break
        }
        // Played its longest: the show moves on (the clip plays until the strip leaves it).
        if holdsShow, let limit = playing.maxSeconds, now >= started + limit { holdsShow = false }
        return changed
    }

    /// Live, a frame shown more than a refresh after it was due is said to the helper, which
    /// then leaves out what will be later still and has its decoder skip ahead (a 4K clip on
    /// one core plays at a lower frame rate in its time, not ever further behind); the next
    /// frame shown is said too, so that a helper told of lateness always knows the clock as it
    /// stands (after a pause). Rendered, every frame waits to be shown: nothing is said.
    /// In a group, once a second: the frame going on screen and the wall clock's time now
    /// (`clip_frame` {index, frame_ms, wall_ms}), so that screens' positions in one clip can
    /// be compared (wall_ms − frame_ms is where the clip's start lies on the shared clock).
    private func sayPosition(of frame: ClipPlayer.Waiting, item: Int, at now: Double) {
        guard playing.holdsGroup, !isMotion, !waits, now - positionSaid >= 1 else { return }
        positionSaid = now
        let wall = Int((SystemClock.wall * 1000).rounded(.down))
        record("clip_frame", now, ["index": .int(item), "frame_ms": .int(Int((frame.time * 1000).rounded())),
                                   "wall_ms": .int(wall)])
    }
    private var positionSaid = -Double.infinity

    private func tellLateness(of frame: ClipPlayer.Waiting, to player: ClipPlayer, at now: Double) {
        guard !waits, let due = pacing.due([frame.time]) else { return }
        let late = now - due
        guard late > pacing.refresh || saidLate else { return }
        saidLate = late > pacing.refresh
        player.late(frame.time, by: max(late, 1e-6))
    }

    /// Render only: blocks until the frame due at `now` is known (a later one has come, or the
    /// clip is over); after a seek, once it has landed.
    private func waitForFrame(due now: Double, from player: ClipPlayer) {
        if soughtAt != nil { player.waitForSeek(after: seeksFollowed, timeout: 10) }
        for _ in 0..<100 {
            takeFrames(from: player, at: now)
            if let last = queue.last, pacing.due([last.time]).map({ $0 > now }) == true { return }
            switch player.state {
            case .ended, .failed: return
            default: break
            }
            // A ring's worth waits here unreleased: the frames before the one due go back.
            if let start = pacing.start, queue.count >= 2, start + queue[1].time <= now {
                player.release(queue.removeFirst().index)
                continue
            }
            player.waitForNews(timeout: 10)
        }
    }

    /// When the next frame falls due, or the clip has held the show its longest (the loop
    /// sleeps until then).
    var nextDue: Double? {
        guard pausedSince == nil else { return nil }
        let limit = holdsShow ? playing.maxSeconds.map { started + $0 } : nil
        // At the end, the last frame's duration: then the clip has ended.
        let end = player?.state == .ended && queue.isEmpty && !over ? shownUntil : nil
        return [pacing.due(queue.map(\.time)), limit, end].compactMap { $0 }.min()
    }

    /// What the painter draws in the clip's place: nil until its first frame is up.
    var drawing: VideoDrawing? {
        guard let item, let texture, let shape = player?.shape else { return nil }
        return VideoDrawing(item: item, texture: texture, width: shape.width, height: shape.height,
                            quarterTurns: shape.quarterTurns, matrix: shape.matrix, replacesPicture: shape.layout == .rgba)
    }
}
