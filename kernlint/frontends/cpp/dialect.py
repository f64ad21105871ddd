"""Attribute and dialect macros, read as the compiler would before tree-sitter parses the file.

`__dpct_inline__ float f(…)`, `SYCL_EXTERNAL void g(…)`, `__device__ __forceinline__ int h(…)` and a
project's own `MYLIB_INLINE` are macros that expand to attributes or to nothing; unexpanded, the parser
reads them as a type followed by garbage and loses the function. These are rewritten in place, byte for
byte (a name becomes spaces, or its value padded with spaces when that fits), so every offset, line
and column stays where the file has it:

- a built-in list of the spellings of dpct, SYCL, DPC++ and CUDA-compatible code (`BUILTIN`);
- the file's own object-like `#define`s, and those of the quoted headers it includes, whose value is
  empty or only specifiers and attributes (`#define DEV __device__`, `#define INLINE inline`);
- `-D` macros of the build (compile_commands.json, `defines`) whose value is such;
- the configuration's `macros = {"MYLIB_ATTRIBUTES" = "", "MY_INLINE" = "inline"}` (a key written
  `NAME(…)` is function-like: the name and its argument list are replaced).

A value longer than the name it replaces is blanked when it is only specifiers and attributes (which
no analysis reads), and otherwise left unexpanded: kernlint never moves a column. Preprocessor lines
are left alone.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache

from kernlint.frontends.common.preprocess import directive_matches

#: Object-like macros that expand to attributes, specifiers or nothing in the code kernlint reads.
BUILTIN_OBJECT = frozenset(
    {
        # dpct (the SYCLomatic migration tool) and DPC++
        "__dpct_inline__",
        "__dpct_noinline__",
        "DPCT_INLINE",
        "__dpcpp_inline__",
        "SYCL_EXTERNAL",
        "__SYCL_EXPORT",
        "__SYCL_CONVERGENT__",
        "__SYCL_ALWAYS_INLINE",
        # CUDA spellings kept by migrated code, and compiler spellings tree-sitter does not read
        "__device__",
        "__host__",
        "__global__",
        "__forceinline__",
        "__noinline__",
        "__inline__",
        "__inline",
        "__forceinline",
        "__restrict__",
        "__restrict",
        "__shared__",
        "__constant__",
        "__managed__",
    }
)
#: Function-like macros whose whole call expands to an attribute: `__dpct_align__(16) struct …`.
BUILTIN_FUNCTION = frozenset({"__dpct_align__", "__launch_bounds__", "__declspec", "__align__"})

#: Words a specifier-or-attribute value may be made of.
_SPECIFIER_WORDS = frozenset(
    {"inline", "static", "extern", "constexpr", "consteval", "volatile", "const", "noexcept", "virtual", "friend"}
)
_ATTRIBUTE_START = re.compile(r"\b(?:__attribute__|__declspec|alignas|_Alignas)\s*\(|\[\[")
_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?((?:[^\n]*\\\r?\n)*[^\n]*)", re.M)
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)
_DIRECTIVE_LINE = rb"^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*"
_DIRECTIVES = re.compile(_DIRECTIVE_LINE, re.M)
_MAX_HEADER_DEPTH = 6


def attribute_like(value: str, known: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a macro's value is empty or only specifiers and attributes (`inline`,
    `__attribute__((always_inline))`, `[[nodiscard]]`, `__device__`, another such macro in `known`)."""
    if value[:1].isdigit() or value[:1] in ("(", '"', "'", "-", "{"):
        return False  # a number, an expression, a string: the common values, rejected at once
    rest = _without_attributes(re.sub(r"/\*.*?\*/|//.*", " ", value.replace("\\\n", " ")))
    if rest is None:
        return False
    words = rest.split()
    return all(w in _SPECIFIER_WORDS or w in BUILTIN_OBJECT or w in known for w in words)


