extension Carousel {
    /// The items whose images should be ready, most urgent first: those of the slot pool
    /// and `prefetch` more beyond each end, nearest the centre first, ahead of the motion
    /// before behind it. The image pipeline decodes in this order and drops what falls out.
    public func loadOrder(prefetch: Int) -> [Int] {
        guard itemCount > 0, let covered = coveredRange else { return [] }
        var lo = covered.lowerBound - max(0, prefetch), hi = covered.upperBound + max(0, prefetch)
        if let b = bounds {
            lo = max(lo, b.lowerBound)
            hi = min(hi, b.upperBound)
        }
        guard lo <= hi else { return [] }
        let urgency = { (v: Int) -> Double in
            let offset = Double(v) - self.position
            let behind = self.direction != 0 && offset * Double(self.direction) < 0
            // Behind the motion counts as farther: the strip is leaving those items.
            return behind ? abs(offset) * 1.5 + 0.5 : abs(offset)
        }
        let virtuals = (lo...hi).sorted { (urgency($0), $0) < (urgency($1), $1) }
        var seen = Set<Int>(), order: [Int] = []
        for v in virtuals {
            let item = self.item(forVirtualIndex: v)
            if seen.insert(item).inserted { order.append(item) }
        }
        return order
    }
}
