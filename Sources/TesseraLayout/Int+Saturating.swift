extension Int {
    /// `value` rounded toward zero, saturated at `Int.min` and `Int.max`; 0 for NaN.
    ///
    /// Counts derived from outside numbers (a width divided by a tiny item size) go through
    /// this instead of `Int(_:)`, which traps on values it cannot hold.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {
            self = .max
        } else if value < -0x1p63 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