def _without_attributes(text: str) -> str | None:
    """`text` with every `__attribute__((…))`, `__declspec(…)`, `alignas(…)` and `[[…]]` removed
    (their parentheses balanced); None when one is left unclosed."""
    out = []
    at = 0
    for match in _ATTRIBUTE_START.finditer(text):
        if match.start() < at:
            continue  # inside the attribute just removed
        out.append(text[at : match.start()])
        if match.group(0) == "[[":
            end = text.find("]]", match.end())
            if end < 0:
                return None
            at = end + 2
            continue
        depth = 0
        for index in range(match.end() - 1, len(text)):  # from the opening parenthesis
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                at = index + 1
                break
        else:
            return None
    out.append(text[at:])
    return " ".join(out)


class Macros:
    """The macros to rewrite in one file: name -> replacement (object-like), and the function-like
    names (with their replacement). Empty replacements blank."""

    def __init__(self, objects: Mapping[str, str], functions: Mapping[str, str], data: bytes = b"") -> None:
        self.objects = dict(objects)
        self.functions = dict(functions)
        # Only the names the file spells outside its directives are searched for (most files spell
        # none: nothing to do; an include guard is an empty macro that only directives spell).
        # (most files spell no `__`: then no name that holds one is searched for)
        dunder = b"__" in data
        spelt = [n for n in {*self.objects, *self.functions} if (dunder or "__" not in n) and n.encode() in data]
        if spelt:
            directives = b"\n".join(m.group(0) for m in directive_matches(_DIRECTIVES, data))
            spelt = [n for n in spelt if data.count(n.encode()) > directives.count(n.encode())]
        self._pattern = _pattern(tuple(sorted(spelt, key=lambda n: (-len(n), n)))) if spelt else None

    def apply(self, data: bytes) -> bytes:
        """`data` with every use of the macros rewritten in place (directive lines untouched)."""
        if self._pattern is None:
            return data
        return self._pattern.sub(self._rewrite, data)

    def _rewrite(self, match: re.Match[bytes]) -> bytes:
        name = match.group("name")
        if name is None:
            return match.group(0)  # a preprocessor line
        text = name.decode()
        if text in self.functions:
            call = match.group("call")
            if call is None:
                return match.group(0)  # the name alone is not a use of a function-like macro
            return _fit(match.group(0), self.functions[text])
        whole = match.group(0)
        call = match.group("call") or b""
        return _fit(whole[: len(whole) - len(call)], self.objects[text]) + call


@lru_cache(maxsize=256)
def _pattern(names: tuple[str, ...]) -> re.Pattern[bytes]:
    """A directive line (kept as is), or a use of one of `names` with the argument list after it."""
    return re.compile(
        _DIRECTIVE_LINE
        + rb"|\b(?P<name>"
        + b"|".join(re.escape(n.encode()) for n in names)
        + rb")\b(?P<call>\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?",
        re.M,
    )


def _fit(original: bytes, value: str) -> bytes:
    """`value` in the place of `original`, padded with spaces (newlines of `original` kept), or all
    blanks when the value is longer (the caller chose only values it may drop)."""
    replacement = value.encode()
    blank = re.sub(rb"[^\n]", b" ", original)
    if len(replacement) > len(original) or b"\n" in original:
        return blank
    return replacement + blank[len(replacement) :]


def file_macros(
    path: str | None,
    data: bytes,
    include_dirs: tuple[str, ...] = (),
    defines: Mapping[str, str] | None = None,
    configured: Mapping[str, str] | None = None,
) -> Macros:
    """The macros to rewrite in `data`: built-in, the file's and its quoted headers' attribute-like
    `#define`s, the build's attribute-like `-D`s, and the configuration's (which win)."""
    objects: dict[str, str] = dict.fromkeys(BUILTIN_OBJECT, "")
    functions: dict[str, str] = dict.fromkeys(BUILTIN_FUNCTION, "")
    defined = _attribute_defines(data)
    if path is not None:
        seen: dict[tuple[str, int], dict[str, str]] = {}  # headers that include each other are read once
        for header in _quoted_headers(os.path.dirname(os.path.abspath(path)), data, include_dirs):
            macros = header_macros(header, seen=seen)
            defined.update({name: value for name, value in macros.items() if name not in defined})
    for name, value in defined.items():
        if name.endswith("()"):
            functions[name[:-2]] = ""
        else:
            objects[name] = "" if len(value) > len(name) else value
    for name, value in (defines or {}).items():
        if attribute_like(value, set(objects)):
            objects[name] = "" if len(value) > len(name) else value
    for key, value in (configured or {}).items():
        name, call = _key(key)
        fits = len(value) <= len(name) or attribute_like(value, set(objects))
        target = functions if call else objects
        if fits:
            target[name] = value if len(value) <= len(name) else ""
        else:
            target.pop(name, None)
    return Macros(objects, functions, data)


