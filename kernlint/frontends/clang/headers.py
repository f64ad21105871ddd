"""Which headers libclang reads besides the file's own: a SYCL implementation and the compiler's
resource headers, from an installation when one is found, else the minimal ones kernlint ships.

The PyPI libclang wheel has no resource directory (`stddef.h`, `stdarg.h`, `limits.h`, …) and a
machine without a SYCL toolkit has no `sycl/sycl.hpp`; without them libclang stops at the first
include or drops every kernel lambda. kernlint's own headers (`include/`, `resource/`, package data)
are declarations only: enough for the AST of kernel code, nothing that could run.
"""

from __future__ import annotations

import glob
import os
import re
from functools import lru_cache
from importlib import resources

# Where SYCL implementations put their headers (DPC++ / oneAPI, AdaptiveCpp), newest first.
_SYCL_INSTALLS = (
    "/opt/intel/oneapi/compiler/latest/include",
    "/opt/intel/oneapi/compiler/latest/linux/include",
    "/opt/adaptivecpp/include/AdaptiveCpp",
    "/usr/local/include/AdaptiveCpp",
    "/opt/hipSYCL/include/AdaptiveCpp",
)
# Where compilers put their resource headers (clang's own; a system clang of any version).
_RESOURCE_GLOBS = ("/usr/lib/llvm-*/lib/clang/*/include", "/usr/lib/clang/*/include", "/usr/local/lib/clang/*/include")


def _shipped(name: str) -> str:
    return str(resources.files("kernlint.frontends.clang").joinpath(name))


@lru_cache(maxsize=1)
def resource_dir() -> tuple[str, bool]:
    """A directory holding `stddef.h` for libclang, and whether it is kernlint's own minimal one."""
    for pattern in _RESOURCE_GLOBS:
        found = sorted(p for p in glob.glob(pattern) if os.path.isfile(os.path.join(p, "stddef.h")))
        if found:
            return found[-1], False
    return _shipped("resource"), True


@lru_cache(maxsize=1)
def installed_sycl() -> str | None:
    """The include directory of an installed SYCL implementation (`SYCL_INCLUDE_DIR`, then the usual
    install places), or None."""
    candidates = [os.environ.get("SYCL_INCLUDE_DIR", ""), *_SYCL_INSTALLS]
    root = os.environ.get("CMPLR_ROOT") or os.environ.get("ONEAPI_ROOT")
    if root:
        candidates.insert(1, os.path.join(root, "include"))
    for directory in candidates:
        if directory and os.path.isfile(os.path.join(directory, "sycl", "sycl.hpp")):
            return directory
    return None


def shipped_sycl() -> str:
    """kernlint's declaration-only SYCL headers (`sycl/sycl.hpp`, `CL/sycl.hpp`)."""
    return _shipped("include")


def _has_sycl(include_dirs: tuple[str, ...]) -> bool:
    return any(
        os.path.isfile(os.path.join(d, "sycl", "sycl.hpp")) or os.path.isfile(os.path.join(d, "CL", "sycl.hpp"))
        for d in include_dirs
    )


def sycl_dir(include_dirs: tuple[str, ...]) -> str | None:
    """The SYCL include directory kernlint adds: None when the file's own flags already have one."""
    return None if _has_sycl(include_dirs) else installed_sycl() or shipped_sycl()


def header_args(include_dirs: tuple[str, ...], uses_sycl: bool) -> list[str]:
    """The include arguments to add to a file's own: the resource headers, and SYCL headers unless
    the file's flags already name a directory that has them. Appended with `-isystem`, so the
    file's own `-I`/`-isystem` directories are searched first. A file that names SYCL gets the
    SYCL header forced in: fragments `#include`d into another file's kernels rely on their includer's."""
    directory, _ours = resource_dir()
    args = ["-isystem", directory]
    sycl = sycl_dir(include_dirs)
    if sycl is not None:
        args += ["-isystem", sycl]
    if sycl != shipped_sycl():  # last in the search: where stand-ins for missing `<…>` headers go
        args += ["-isystem", shipped_sycl()]
    if uses_sycl:
        args += ["-include", "sycl/sycl.hpp"]
    return args


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_SYCL_HEADER_PREFIXES = ("sycl/", "CL/", "oneapi/", "dpct/")
_SYSTEM_DIRS = ("/usr/include", "/usr/local/include")
_MAX_STAND_IN_DEPTH = 4


def stand_ins(path: str, data: bytes, include_dirs: tuple[str, ...], sycl_dir: str | None) -> list[str]:
    """Paths of headers the file (or a project header it includes) names but that do not exist here:
    a project header the copy at hand lacks, or a SYCL extension header kernlint does not ship.

    libclang stops at a missing include, losing the rest of the file; an empty stand-in at the path
    the include would be looked up first lets it parse on (what the header declared stays unknown,
    which costs only the statements that use it)."""
    missing: list[str] = []
    seen: set[str] = set()
    pending = [(os.path.abspath(path), data, 0)]
    while pending:
        including, text, depth = pending.pop()
        here = os.path.dirname(including)
        for kind, raw in _INCLUDE.findall(text):
            name = raw.decode("utf-8", "replace").strip()
            quoted = kind == b'"'
            if not quoted and not name.startswith(_SYCL_HEADER_PREFIXES):
                continue  # a system header: the compiler's search finds it or the file is not C++ we read
            search = ([here] if quoted else []) + list(include_dirs) + ([sycl_dir] if sycl_dir else [])
            found = next((os.path.join(d, name) for d in search if os.path.isfile(os.path.join(d, name))), None)
            if found is None and any(os.path.isfile(os.path.join(d, name)) for d in _SYSTEM_DIRS):
                continue
            if found is None:
                stand_in = os.path.normpath(os.path.join(here if quoted or not sycl_dir else sycl_dir, name))
                if stand_in not in seen:
                    seen.add(stand_in)
                    missing.append(stand_in)
            elif quoted and depth < _MAX_STAND_IN_DEPTH and found not in seen:
                seen.add(found)
                try:
                    with open(found, "rb") as handle:
                        pending.append((os.path.abspath(found), handle.read(), depth + 1))
                except OSError:
                    continue
    return missing
