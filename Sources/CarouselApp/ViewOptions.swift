import ArgumentParser
import Foundation
import CarouselCore
import CarouselSDL
import CarouselPainting
import CarouselClock

extension Length: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension Color: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
    public var defaultValueDescription: String { hex }
}

extension RendererKind: ExpressibleByArgument {}
extension CaptionMode: ExpressibleByArgument {}
extension ClockFace.Corner: ExpressibleByArgument {}

extension ScreenRotation: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: Int(argument) ?? -1) }
    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
    public var defaultValueDescription: String { String(rawValue) }
}

/// A layout preset's name on the command line.
public enum LayoutName: String, CaseIterable, ExpressibleByArgument, Sendable {
    case centered, paged, preview
}

/// A viewport or window size written `WxH`.
public struct PixelSize: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
    public var size: Size { Size(width: Double(width), height: Double(height)) }
}

/// `--view`: the view shown at start.
extension ViewKind: ExpressibleByArgument {}

/// `--columns P,L`: the mosaic's columns in a portrait and in a landscape viewport.
public struct ColumnCounts: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    public var portrait: Int
    public var landscape: Int

    public init(portrait: Int, landscape: Int) {
        self.portrait = portrait
        self.landscape = landscape
    }

    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let p = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let l = Int(parts[1].trimmingCharacters(in: .whitespaces)), (1...20).contains(p), (1...20).contains(l) else { return nil }
        self.init(portrait: p, landscape: l)
    }

    public var description: String { "\(portrait),\(landscape)" }
    public var defaultValueDescription: String { description }
}

