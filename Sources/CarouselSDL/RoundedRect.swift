import CSDL2
import CarouselCore
import Foundation

/// A rectangle with rounded corners as SDL geometry: a fan of triangles from the centre to
/// the outline (each corner an arc of `segments` steps), and a one-pixel feather ring
/// outside it whose outer edge is transparent, so the curve is anti-aliased on any
/// background. Filled with a colour, or textured (an image's `part`, in texture pixels).
struct RoundedRect {
    let rect: Rect
    let radius: Double

    init(_ rect: Rect, radius: Double) {
        self.rect = rect
        self.radius = max(0, min(radius, rect.size.width / 2, rect.size.height / 2))
    }

    /// The outline, clockwise from the top-left corner's arc, with each point's outward normal.
    private var outline: [(point: Point, normal: Point)] {
        let r = radius
        let segments = max(2, Int((r / 2).rounded(.up)).clamped(to: 2...16))
        let corners: [(cx: Double, cy: Double, start: Double)] = [
            (rect.minX + r, rect.minY + r, Double.pi), (rect.maxX - r, rect.minY + r, 1.5 * Double.pi),
            (rect.maxX - r, rect.maxY - r, 0), (rect.minX + r, rect.maxY - r, 0.5 * Double.pi)]
        var points: [(Point, Point)] = []
        for c in corners {
            for i in 0...segments {
                let a = c.start + Double(i) / Double(segments) * 0.5 * Double.pi
                let n = Point(x: cos(a), y: sin(a))
                points.append((Point(x: c.cx + r * n.x, y: c.cy + r * n.y), n))
            }
        }
        return points
    }

    /// Draws it with `texture`'s `part` mapped onto the rectangle, or filled with `color`.
    func draw(on renderer: OpaquePointer, texture: OpaquePointer?, part: Rect?, textureSize: (Int, Int), color: Color) {
        let points = outline
        let inner = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        let clear = SDL_Color(r: color.r, g: color.g, b: color.b, a: 0)
        func uv(_ p: Point) -> SDL_FPoint {
            guard let part, textureSize.0 > 0, textureSize.1 > 0 else { return SDL_FPoint(x: 0, y: 0) }
            let u = part.minX + (p.x - rect.minX) / rect.size.width * part.size.width
            let v = part.minY + (p.y - rect.minY) / rect.size.height * part.size.height
            return SDL_FPoint(x: Float(u / Double(textureSize.0)), y: Float(v / Double(textureSize.1)))
        }
        func vertex(_ p: Point, _ c: SDL_Color, uvAt q: Point) -> SDL_Vertex {
            SDL_Vertex(position: SDL_FPoint(x: Float(p.x), y: Float(p.y)), color: c, tex_coord: uv(q))
        }
        let centre = Point(x: rect.midX, y: rect.midY)
        var vertices = [vertex(centre, inner, uvAt: centre)]
        for p in points { vertices.append(vertex(p.point, inner, uvAt: p.point)) }
        // The feather: one pixel out, transparent, with the texture continuing (clamped).
        for p in points {
            let out = Point(x: p.point.x + p.normal.x, y: p.point.y + p.normal.y)
            vertices.append(vertex(out, clear, uvAt: p.point))
        }
        let n = Int32(points.count)
        var indices: [Int32] = []
        for i in 0..<n {
            let j = (i + 1) % n
            indices += [0, 1 + i, 1 + j]
            indices += [1 + i, 1 + n + i, 1 + n + j, 1 + i, 1 + n + j, 1 + j]
        }
        SDL_RenderGeometry(renderer, texture, vertices, Int32(vertices.count), indices, Int32(indices.count))
    }
}

extension Comparable {
    func clamped(to r: ClosedRange<Self>) -> Self { min(max(self, r.lowerBound), r.upperBound) }
}
