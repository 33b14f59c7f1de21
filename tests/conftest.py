"""Shared pytest fixtures."""

from __future__ import annotations

import pytest

import rummysim.validate.trace as validate_trace_module


@pytest.fixture
def paranoid_validator(monkeypatch):
    """Re-count every card after every record: cheap on the small hand-made traces of the
    validators' unit tests (the bulk replays keep the validators' faster default).  The switch is
    the record loop's, shared by the 500 Rum and 5000 Rummy checkers."""
    monkeypatch.setattr(validate_trace_module, "CHECK_CONSERVATION_EVERY_RECORD", True)
