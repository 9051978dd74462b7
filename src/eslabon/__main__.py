"""``python -m eslabon``: the ``eslabon`` command (e.g. ``python -m eslabon warmup``)."""

from .cli.main import run

run()
