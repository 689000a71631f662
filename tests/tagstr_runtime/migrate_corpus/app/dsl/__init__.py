"""Little languages in tag strings: regexes, queries with named parameters, shell lines, units."""
