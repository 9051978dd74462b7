"""Robot models: the frozen flat-array :class:`Model` and its front-ends."""

from typing import TYPE_CHECKING

from .._engine.lazymodule import lazy_attributes
from .builder import ModelBuilder
from .coordinate_names import configuration_from_names
from .dh import from_dh
from .model import DHTable, Frame, Model
from .variants import with_joint_friction, with_payload

# the file front-ends (YAML, URDF, MJCF, XML, their file handling) are imported on first use:
# a process that builds its robot in code, or from the zoo, does not pay for them
_LAZY = {
    "save_model": ".file_writer",
    "UrdfInfo": ".urdf",
    "from_urdf": ".urdf",
    "read_urdf": ".urdf",
    "to_urdf": ".urdf",
    "read_mjcf": ".mjcf",
    "from_mjcf": ".mjcf",
    "MjcfInfo": ".mjcf",
    "MjcfWarning": ".mjcf",
    "read_manlag": ".manlag",
    "write_manlag": ".manlag",
    "ManlagInput": ".manlag",
}


_lazy_attribute = lazy_attributes(globals(), _LAZY)


def __getattr__(name: str) -> object:
    if name == "load_model":  # one load_model: eslabon.load_model reads either kind
        from .._deprecation import warn_renamed
        from .files import load_arm_model

        warn_renamed(
            "eslabon.model.load_model (arm files only)",
            "eslabon.load_model (arm and mobile-manipulator files)",
        )
        return load_arm_model
    return _lazy_attribute(name)


if TYPE_CHECKING:
    from .file_writer import save_model  # noqa: F401
    from .manlag import (  # noqa: F401
        ManlagInput,
        read_manlag,
        write_manlag,
    )
    from .mjcf import MjcfInfo, MjcfWarning, from_mjcf, read_mjcf  # noqa: F401
    from .urdf import UrdfInfo, from_urdf, read_urdf, to_urdf  # noqa: F401

__all__ = [
    "configuration_from_names",
    "with_payload",
    "with_joint_friction",
    "Model",
    "Frame",
    "DHTable",
    "ModelBuilder",
    "from_dh",
    "save_model",
    "from_urdf",
    "read_urdf",
    "to_urdf",
    "UrdfInfo",
    "read_mjcf",
    "from_mjcf",
    "MjcfInfo",
    "MjcfWarning",
    "read_manlag",
    "write_manlag",
    "ManlagInput",
]
