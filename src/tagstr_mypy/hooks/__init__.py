"""mypy's hooks, each choosing and delegating: the plugin class, the signature and function hooks
of a tag string's call, the build-scoped state they share.
"""
