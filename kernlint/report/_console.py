"""Where the text report writes: a `rich` console when the output may be coloured, else plain lines.

Written to a file or a pipe (CI logs, `| head`, `-o`), the report carries no escape codes, and `rich`
would only cost its import and a render per line. The plain writer writes what `rich` writes there,
byte for byte (tests/test_plain_console.py checks it against `rich`): the characters `rich` drops
from any text it is given, tabs widened to stops every 8 cells, one line per print, and, when the
reader goes away, the same quiet end (the rest to the null device, exit status 1).
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from rich.console import Console

Part = tuple[str, "str | None"]  # a piece of text and the rich style it is drawn in (None: plain)
Styled = list[Part]

# What `rich.text.Text` removes from every string it holds (bell, backspace, vertical tab, form feed,
# carriage return: `rich.control.STRIP_CONTROL_CODES`).
_STRIPPED = {code: None for code in (7, 8, 11, 12, 13)}
_ANY_STRIPPED = re.compile("[\a\b\v\f\r]")
_RICH_TAB_SIZE = 8  # rich's Console default


def strip_controls(text: str) -> str:
    # (`translate` looks every character up, about 10 µs for a finding's line that is not ASCII:
    # searched first, as almost no text holds one)
    return text.translate(_STRIPPED) if _ANY_STRIPPED.search(text) else text


_ONE_CELL_EACH = re.compile(r"[ -~]*")  # printable ASCII: one terminal cell per character


def cell_width(text: str) -> int:
    """How many terminal cells `text` takes (`rich.cells.cell_len`, imported only for text that is
    not printable ASCII, for which it counts one cell per character)."""
    if _ONE_CELL_EACH.fullmatch(text):
        return len(text)
    from rich.cells import cell_len

    return cell_len(text)


class Out(Protocol):
    """What the text report prints through."""

    width: int

    def styled(self, parts: Styled) -> None:
        """One or more lines made of styled parts."""

    def line(self, text: str = "", style: str | None = None) -> None:
        """One or more lines of text in one style."""

    def console(self) -> Console:
        """A `rich` console on the same stream (the statistics table)."""

    def close(self) -> None:
        """Everything printed has reached the stream."""


def out_for(stream: TextIO, color: bool | None, width: int | None) -> Out:
    """The writer for `stream`: plain where `rich` would write no escape codes, else `rich`'s console."""
    if width is not None and (color is False or (color is None and not _rich_would_colour(stream))):
        return PlainOut(stream, width)
    return RichOut(rich_console(stream, color, width))


def _rich_would_colour(stream: TextIO) -> bool:
    """Whether `rich`, left to decide (`Console.is_terminal`), would treat `stream` as a terminal; in
    Jupyter it is always left to decide."""
    if hasattr(builtins, "get_ipython"):
        return True
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream: rich says no terminal
        return False


def rich_console(stream: TextIO, color: bool | None, width: int | None) -> Console:
    """A console that colours exactly when asked, or by default as `rich` decides from the stream."""
    from rich.console import Console

    if color is None:  # rich decides from the stream and NO_COLOR / FORCE_COLOR
        modes: dict[str, Any] = {"force_terminal": None, "no_color": None, "color_system": "auto"}
    elif color:  # an explicit request colours even a pipe or TERM=dumb
        modes = {"force_terminal": True, "no_color": False, "color_system": "standard"}
    else:
        modes = {"force_terminal": False, "no_color": True, "color_system": None}
    return Console(file=stream, width=width, markup=False, highlight=False, emoji=False, **modes)


class RichOut:
    def __init__(self, console: Console) -> None:
        self._console = console
        self.width = console.width

    def styled(self, parts: Styled) -> None:
        from rich.text import Text

        text = Text()
        for piece, style in parts:
            text.append(piece, style=style)
        self._console.print(text, soft_wrap=True)

    def line(self, text: str = "", style: str | None = None) -> None:
        if text:
            self._console.print(text, style=style, soft_wrap=True)
        else:
            self._console.print()

    def console(self) -> Console:
        return self._console

    def close(self) -> None:
        """rich has written and flushed each print."""


class PlainOut:
    def __init__(self, stream: TextIO, width: int) -> None:
        self._stream = stream
        self.width = width
        self._console: Console | None = None

    def styled(self, parts: Styled) -> None:
        self._write("".join(piece for piece, _style in parts))

    def line(self, text: str = "", style: str | None = None) -> None:
        self._write(text)

    def _write(self, text: str) -> None:
        text = strip_controls(text)
        if "\t" in text:
            text = "\n".join(_expand_tabs(line) for line in text.split("\n"))
        self._guarded(self._stream.write, text + "\n")

    def console(self) -> Console:
        if self._console is None:
            self._guarded(self._stream.flush)  # what was printed plainly goes first
            self._console = rich_console(self._stream, False, self.width)
        return self._console

    def close(self) -> None:
        self._guarded(self._stream.flush)

    def _guarded(self, action: Any, *args: Any) -> None:
        """As `rich.console.Console.on_broken_pipe`: a reader that went away sends the rest of the
        output to the null device and ends the run with status 1."""
        try:
            action(*args)
        except BrokenPipeError:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            raise SystemExit(1) from None


def _expand_tabs(line: str) -> str:
    """`rich.text.Text.expand_tabs`: each tab becomes a space and then spaces up to the next multiple
    of 8 cells, cells counted per tab-ended piece as rich counts them."""
    if "\t" not in line:
        return line
    pieces = line.split("\t")
    out: list[str] = []
    position = 0
    for piece in pieces[:-1]:
        piece += " "
        position += cell_width(piece)
        remainder = position % _RICH_TAB_SIZE
        if remainder:
            piece += " " * (_RICH_TAB_SIZE - remainder)
            position += _RICH_TAB_SIZE - remainder
        out.append(piece)
    out.append(pieces[-1])
    return "".join(out)
