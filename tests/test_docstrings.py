"""The examples in the public API's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["rummysim.rules", "rummysim.checks", "rummysim.simulation", "rummysim.sides", "rummysim.stepenv"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
