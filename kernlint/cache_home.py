"""Where the result cache lives, and the key that makes an index count only where this user wrote it.

A cached index says "this file has no findings" without the file being analysed, so whoever can
write one can switch the linter off. An index kept in the project would come with a repository, a
pull request or a tarball; so indexes live in the user's cache directory (`$XDG_CACHE_HOME/kernlint`,
else `~/.cache/kernlint`; `%LOCALAPPDATA%\\kernlint\\cache` on Windows), one folder per project root.
And every index is signed (HMAC-SHA256) with a random key kept there, readable by its owner only: an
index copied from another machine or user, or edited, does not verify and counts as empty. The key
never moves with the indexes, so a cache folder named elsewhere (inside a repository, say) is as
safe: its indexes still verify only against this user's key.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
from functools import lru_cache
from pathlib import Path

KEY_NAME = "key"
_KEY_BYTES = 32
_PRIVATE_DIRECTORY = 0o700


def cache_home() -> Path | None:
    """The user's kernlint cache directory (not created here); None when the user has no home."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(configured):  # the XDG spec: a relative value is to be ignored
        return Path(configured) / "kernlint"
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "kernlint" / "cache"
    home = os.path.expanduser("~")
    return Path(home) / ".cache" / "kernlint" if os.path.isabs(home) else None


def project_dir(root: str, home: Path) -> Path:
    """The folder of one project's indexes in `home`, named by a digest of the project root's real path."""
    name = hashlib.sha256(os.path.realpath(root).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return home / "projects" / name


class Signer:
    """Signs and verifies index bodies with the user's key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def sign(self, body: bytes | memoryview) -> bytes:
        """The signature of `body`, in hex."""
        return hmac.new(self._key, body, hashlib.sha256).hexdigest().encode("ascii")

    def verifies(self, body: bytes | memoryview, signature: bytes) -> bool:
        return hmac.compare_digest(self.sign(body), signature)


@lru_cache(maxsize=4)
def signer(home: Path) -> Signer | None:
    """The signer of the key in `home` (made on first use), or None when no private key can be had
    (an unwritable home, say): the cache is then off."""
    key = user_key(home)
    return None if key is None else Signer(key)


def user_key(home: Path) -> bytes | None:
    """The key in `home`: created when missing, replaced when others could read or change it."""
    path = home / KEY_NAME
    key = _private_key(path)
    if key is not None:
        return key
    try:
        home.mkdir(mode=_PRIVATE_DIRECTORY, parents=True, exist_ok=True)
        _install_new_key(path)
    except OSError:
        return None
    return _private_key(path)


def _private_key(path: Path) -> bytes | None:
    """The key at `path` if it is a regular file of the right size that only its owner, this user,
    can read and write; None otherwise (missing, a link, shared, someone else's)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(handle.fileno())
        data = handle.read(_KEY_BYTES + 1)
    if not stat.S_ISREG(status.st_mode) or len(data) != _KEY_BYTES:
        return None
    if os.name != "nt" and (status.st_uid != os.getuid() or status.st_mode & 0o077):
        return None
    return data


def _install_new_key(path: Path) -> None:
    """Write a fresh key beside `path` (mode 0600) and put it in place: next to nothing when there
    is none yet (two runs starting at once then agree on the first), over a key that is unfit."""
    import secrets  # only the first run of a user makes a key: no other run pays for these imports
    import tempfile

    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".key.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(secrets.token_bytes(_KEY_BYTES))
        try:
            os.link(temporary, path)
        except FileExistsError:
            if _private_key(path) is None:
                os.replace(temporary, path)
        except OSError:  # a file system without hard links
            os.replace(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
