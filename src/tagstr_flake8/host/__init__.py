"""What the plugin does to flake8 and to the other plugins it hosts on a tag-string file: the
text they parse and tokenize, the trees they walk, their reports mapped back.
"""
