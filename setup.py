"""Build of the optional C entry point ``eslabon._engine._fastcall``
(src/eslabon/_engine/_fastcall.c).

Everything else is in pyproject.toml. The extension is optional: without a C compiler the
install still succeeds and the public functions call the numba kernels through the
dispatcher (slower per call, same results).
"""
import numpy
from setuptools import Extension, setup

setup(ext_modules=[Extension("eslabon._engine._fastcall", ["src/eslabon/_engine/_fastcall.c"],
                             include_dirs=[numpy.get_include()],
                             depends=["src/eslabon/_engine/layout.h"], optional=True)])
