extension ScreenStack.Emission {
    /// The `screen_enter` / `screen_exit` event this emission is on the wire
    /// (docs/wire-format.md, screen visits).
    var event: (name: String, properties: EventProperties) {
        switch self {
        case let .enter(screen, visitID, modal):
            ("screen_enter", ["screen": .string(screen), "visit_id": .string(visitID.wireString), "modal": .bool(modal)])
        case let .exit(screen, visitID, durationMs, reason):
            ("screen_exit", [
                "screen": .string(screen), "visit_id": .string(visitID.wireString),
                "duration_ms": .integer(durationMs), "reason": .string(reason.rawValue),
            ])
        }
    }
}
