"""What editors and language servers need of a source with tag strings, built on one view.

``placeholder_view.PlaceholderView`` is the text every language tool reads
(each tag string a call of its tag, every hole's expression at its own
position: ``distinct_calls``) and the way back (``tag_index``, ``utf16``,
``repair`` for a buffer being typed); ``semantic_tokens`` and
``quick_fixes`` are what an editor adds for tag strings.  Reached through
``tagstr_runtime.frontend`` (``tagstr_lsp`` serves them).
"""
