/// Byte-level matching for the scanners that read source text and compiler
/// output as bytes.
extension [UInt8] {
    /// Whether `pattern` is found at `index` (false past the end).
    ///
    /// A plain loop: the scanners call it at every byte of outputs of many
    /// megabytes, in the debug build CI runs too.
    func has(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= count else { return false }
        var offset = 0
        while offset < pattern.count {
            guard self[index + offset] == pattern[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The end of the run of ASCII digits that starts at `index` (`index` itself when there is none).
    func digits(from index: Int) -> Int {
        var end = index
        while end < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self[end]) { end += 1 }
        return end
    }

    /// The start of the run of ASCII digits that ends just before `index`
    /// (`index` itself when there is none).
    func digitsBefore(_ index: Int) -> Int {
        var start = index
        while start > 0, start <= count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self[start - 1]) { start -= 1 }
        return start
    }
}
