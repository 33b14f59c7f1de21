"""Shared pytest fixtures."""

from __future__ import annotations

import pytest

import rummysim.validate.rum500 as V
import rummysim.validate.rum5000 as V5


@pytest.fixture
def paranoid_validator(monkeypatch):
    """Re-count every card after every record: cheap on the small hand-made traces of the
    validators' unit tests (the bulk replays keep the validators' faster default)."""
    monkeypatch.setattr(V, "_CHECK_CONSERVATION_EVERY_RECORD", True)
    monkeypatch.setattr(V5, "_CHECK_CONSERVATION_EVERY_RECORD", True)
