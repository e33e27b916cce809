"""What the rules classes of the games with named presets share (OFC, Chinese poker)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, TypeVar

R = TypeVar("R", bound="Presets")


class Presets:
    """Mixin for a frozen rules dataclass with a ``name`` field: ``preset(name)`` builds a named
    ruleset (once: it is immutable), ``presets()`` lists the names, ``of`` takes what a ``rules``
    argument may be, ``replace`` makes a checked, renamed copy. A subclass sets GAME (for messages) and PRESETS (name -> overrides, the
    default first)."""

    GAME: ClassVar[str]
    PRESETS: ClassVar[dict[str, dict[str, Any]]]
    _built: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._built = {}

    @classmethod
    def preset(cls: type[R], name: str) -> R:
        """The named ruleset: one of ``presets()``."""
        try:
            return cls._built[name]             # type: ignore[no-any-return]
        except (KeyError, TypeError):
            pass
        try:
            overrides = cls.PRESETS[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown {cls.GAME} preset {name!r}; presets: "
                             f"{', '.join(cls.PRESETS)}") from None
        return cls._built.setdefault(name, cls(name=name, **overrides))  # type: ignore[call-arg,no-any-return]

    @classmethod
    def of(cls: type[R], rules: R | str | None) -> R:
        """`rules` as this game's rules: a Rules, a preset name, or None for the default preset."""
        if rules is None:
            return cls.preset(next(iter(cls.PRESETS)))
        if isinstance(rules, cls):
            return rules
        if isinstance(rules, str):
            return cls.preset(rules)
        raise TypeError(f"rules must be {cls.GAME} rules (a {cls.__qualname__}), a preset name or None, "
                        f"not {type(rules).__name__}")

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """The preset names, the default first."""
        return tuple(cls.PRESETS)

    def replace(self: R, **changes: Any) -> R:
        """A copy with some fields changed (and checked), named "custom" unless given a name."""
        changes.setdefault("name", "custom")
        return replace(self, **changes)  # type: ignore[type-var]
