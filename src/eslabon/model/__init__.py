"""Robot models: the frozen flat-array :class:`Model` and its front-ends."""

from .builder import ModelBuilder
from .dh import from_dh
from .files import load_model, save_model
from .model import DHTable, Frame, Model
from .urdf import UrdfInfo, from_urdf, read_urdf, to_urdf

__all__ = [
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
