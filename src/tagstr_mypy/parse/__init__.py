"""How a file with tag strings reaches mypy: the parse hook, the checker tree built by the runtime's
desugarer, the swap into mypy's tree in every mode (cache, daemon, workers).
"""
