/// Prometheus' text exposition format, version 0.0.4: HELP and TYPE lines, then samples.
struct PrometheusText {
    private(set) var text = ""

    mutating func gauge(_ name: String, _ help: String, _ value: Double) {
        header(name, help, "gauge")
        text += "\(name) \(number(value))\n"
    }

    mutating func gauge(_ name: String, _ help: String, labelled label: String, _ values: [String: Double]) {
        header(name, help, "gauge")
        for (k, v) in values.sorted(by: { $0.key < $1.key }) { text += "\(name){\(label)=\"\(escape(k))\"} \(number(v))\n" }
    }

    mutating func counter(_ name: String, _ help: String, _ value: Double) {
        header(name, help, "counter")
        text += "\(name) \(number(value))\n"
    }

    mutating func counter(_ name: String, _ help: String, labelled label: String, _ values: [String: Double]) {
        header(name, help, "counter")
        for (k, v) in values.sorted(by: { $0.key < $1.key }) { text += "\(name){\(label)=\"\(escape(k))\"} \(number(v))\n" }
    }

    mutating func histogram(_ name: String, _ help: String, bounds: [Double], buckets: [Int], count: Int, sum: Double) {
        header(name, help, "histogram")
        for (b, n) in zip(bounds, buckets) { text += "\(name)_bucket{le=\"\(number(b))\"} \(n)\n" }
        text += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(number(sum))\n\(name)_count \(count)\n"
    }

    private mutating func header(_ name: String, _ help: String, _ type: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    private func number(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d > 0 ? "+Inf" : "-Inf" }
        return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    /// Label values: backslash, double quote and newline escaped.
    private func escape(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
