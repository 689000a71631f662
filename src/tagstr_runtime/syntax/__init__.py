"""The lexical side of tag strings: the words of Python's grammar the lexer needs.

(The lexer, the model, the escapes and the errors join this package in the
planned layout; ``_words`` is here already so that tools can read the string
prefixes and keywords without loading the lexer.)
"""
