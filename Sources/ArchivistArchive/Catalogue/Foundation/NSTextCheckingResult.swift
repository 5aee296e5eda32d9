extension ClassDescription {
    /// `NSTextCheckingResult`, known by name: Archivist reads no value from it (a range and its result type (the private subclasses `NS...CheckingResult` count as Foundation's too)),
    /// so it is shown, exported and checked by its fields.
    static let nsTextCheckingResult = ClassDescription(["NSTextCheckingResult"], framework: .foundation, family: .suffix("CheckingResult"))
}
