"""The rules engine: pure Python, no widgets, no numpy."""
