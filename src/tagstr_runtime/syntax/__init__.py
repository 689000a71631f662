"""The lexical side of tag strings: the one lexer (``parser``), the model it builds
(``model``), the source text with its column units (``source``), escapes, the
words of Python's grammar (``words``) and the SyntaxErrors it raises (``errors``)."""
