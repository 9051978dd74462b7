"""Robot models: the frozen flat-array :class:`Model` and its front-ends."""

from .builder import ModelBuilder
from .dh import from_dh
from .files import load_model, save_model
from .model import DHTable, Frame, Model
from .urdf import UrdfInfo, from_urdf, read_urdf, to_urdf
from .variants import with_joint_friction, with_payload

__all__ = [
    "with_payload",
    "with_joint_friction",
    "Model",
    "Frame",
    "DHTable",
    "ModelBuilder",
    "from_dh",
    "load_model",
    "save_model",
    "from_urdf",
    "read_urdf",
    "to_urdf",
    "UrdfInfo",
]
