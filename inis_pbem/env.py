"""Reading configuration from the process environment, for the settings modules.

Every setting that differs between a developer's machine and production comes from an environment
variable; these readers give each one a type and fail loudly (`ImproperlyConfigured`) on a value
they cannot read, rather than falling back to a default that hides the mistake.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable `name` as a string, or `default` when it is unset or empty."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_bool(name: str, default: bool) -> bool:
    """The variable `name` read as a boolean (1/true/yes/on or 0/false/no/off, any case).

    Raises ImproperlyConfigured for any other value.
    """
    if name not in os.environ:
        return default
    value = os.environ[name].strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={os.environ[name]!r} is not a boolean (use 1 or 0).")


def env_int(name: str, default: int) -> int:
    """The variable `name` as an integer; raises ImproperlyConfigured when it is not one."""
    value = env_str(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """The variable `name` as a comma-separated list (blanks dropped), or `default` when unset."""
    value = env_str(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]
