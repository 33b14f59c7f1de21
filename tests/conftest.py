"""Shared pytest fixtures."""

from __future__ import annotations

import pytest

import sim.validate as V


@pytest.fixture
def paranoid_validator(monkeypatch):
    """Re-count every card after every record: cheap on the small hand-made traces of the
    validator's unit tests (the bulk replays keep the validator's faster default)."""
    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", True)
