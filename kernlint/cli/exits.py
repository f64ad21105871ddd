"""The command line's exit codes (docs/contract.md §1); an interruption exits 128 + the signal's
number (`kernlint.interrupts.exit_code`)."""

EXIT_OK = 0  # nothing at or above the failing severity
EXIT_FINDINGS = 1  # findings
EXIT_ERROR = 2  # usage, configuration or internal error
