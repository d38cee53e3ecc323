"""Class rooms: a durable room store and the room logic every Voilà kernel shares (no widgets).

The store (``store.py``) is in place; the room logic follows.
"""
