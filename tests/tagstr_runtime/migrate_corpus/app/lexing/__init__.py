"""How a tag string's text reads as a t-string: escapes, quotes, nesting, fields, specs."""
