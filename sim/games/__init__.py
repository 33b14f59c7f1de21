"""The game registry (issue 14): one GameSpec per game."""
