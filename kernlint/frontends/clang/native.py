"""The libclang C functions the Python bindings do not wrap, declared once through ctypes.

`clang.cindex` exposes cursors and types but not the constant evaluator (`clang_Cursor_Evaluate`,
`clang_EvalResult_*`), the preprocessor's skipped ranges (`clang_getSkippedRanges`),
`clang_isInvalidDeclaration` nor `clang_Location_isFromMainFile`; the bundled library exports them
all. Declaring their signatures here keeps the ctypes details out of the analyses.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Any

from clang import cindex

_EVAL_INT = 1  # CXEval_Int


class _SourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(cindex.SourceRange))]


@lru_cache(maxsize=1)
def library() -> Any:
    """The loaded libclang with the signatures of the functions the Python bindings do not wrap."""
    lib = cindex.conf.lib
    lib.clang_Cursor_Evaluate.argtypes = [cindex.Cursor]
    lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getKind.restype = ctypes.c_int
    lib.clang_EvalResult_isUnsignedInt.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_isUnsignedInt.restype = ctypes.c_uint
    lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    lib.clang_EvalResult_getAsUnsigned.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsUnsigned.restype = ctypes.c_ulonglong
    lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_dispose.restype = None
    lib.clang_isInvalidDeclaration.argtypes = [cindex.Cursor]
    lib.clang_isInvalidDeclaration.restype = ctypes.c_uint
    lib.clang_Location_isFromMainFile.argtypes = [cindex.SourceLocation]
    lib.clang_Location_isFromMainFile.restype = ctypes.c_int
    lib.clang_getCursorLocation.argtypes = [cindex.Cursor]
    lib.clang_getCursorLocation.restype = cindex.SourceLocation
    lib.clang_getSkippedRanges.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.clang_getSkippedRanges.restype = ctypes.POINTER(_SourceRangeList)
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(_SourceRangeList)]
    lib.clang_disposeSourceRangeList.restype = None
    lib.clang_getCursorKindSpelling.argtypes = [ctypes.c_uint]
    lib.clang_getCursorKindSpelling.restype = cindex._CXString
    lib.clang_getCursorKind.argtypes = [cindex.Cursor]
    lib.clang_getCursorKind.restype = ctypes.c_uint
    return lib


def evaluate_int(cursor: cindex.Cursor) -> int | None:
    """The integer value clang's constant evaluator gives `cursor` (an expression, or a variable
    through its initialiser); None when it is not an integer constant."""
    lib = library()
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if lib.clang_EvalResult_getKind(result) != _EVAL_INT:
            return None
        if lib.clang_EvalResult_isUnsignedInt(result):
            return int(lib.clang_EvalResult_getAsUnsigned(result))
        return int(lib.clang_EvalResult_getAsLongLong(result))
    finally:
        lib.clang_EvalResult_dispose(result)


def in_main_file(cursor: cindex.Cursor) -> bool:
    """Whether a cursor is located in the main file (two C calls: cheaper than asking its file's name,
    which matters over the thousands of top-level declarations headers bring)."""
    lib = library()
    return bool(lib.clang_Location_isFromMainFile(lib.clang_getCursorLocation(cursor)))


def is_invalid_declaration(cursor: cindex.Cursor) -> bool:
    """Whether clang gave up on a declaration (an unknown type: its type is then a placeholder)."""
    return bool(library().clang_isInvalidDeclaration(cursor))


def skipped_ranges(tu: cindex.TranslationUnit, path: str) -> list[tuple[int, int]]:
    """Byte ranges of `path` the preprocessor skipped (inactive `#if`/`#ifdef` branches)."""
    lib = library()
    file = tu.get_file(path)
    found = lib.clang_getSkippedRanges(tu, file)
    if not found:
        return []
    try:
        listing = found.contents
        return [(listing.ranges[i].start.offset, listing.ranges[i].end.offset) for i in range(listing.count)]
    finally:
        lib.clang_disposeSourceRangeList(found)
