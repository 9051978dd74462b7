"""``python -m eslabon.bench``: the speed benchmark (see ``eslabon.bench``)."""

import sys

from . import main

sys.exit(main())
