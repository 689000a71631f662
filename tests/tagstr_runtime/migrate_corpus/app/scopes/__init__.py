"""Where an interpolation's names are found: a tag string's closure, or the t-string's place."""
