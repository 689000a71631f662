"""Wrappers that run the user's formatters and linters (black, ruff) on files with tag strings: the
literals swapped for same-width stand-ins, the results mapped back.
"""
