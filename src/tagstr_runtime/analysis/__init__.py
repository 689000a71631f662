"""Facts about tag strings that several consumers read: sites, scopes, tag definitions, languages."""
