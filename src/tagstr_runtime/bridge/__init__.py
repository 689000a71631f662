"""The bridge between tag strings and 3.14's template strings.

The public names (``template_tag``, ``accepts_template``, ``to_template``,
``as_tag_args``: ``tags``) are exported by ``tagstr_runtime``; 3.14's
``Template`` and ``Interpolation`` types on 3.11-3.13 are ``template_types``.
"""
