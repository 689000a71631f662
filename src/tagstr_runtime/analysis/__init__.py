"""The analysis layer: what every consumer needs to know about tag strings, worked out once.

- ``sites``: each tag string as the tag receives it (literal runs with source
  maps, interpolations with their trees), filled by the generator once per
  desugaring;

Consumers reach it through ``tagstr_runtime.frontend``; nothing here is
imported unless used.
"""
