"""Records: typed value classes that cost almost nothing to define.

``class Nominated(Event): president: str`` declares a record as a dataclass would, and
type checkers read it as one (PEP 681, ``dataclass_transform``): an ``__init__`` over the
fields in order (base fields first), keyword or positional, defaults and
``field(default_factory=…)``, ``__eq__``, ``__hash__`` (frozen only), ``__repr__`` and
``__match_args__`` for ``match``. Records are frozen unless declared
``class State(Record, frozen=False)``.

Why not :mod:`dataclasses`: a dataclass generates its methods as source code and compiles
them when the class is defined (with ``slots=True`` it builds the class twice): about a
millisecond a class, and shmod defines some eighty of them on every command's path. A
record's class takes some 30 microseconds: its methods are shared, generic ones reading the
field names the class keeps. Instances are slotted; building one takes a microsecond or two
more than a dataclass's, which a replay of a whole game does not feel.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform


class FrozenRecordError(AttributeError):
    """A field of a frozen record was assigned."""


class _Factory:
    """A default made afresh for every instance (``field(default_factory=list)``)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is ``default_factory()``, called for each new record."""
    return _Factory(default_factory)


_MISSING: Any = object()


def _frozen_setattr(self: object, key: str, value: object) -> None:
    raise FrozenRecordError(f"cannot assign to field {key!r} of a frozen "
                            f"{type(self).__name__}")


def _frozen_delattr(self: object, key: str) -> None:
    raise FrozenRecordError(f"cannot delete field {key!r} of a frozen {type(self).__name__}")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class _RecordType(type):
    """Makes each record class: its slots, field names and defaults."""

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any], *,
                frozen: bool = True) -> _RecordType:
        notes = namespace.get("__annotations__", {})
        own = tuple(key for key, note in notes.items() if not str(note).startswith(
            ("ClassVar", "typing.ClassVar")))
        inherited: tuple[str, ...] = ()
        defaults: dict[str, Any] = {}
        for base in bases:
            inherited += getattr(base, "_fields", ())
            defaults.update(getattr(base, "_defaults", {}))
        for key in own:
            if key in namespace:
                defaults[key] = namespace.pop(key)
            elif defaults and key not in defaults:
                raise TypeError(f"{name}.{key}: a field without a default follows one with")
        namespace["__slots__"] = own
        parents = [base for base in bases if isinstance(base, _RecordType)]
        if parents and frozen:  # (Record itself is neither: its subclasses choose)
            namespace.setdefault("__setattr__", _frozen_setattr)
            namespace.setdefault("__delattr__", _frozen_delattr)
        elif parents:
            if any(getattr(base, "__setattr__", None) is _frozen_setattr for base in parents):
                raise TypeError(f"{name}: a mutable record cannot extend a frozen one")
            namespace.setdefault("__hash__", None)
        cls = super().__new__(mcs, name, bases, namespace)
        fields = inherited + own
        type.__setattr__(cls, "_fields", fields)
        type.__setattr__(cls, "_defaults", defaults)
        type.__setattr__(cls, "__match_args__", fields)
        return cls


class Record(metaclass=_RecordType):
    """The base of every record (see the module's docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, not {len(args)}")
        put = object.__setattr__
        for key, value in zip(names, args):
            put(self, key, value)
        if len(args) < len(names):
            defaults = self._defaults
            for key in names[len(args):]:
                value = kwargs.pop(key, _MISSING)
                if value is _MISSING:
                    value = defaults.get(key, _MISSING)
                    if value is _MISSING:
                        self._unknown(kwargs)
                        raise TypeError(f"{type(self).__name__} needs its field {key!r}")
                    if type(value) is _Factory:
                        value = value.make()
                put(self, key, value)
        if kwargs:
            self._unknown(kwargs)
            raise TypeError(f"{type(self).__name__} got {next(iter(kwargs))!r} twice")

    def _unknown(self, given: dict[str, Any]) -> None:
        wrong = [key for key in given if key not in self._fields]
        if wrong:
            raise TypeError(f"{type(self).__name__} has no field {wrong[0]!r}")

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, key) for key in self._fields])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        # copy, deepcopy and pickle rebuild a record through __init__ (slots, frozen)
        return type(self), self._values()


R = TypeVar("R", bound=Record)


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's fields, in order."""
    return record._fields


def values(record: Record) -> dict[str, Any]:
    """A record's fields and their values (not copied)."""
    return {key: getattr(record, key) for key in record._fields}


def replace(record: R, **changes: Any) -> R:
    """A new record like ``record`` with ``changes``."""
    return type(record)(**{**values(record), **changes})
