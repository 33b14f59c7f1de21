"""Rummikub (RULES.md §6): the layouts, the exact move solver, the table, the engine and the batch runner."""
