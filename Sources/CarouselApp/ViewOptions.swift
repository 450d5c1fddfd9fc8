import ArgumentParser
import CarouselCore
import CarouselSDL

extension Length: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

extension Color: ExpressibleByArgument {
    public init?(argument: String) { self.init(hex: argument) }
    public var defaultValueDescription: String { hex }
}

extension RendererKind: ExpressibleByArgument {}

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

/// Layout and look options shared by `carousel render` and the interactive `carousel`.
public struct ViewOptions: ParsableArguments, Sendable {
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
    public var background: Color = CarouselStyle().background

    @Option(help: ArgumentHelp("Border width around each image in pixels (0 = none; default box width / 20, none for paged).", valueName: "px"))
    public var border: Double?

    @Option(help: "Renderer: auto, opengl, opengles2 or software.")
    public var renderer: RendererKind = .auto

    public init() {}

    public func validate() throws {
        if startIndex < 0 { throw ValidationError("--start-index must be 0 or more, not \(startIndex)") }
        if let b = border, !(b >= 0 && b.isFinite) { throw ValidationError("--border must be 0 or more pixels") }
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

    /// These options as config-file entries, for `--print-config`.
    var configEntries: [ConfigEntry] {
        [.init("layout", .string(layout.rawValue)),
         .init("item-width", itemWidth.map { .string($0.description) }, unset: "from the layout"),
         .init("item-height", itemHeight.map { .string($0.description) }, unset: "from the layout"),
         .init("gap", gap.map { .string($0.description) }, unset: "from the layout"),
         .init("start-index", .number(Double(startIndex))), .init("wrap", .bool(wrap)),
         .init("background", .string(background.hex)),
         .init("border", border.map { .number($0) }, unset: "box width / 20, none for paged"),
         .init("renderer", .string(renderer.rawValue))]
    }

    public var style: CarouselStyle {
        var s = CarouselStyle()
        s.background = background
        // A full-screen pager shows photos edge to edge, as seed 002 does; the others
        // frame them as seed 000 does.
        s.border = border ?? (layout == .paged ? 0 : nil)
        if layout == .preview { s.card = background.lightened(0.12) }
        return s
    }
}
