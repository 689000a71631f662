"""A logging kit: level-filtered lazy messages, streaming, nesting, structured records."""
