"""``tagstr-lsp -- SERVER COMMAND...``: any stdio language server, shown each file's placeholder view.

``command`` starts the server and the two pumps; ``session`` forwards every
message, rewriting the ones that carry a document's text or positions
(``translate``); ``documents`` keeps each document's text as the editor has
it and what the server was sent; ``our_diagnostics`` adds the runtime's and
the flake8 plugin's to the server's.
"""
