/// Attribute keys that carry personal data and never leave the device.
public enum ForbiddenKeys {
    /// The contract's default list (DESIGN section 2). Apps may add keys
    /// through `Configuration.additionalForbiddenKeys`.
    public static let defaults: Set<String> = [
        "email", "phone", "phone_number", "name", "full_name", "first_name", "last_name",
        "address", "ip", "ip_address", "password", "card_number", "cvv", "ssn",
        "idfa", "advertising_id", "latitude", "longitude",
    ]
}
