"""Tag strings in editors: a pylsp plugin and ``tagstr-lsp``, a proxy for any language server.

Both show the language tools the one placeholder view of each file
(``tagstr_runtime.frontend.PlaceholderView``) and map their answers back, so
hover, definition, completion, references, rename and the rest work inside
holes as on the f-string twin.  ``pylsp_plugin`` is pylsp's entry point (the
``editors`` extra installs pylsp); ``proxy/`` is the ``tagstr-lsp`` command.
"""