/// Layout and look options shared by `carousel render` and the interactive `carousel`.
public struct ViewOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("view"), help: "The view at start: carousel (one picture in the centre), mosaic (a wall of tiles as tall as their pictures) or grid (square tiles); both walls scroll vertically and open the carousel on a tap.")
    public var home: ViewKind = .carousel

    @Option(help: ArgumentHelp("The mosaic's or grid's columns in a portrait and in a landscape viewport (1 to 20 each).", valueName: "P,L"))
    public var columns = ColumnCounts(portrait: 3, landscape: 5)

    @Option(help: ArgumentHelp("Pixels between the mosaic's or grid's tiles and around them.", valueName: "PX"))
    public var tileGap: Double = 10

    @Option(help: ArgumentHelp("What fills the box around a picture that does not fill it: none (the background), color (the picture's average colour, darkened) or blur (a blurred, darkened copy of the picture covering the box; the whole screen with --layout paged).", valueName: "KIND"))
    public var fill: FillKind = .none

    @Option(help: "Layout preset: centered, paged or preview.")
    public var layout: LayoutName = .centered

    @Option(help: ArgumentHelp("Item box width, in pixels or N% of the viewport width.", valueName: "px|N%"))
    public var itemWidth: Length?

    @Option(help: ArgumentHelp("Item box height, in pixels or N% of the viewport height.", valueName: "px|N%"))
    public var itemHeight: Length?

    @Option(help: ArgumentHelp("Gap between boxes, in pixels or N% of the viewport width.", valueName: "px|N%"))
    public var gap: Length?

    @Option(help: "Item centred at start, counted from 0.")
    public var startIndex: Int = 0

    @Flag(inversion: .prefixedNo, help: "Endless strip: the first item follows the last.")
    public var wrap = false

    @Option(help: ArgumentHelp("Background colour.", valueName: "#RRGGBB"))
    public var background: Color = ViewStyle().background

    @Option(help: ArgumentHelp("Border width around each image in pixels (0 = none; default box width / 20, none for paged).", valueName: "px"))
    public var border: Double?

    @Option(help: ArgumentHelp("Colour of that border.", valueName: "#RRGGBB[AA]"))
    public var borderColor = Color.white

    @Option(help: ArgumentHelp("Round the corners of pictures, borders and tiles by this many pixels (0 = square).", valueName: "PX"))
    public var cornerRadius: Double = 0

    @Option(help: ArgumentHelp("A picture behind everything, scaled to cover the screen.", valueName: "FILE"))
    public var backgroundImage: String?

    @Flag(inversion: .prefixedNo, help: "Seed 001's drop shadow: dark bands at the top and bottom of the screen, and under each tile of a wall.")
    public var shadow = false

    @Option(help: "Renderer: auto, opengl, opengles2 or software.")
    public var renderer: RendererKind = .auto

    @Option(help: ArgumentHelp("Turn the picture clockwise for a panel mounted sideways or upside down: 0, 90, 180 or 270.", valueName: "DEGREES"))
    public var rotate: ScreenRotation = .none

    @Option(help: ArgumentHelp("This screen is one panel of a wall of COLS x ROWS panels, the one in column C and row R (from 0): the views are laid out across the whole wall and each panel draws its part, e.g. 2x2:1,0.", valueName: "COLSxROWS:C,R"))
    public var span: String?

    @Option(help: ArgumentHelp("With --span: the pixels hidden between two panels side by side (and above each other, if given), both bezels together, so that lines cross them straight.", valueName: "PX[,PX]"))
    public var bezel: String?

    /// `--span` and `--bezel` as a wall; nil without `--span`.
    public var wallSpan: WallSpan? {
        guard let text = span, var s = WallSpan(parsing: text) else { return nil }
        if let b = bezel.flatMap(WallSpan.bezel(parsing:)) { s.bezel = b }
        return s
    }

    @Option(help: "Caption under the centred item: none, title (the manifest's title, else the file name) or full (title and caption).")
    public var captions: CaptionMode = .none

    @Option(help: ArgumentHelp("The caption under the centred item made of its own facts: {title}, {caption}, {file}, {date} or {date:FORMAT} (when it was taken, as its listing or file says; strftime's format, default '%-d %B %Y', in LANG's language), {place} and {people} (as Immich or a manifest says), e.g. '{date:%A %-d %B %Y} · {place}'. Text between fields shows only when both do; \\n starts a second line.", valueName: "TEMPLATE"))
    public var captionFormat: String?

    @Option(help: ArgumentHelp("Font for captions and labels (a .ttf or .otf file; default DejaVu Sans).", valueName: "FILE"))
    public var font: String?

    @Flag(inversion: .prefixedNo, help: "Page dots under the strip showing where the centred item is.")
    public var dots = false

    @Option(help: ArgumentHelp("The time in a corner of every view, in strftime's format: '%H:%M', '%a %e %b  %H:%M', '%I:%M %p' (days' and months' names in the locale's language, LANG). It changes each minute, or each second when the format shows seconds, and the program wakes only then.", valueName: "FORMAT"))
    public var clock: String?

    @Option(help: "The clock's corner: top-left, top-right, bottom-left or bottom-right.")
    public var clockCorner: ClockFace.Corner = .bottomRight

    @Option(help: ArgumentHelp("The clock's text height in pixels, 8 to 400 (default: a twelfth of the screen's height).", valueName: "PX"))
    public var clockSize: Int?

    @Option(help: ArgumentHelp("Size of the items beside the centre, as a fraction (e.g. 0.85).", valueName: "FRACTION"))
    public var neighbourScale: Double = 1

    @Option(help: ArgumentHelp("Darkening of the items beside the centre, 0 to 1 (e.g. 0.4).", valueName: "FRACTION"))
    public var neighbourDim: Double = 0

    public init() {}

    public func validate() throws {
        if startIndex < 0 { throw ValidationError("--start-index must be 0 or more, not \(startIndex)") }
        if let b = border, !(b >= 0 && b.isFinite) { throw ValidationError("--border must be 0 or more pixels") }
        if !(neighbourScale > 0 && neighbourScale <= 1) { throw ValidationError("--neighbour-scale must be more than 0 and at most 1, not \(neighbourScale)") }
        if !(neighbourDim >= 0 && neighbourDim <= 1) { throw ValidationError("--neighbour-dim must be 0 to 1, not \(neighbourDim)") }
        if let b = backgroundImage, !FileManager.default.isReadableFile(atPath: b) {
            throw ValidationError("--background-image \(b): no such readable file")
        }
        if !(cornerRadius >= 0 && cornerRadius <= 500) { throw ValidationError("--corner-radius must be 0 to 500 pixels, not \(cornerRadius)") }
        if !(tileGap >= 0 && tileGap <= 200) { throw ValidationError("--tile-gap must be 0 to 200 pixels, not \(tileGap)") }
        if let f = font, !FileManager.default.isReadableFile(atPath: f) { throw ValidationError("--font \(f): no such readable file") }
        if let f = captionFormat {
            do { _ = try CaptionTemplate(parsing: f) } catch { throw ValidationError("--caption-format '\(f)': \(error)") }
        }
        if let c = clock, c.isEmpty || c.utf8.count > 100 || ClockText.format(c, SystemClock.date).isEmpty {
            throw ValidationError("--clock '\(c)': a strftime format is expected that makes some text, such as '%H:%M'")
        }
        if let s = clockSize, !(8...400).contains(s) { throw ValidationError("--clock-size must be 8 to 400 pixels, not \(s)") }
        if let s = span, WallSpan(parsing: s) == nil {
            throw ValidationError("--span must be COLSxROWS:C,R (1 to 16 panels a side, the panel's column and row from 0), e.g. 2x1:0,0, not \(s)")
        }
        if let b = bezel {
            if span == nil && !ConfigFile.checkingOneKey { throw ValidationError("--bezel is for --span, which is not set") }
            if WallSpan.bezel(parsing: b) == nil { throw ValidationError("--bezel must be PX or PX,PX (0 to 1000), not \(b)") }
        }
    }

    /// The engine's settings: these options, with attract mode and the fling cap from `behaviour`.
    public func carouselSettings(_ behaviour: BehaviourOptions) -> CarouselSettings {
        var s = CarouselSettings()
        behaviour.apply(to: &s)
        var spec = LayoutSpec.preset(named: layout.rawValue) ?? .centered
        if let w = itemWidth { spec.itemWidth = w }
        if let h = itemHeight { spec.itemHeight = h }
        if let g = gap { spec.gap = g }
        s.layout = spec
        s.wrap = wrap
        return s
    }

    /// The mosaic's settings from these options.
    public var wallSettings: WallSettings {
        var s = WallSettings()
        s.portraitColumns = columns.portrait
        s.landscapeColumns = columns.landscape
        s.gap = tileGap
        s.kind = home.isTiled ? home : .mosaic
        return s
    }

    /// These options as config-file entries, for `--print-config`.
    var configEntries: [ConfigEntry] {
        [.init("view", .string(home.rawValue)), .init("columns", .string(columns.description)),
         .init("tile-gap", .number(tileGap)),
         .init("layout", .string(layout.rawValue)),
         .init("fill", .string(fill.rawValue)),
         .init("item-width", itemWidth.map { .string($0.description) }, unset: "from the layout"),
         .init("item-height", itemHeight.map { .string($0.description) }, unset: "from the layout"),
         .init("gap", gap.map { .string($0.description) }, unset: "from the layout"),
         .init("start-index", .number(Double(startIndex))), .init("wrap", .bool(wrap)),
         .init("background", .string(background.hex)),
         .init("border", border.map { .number($0) }, unset: "box width / 20, none for paged"),
         .init("border-color", .string(borderColor.hex)), .init("corner-radius", .number(cornerRadius)),
         .init("shadow", .bool(shadow)), .init("background-image", backgroundImage.map { .string($0) }, unset: "none"),
         .init("renderer", .string(renderer.rawValue)), .init("rotate", .number(Double(rotate.rawValue))),
         .init("span", span.map { .string($0) }, unset: "the whole view on this screen"),
         .init("bezel", bezel.map { .string($0) }, unset: "0"),
         .init("captions", .string(captions.rawValue)),
         .init("caption-format", captionFormat.map { .string($0) }, unset: "none"),
         .init("font", font.map { .string($0) }, unset: "DejaVu Sans"), .init("dots", .bool(dots)),
         .init("clock", clock.map { .string($0) }, unset: "none"), .init("clock-corner", .string(clockCorner.rawValue)),
         .init("clock-size", clockSize.map { .number(Double($0)) }, unset: "a twelfth of the screen's height"),
         .init("neighbour-scale", .number(neighbourScale)), .init("neighbour-dim", .number(neighbourDim))]
    }

    /// The font for captions and labels, sized for a viewport `height` pixels tall. A
    /// given font that cannot be opened is an error; a missing default font leaves the
    /// carousel without text, said once.
    public func textRenderer(height: Int, smallest: Int = 12, largest: Int = 36) throws -> TextRenderer? {
        let size = max(smallest, min(largest, height / 30))
        if let font {
            do { return try TextRenderer(fontPath: font, pointSize: size) } catch {
                throw Failure("\(font): cannot be used as a font (\(error.message))")
            }
        }
        do { return try TextRenderer(pointSize: size) } catch {
            Log.warn("\(TextRenderer.defaultFontPath) is missing, so no captions or labels are drawn; install fonts-dejavu-core (kiosk/setup does) or pass --font")
            return nil
        }
    }

    /// `--clock`'s face; nil without it.
    public var clockFace: ClockFace? { clock.map { ClockFace(format: $0, corner: clockCorner, size: clockSize) } }

    /// The painter of `--clock` on a screen `height` pixels tall, in the captions' font; nil
    /// without it, or without a font (said once by `textRenderer`).
    public func clockPainter(height: Int) throws -> ClockPainter? {
        guard let face = clockFace else { return nil }
        let size = face.textHeight(screenHeight: Double(height))
        guard let font = try textRenderer(height: height, smallest: size, largest: size) else { return nil }
        return ClockPainter(face: face, font: font, scrim: style.scrim)
    }

    /// A caption says `{place}`: GeoNames' tables are to be read.
    var captionsSayPlace: Bool {
        captionFormat.flatMap { try? CaptionTemplate(parsing: $0) }?.says(.place) ?? false
    }

    public var style: ViewStyle {
        var s = ViewStyle()
        s.background = background
        // A full-screen pager shows photos edge to edge, as seed 002 does; the others
        // frame them as seed 000 does.
        s.border = border ?? (layout == .paged ? 0 : nil)
        if layout == .preview { s.card = background.lightened(0.12) }
        s.captions = captions
        s.captionTemplate = captionFormat.flatMap { try? CaptionTemplate(parsing: $0) }
        s.dots = dots
        s.neighbours = NeighbourEmphasis(scale: neighbourScale, dim: neighbourDim)
        s.borderColor = borderColor
        s.cornerRadius = cornerRadius
        s.shadow = shadow
        s.fill = fill
        return s
    }
}

extension FillKind: ExpressibleByArgument {}
