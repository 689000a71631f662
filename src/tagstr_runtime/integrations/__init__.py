"""What makes tag strings work inside other tools at run time: coverage's reports, IPython, the patches
of the standard library's source readers.
"""
