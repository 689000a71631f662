"""The analysis layer: what every consumer needs to know about tag strings, worked out once.

- ``sites``: each tag string as the tag receives it (literal runs with source
  maps, interpolations with their trees), filled by the generator once per
  desugaring;
- ``languages``: the embedded-language checks (HTML, SQL, CSS, JavaScript, JSON,
  YAML, TOML) of a template's literal text, one module per language around its
  parser, imported only when a tag declaring that language is met;

Consumers reach it through ``tagstr_runtime.frontend``; nothing here is
imported unless used.
"""
