"""flake8 plugin for tag strings (being written)."""
