"""``python -m sigkern``: the ``sigkern`` command line (see :mod:`sigkern.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
