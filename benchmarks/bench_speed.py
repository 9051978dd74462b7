#!/usr/bin/env python
"""Speed benchmark of eslabon, optionally side by side with Pinocchio.

A thin wrapper around ``eslabon.bench`` (the same as ``eslabon bench``)::

    python benchmarks/bench_speed.py --against pin [--json PATH] [--markdown PATH] [--quick]
"""

import os
import sys

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before numpy is imported

from eslabon.bench import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
