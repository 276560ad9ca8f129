/// Byte-level matching for the scanners that read source text and compiler
/// output as bytes.
extension [UInt8] {
    /// Whether `pattern` is found at `index` (false past the end).
    func has(_ pattern: [UInt8], at index: Int) -> Bool {
        index >= 0 && index + pattern.count <= count && self[index..<(index + pattern.count)].elementsEqual(pattern)
    }

    /// The end of the run of ASCII digits that starts at `index` (`index` itself when there is none).
    func digits(from index: Int) -> Int {
        var end = index
        while end < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self[end]) { end += 1 }
        return end
    }
}
