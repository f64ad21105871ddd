"""`python -m kernlint` is the `kernlint` command."""

import sys

from kernlint.cli import main

sys.exit(main())
