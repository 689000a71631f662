"""The types of a tag string: the tag's signatures tried against its arguments, the verdicts kept
per build, the fields and format specs, what other plugins make of the call.
"""
