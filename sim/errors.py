"""Typed exceptions for rummysim.

Every error a user can cause (a bad rule flag, an unsupported variation, a bad
player count, a corrupt input file) is raised as a subclass of
:class:`RummysimError`. The CLI catches exactly this base class, prints
``error: <message>`` and exits with status 2, so any other exception escaping
to the top level is a bug, not a user mistake.

The hierarchy::

    RummysimError
    ├── RulesError              invalid rules configuration (flag, value, preset, combination)
    │   └── UnsupportedRuleError   valid per RULES.md, but the kernels cannot play it yet
    └── InputError              other bad input: player count, strategy name, files

Exceptions here may cross process boundaries (the sweep runner uses worker
processes), so the one with extra constructor arguments defines ``__reduce__``
to survive pickling.
"""

from __future__ import annotations

__all__ = ["RummysimError", "RulesError", "UnsupportedRuleError", "InputError"]


class RummysimError(Exception):
    """Base class of every error caused by user input; the CLI exits 2 on these."""


class RulesError(RummysimError):
    """An invalid rules configuration: unknown flag or preset, bad value, or a
    combination RULES.md forbids (the message names the rule ID)."""


class InputError(RummysimError):
    """Bad input that is not a rules flag: player count, strategy name, corrupt files."""


def _fmt(value: object) -> str:
    # Booleans are shown the way users type them on the command line
    # ("r500_persian=true"), not as Python's "True".
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class UnsupportedRuleError(RulesError):
    """A rule setting that RULES.md allows but the kernels do not implement yet.

    Attributes:
        rule_id: the RULES.md rule ID of the setting, e.g. ``"V500-RUMMY"``.
        flag: the configuration flag, e.g. ``"r500_call_rummy"`` (``"game"`` for a whole game).
        value: the requested value, e.g. ``"pile"``.
        detail: optional extra text appended to the message.
    """

    def __init__(self, rule_id: str, flag: str, value: object, detail: str | None = None) -> None:
        self.rule_id = rule_id
        self.flag = flag
        self.value = value
        self.detail = detail
        message = f"rule {rule_id} ({flag}={_fmt(value)}) is not supported by the kernels yet"
        if detail:
            message += f": {detail}"
        super().__init__(message)

    def __reduce__(self):  # type: ignore[override]
        # Default exception pickling re-calls cls(*self.args) with the message
        # only, which does not match this signature.
        return (type(self), (self.rule_id, self.flag, self.value, self.detail))
