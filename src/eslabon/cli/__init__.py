"""The ``eslabon`` command line."""
