"""The TAG plugin itself: the entry class flake8 loads, the per-file analysis its rules share, the
messages, the language options.
"""
