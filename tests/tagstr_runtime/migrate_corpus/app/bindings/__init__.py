"""A tag name bound more than once: every binding that can reach a tag string must be proven."""