def _key(key: str) -> tuple[str, bool]:
    """`NAME` or `NAME(…)` (function-like) from a configuration key."""
    name, paren, _rest = key.partition("(")
    return name.strip(), bool(paren)


def _attribute_defines(data: bytes) -> dict[str, str]:
    """The file's `#define`s whose value is empty or only specifiers and attributes (a function-like
    one is keyed `NAME()`); a name defined twice with different such values is dropped."""
    if b"define" not in data:
        return {}
    found: dict[str, str] = {}
    dropped: set[str] = set()
    known = set(BUILTIN_OBJECT)
    for match in directive_matches(_DEFINE, data):
        name = match.group(1).decode()
        value = re.sub(r"\\\r?\n", " ", match.group(3).decode("utf-8", "replace")).strip()
        value = re.sub(r"/\*.*?\*/|//.*", " ", value).strip()
        key = f"{name}()" if match.group(2) is not None else name
        if not attribute_like(value, known) or (match.group(2) is not None and not value):
            dropped.add(key)  # a value macro, or a function-like one that expands to nothing (a call)
            continue
        if key in found and found[key] != value:
            dropped.add(key)
        found[key] = value
        known.add(name)
    return {k: v for k, v in found.items() if k not in dropped}


def _quoted_headers(directory: str, data: bytes, include_dirs: tuple[str, ...]) -> list[str]:
    """The quoted headers `data` includes that exist, resolved as the front-end resolves them."""
    if b"include" not in data:
        return []
    names = (m.group(1).decode("utf-8", "replace") for m in directive_matches(_INCLUDE, data))
    found = (_resolved(directory, include_dirs, name) for name in names)
    return [path for path in found if path is not None]


@lru_cache(maxsize=4096)
def _resolved(directory: str, include_dirs: tuple[str, ...], name: str) -> str | None:
    """Where `#include "name"` from `directory` leads (the files of one folder include the same few)."""
    for base in (directory, *include_dirs):
        candidate = os.path.join(base, name)
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    return None


def header_macros(
    path: str, _depth: int = 0, seen: dict[tuple[str, int], dict[str, str]] | None = None
) -> dict[str, str]:
    """The attribute-like `#define`s of a header and of the quoted headers it includes. `seen` keeps
    each (header, depth) already worked out in one file's lookup: headers that include one another
    would otherwise be walked again on every path to them, up to `_MAX_HEADER_DEPTH` levels deep."""
    seen = {} if seen is None else seen
    known = seen.get((path, _depth))
    if known is not None:
        return known
    try:
        stat = os.stat(path)
    except OSError:
        return {}
    found = dict(_own_macros(path, stat.st_size, stat.st_mtime_ns))
    if _depth < _MAX_HEADER_DEPTH:
        for header in _header_includes(path, stat.st_size, stat.st_mtime_ns):
            if header != path:
                for name, value in header_macros(header, _depth + 1, seen).items():
                    found.setdefault(name, value)
    seen[(path, _depth)] = found
    return found


@lru_cache(maxsize=2048)
def _own_macros(path: str, _size: int, _mtime: int) -> tuple[tuple[str, str], ...]:
    """A header's own attribute-like `#define`s (read once per process while it is unchanged)."""
    return tuple(_attribute_defines(_read(path)).items())


@lru_cache(maxsize=2048)
def _header_includes(path: str, _size: int, _mtime: int) -> tuple[str, ...]:
    """The quoted headers a header includes, resolved from its own folder."""
    return tuple(_quoted_headers(os.path.dirname(path), _read(path), ()))


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""
