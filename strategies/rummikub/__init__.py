"""Rummikub strategies: decisions on the seat's rack, the public table and public counts only."""
