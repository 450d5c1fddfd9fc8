import CarouselMedia
import CarouselCore
import Foundation

/// `--pair-portraits` over a show: each picture's shape read from its header (by
/// `SizeReader`'s fuzzed parsers, the first bytes only, once per file version) and its date
/// (`PhotoDate`, likewise), then `PortraitPairs` decides; a pair becomes one source, its
/// first picture with the other as its partner. Clips, web pictures (not on disk before
/// they are shown) and pictures whose header cannot be read stay on their own. A pair
/// shows its two stills: a Live Photo's motion does not play in one.
public enum PortraitPairing {
    private static let known = StampedMemo<Double?>()

    /// The show of `sources` with its pairs made for `screen`.
    public static func pair(_ sources: [ImageSource], screen: PortraitPairs.Screen) -> [ImageSource] {
        let pictures = sources.map { source -> PortraitPairs.Picture in
            let aspect = source.aspect ?? aspect(of: source)
            let taken = aspect.map(screen.pairs) == true ? PhotoDate.of(source).map(\.wallSeconds) : nil
            return PortraitPairs.Picture(aspect: aspect, taken: taken)
        }
        return PortraitPairs.items(pictures, screen: screen).map { item in
            var first = sources[item[0]]
            guard item.count == 2 else { return first }
            var second = sources[item[1]]
            first.aspect = pictures[item[0]].aspect
            second.aspect = pictures[item[1]].aspect
            first.motion = nil
            second.motion = nil
            first.partners = [second.alone]
            return first
        }
    }

    /// A local picture's height / width, upright, read once per file version; nil for
    /// clips, web pictures and headers that cannot be read.
    static func aspect(of source: ImageSource) -> Double? {
        guard !source.isClip, !RemoteURL.isRemote(source.path) else { return nil }
        return known.value(for: source.path, stamp: source.stamp) { SizeReader.aspect(of: source.path) }
    }
}

extension PhotoDate {
    /// Seconds from 1970 of its wall-clock time, its offset left out: a day is the day
    /// where it was taken.
    public var wallSeconds: Double {
        PortraitPairs.Picture.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
