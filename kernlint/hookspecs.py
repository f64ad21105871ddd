"""The whole plugin surface of kernlint.

A plugin is a module (or object) with functions decorated by `kernlint.hookimpl`, registered through
the `kernlint` entry-point group:

    [project.entry-points.kernlint]
    my-rules = "my_package.kernlint_plugin"

kernlint's own rules are registered exactly this way (the `kernlint_rules` package, `rules/kernlint_rules/`).
A plugin that fails to import, or whose hook raises or returns something that is not a rule, is
reported and skipped; the other plugins still run.
"""

# A hook specification is a signature and its documentation; pluggy never runs its body.
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "kernlint"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def kernlint_rules() -> list[type]:
    """Return rule classes (subclasses of `kernlint.rule.Rule`) this plugin provides.

    Codes must be unique across all plugins; a duplicate code is reported and the later rule skipped.
    """


@hookspec
def kernlint_devices() -> list[Any]:
    """Return device profiles this plugin provides: `kernlint.occupancy.DeviceProfile` objects or
    paths to device TOML files. They become selectable with `--device ID`."""


@hookspec
def kernlint_rule_catalog() -> list[dict[str, Any]] | None:
    """Optional: the metadata of the rules `kernlint_rules()` returns, without importing them, one
    dict per rule with the fields `kernlint rule --output-format json` prints (less `url`).

    `kernlint rule` reads it instead of importing every rule module (and what they import). A plugin
    without it, or whose hook returns None, has its rules imported for their metadata instead.
    """
