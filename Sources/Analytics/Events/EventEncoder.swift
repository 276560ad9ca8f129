/// Encodes tracked events to their wire bytes, encoding the context once per
/// distinct value (it changes only with the network), not once per event.
struct EventEncoder {
    private var cached: (context: EventContext, bytes: [UInt8])?

    mutating func encode(_ event: TrackedEvent) -> [UInt8] {
        if cached?.context != event.context { cached = (event.context, event.context.wireBytes) }
        return event.wireBytes(contextBytes: cached?.bytes ?? event.context.wireBytes)
    }
}
