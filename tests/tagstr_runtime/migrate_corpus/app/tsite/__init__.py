"""Code in the style of the tagstr site's examples: a compiled HTML builder, SQL with named bindings."""
