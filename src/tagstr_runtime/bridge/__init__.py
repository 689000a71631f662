"""Parts of the bridge between tag strings and template strings.

The public names (``template_tag``, ``accepts_template``, ``to_template``,
``as_tag_args``) are exported by ``tagstr_runtime``; the modules here are private.
"""
