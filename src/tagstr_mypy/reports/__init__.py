"""What the user reads: the error codes, the messages, where they point and which ones stand.
"""
