"""The analysis layer: what every consumer needs to know about tag strings, worked out once.

Over the desugarer (it reads the sites and the scope index ``desugarer`` makes,
and ``ModuleAnalysis.read`` desugars): the tag resolver (``definitions``), the
findings, tags named like prefixes, what a tag does with what it gets
(``tag_reading``), and ``embedded``: the embedded-language checks (HTML, SQL,
CSS, JavaScript, JSON, YAML, TOML) of a template's literal text, one module per
language around its parser, imported only when a tag declaring that language is
met.

Consumers reach it through ``tagstr_runtime.frontend``; nothing here is
imported unless used.
"""
