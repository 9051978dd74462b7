"""Sphinx configuration of the API reference (built by ``make docs``, warnings as errors)."""

project = "eslabon"
author = "the eslabon developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_param = False  # parameter types as text: shapes like (K, n) are not names
napoleon_use_ivar = True  # "Attributes" as fields, not a second description
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # the docstrings state types and shapes
autodoc_default_options = {"members": True, "undoc-members": False}
default_role = "code"  # `x` in a docstring is code, as in numpydoc
html_theme = "alabaster"
html_title = "eslabon API reference"
exclude_patterns = ["_build"]
