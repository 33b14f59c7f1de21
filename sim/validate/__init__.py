"""The independent rules validator: replays kernel traces and checks every action against RULES.md.

It imports nothing from the kernels or the strategies (a second opinion, not a copy).
"""

from rummysim.validate.rum500 import ValidationResult, Violation, validate_trace

__all__ = ["ValidationResult", "Violation", "validate_trace"]
