"""The model of a sweep travels by content, never by a path a worker re-reads.

A spec names a zoo model or a model file. When the spec is checked, a model file is read
once: its text goes into the spec (``model_text``) together with the sha256 of the model
(``model_sha256``). Every process that runs chunks builds the model from that text (or
from the zoo name), checks that it has the same sha256, and caches it by that hash. So an
edited model file can neither reach a worker that is still running the old sweep nor be
mixed into a resumed data set: the edit changes the spec's fingerprint.

The sha256 is taken over what the kernels use of a model: its packed body arrays and its
frames (name, body, placement). A zoo model is code, so its hash also catches a worker
whose eslabon builds that model differently.
"""

from __future__ import annotations

import functools
import hashlib
import tempfile
import warnings
from pathlib import Path

import numpy as np


def model_sha256(model) -> str:
    """sha256 (hex) of a model's packed arrays and frames: equal numbers, equal hash.
    Fields the packing derives from others (``FORK``, from the parents) are left out, so
    a data set started before they existed still resumes."""
    from .._engine.layout import FORK, HEADER, STRIDE

    P = np.ascontiguousarray(model.packed, dtype="<f8")
    h = hashlib.sha256()
    h.update(P[:HEADER].tobytes())
    h.update(np.delete(P[HEADER:].reshape(-1, STRIDE), FORK, axis=1).tobytes())
    if model.has_mimic:  # the coupling lives outside the packed array
        for key in ("mimic_joint", "mimic_multiplier", "mimic_offset"):
            h.update(np.ascontiguousarray(getattr(model, key), dtype="<f8").tobytes())
    for frame in model.frames:
        h.update(f"frame {frame.name} {int(frame.body)}".encode())
        h.update(np.ascontiguousarray(frame.rotation, dtype="<f8").tobytes())
        h.update(np.ascontiguousarray(frame.translation, dtype="<f8").tobytes())
    return h.hexdigest()


def read_model_source(ref: str, base: Path) -> tuple:
    """(model_ref, model_text, model) for the spec's ``model`` entry: a zoo name
    (``model_text`` None) or a model file relative to ``base`` (its absolute path and its
    text, read once; the file must not change while it is read)."""
    from .. import zoo
    from ..model.files import load_arm_model as load_model

    if ref in zoo.names():
        return ref, None, _tree_only(zoo.load(ref), ref)
    path = Path(ref) if Path(ref).is_absolute() else base / ref
    if not path.is_file():
        raise ValueError(f"model: {ref!r} is neither a zoo model nor a model file")
    path = path.resolve()
    before = path.read_bytes()
    try:
        text = before.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"model: {str(path)!r} is not UTF-8 text") from None
    model = load_model(path)
    if path.read_bytes() != before:
        raise ValueError(f"model: {str(path)!r} changed while it was read; run again")
    return str(path), text, _tree_only(model, ref)


def _tree_only(model, ref: str):
    """The model, refused when it carries constraints: a sweep's tasks (the compiled
    rollouts, the tree's inverse dynamics) do not take them yet."""
    if model.constraints:
        raise ValueError(
            f"model: {ref!r} has constraints (closed loops, contacts or wheels); sweeps run "
            "trees only for now: loop over eslabon.simulate, which takes them"
        )
    return model


def build_model(model_ref: str, model_text: str | None):
    """The model from a zoo name, or from a model file's text (loaded from a private
    temporary copy under the file's own name, so its name and format are the file's)."""
    from .. import zoo
    from ..model.files import load_arm_model as load_model

    if model_text is None:
        return zoo.load(model_ref)
    with tempfile.TemporaryDirectory(prefix="eslabon-model-") as folder:
        copy = Path(folder) / Path(model_ref).name
        copy.write_bytes(model_text.encode("utf-8"))
        return load_model(copy)


@functools.lru_cache(maxsize=8)
def cached_model(sha256: str, model_ref: str, model_text: str | None):
    """The model of a spec, built once per process and kept under its sha256; a model
    that does not hash to ``sha256`` is refused (ValueError) rather than used.
    Implausible-inertia warnings were shown when the spec was checked: not repeated."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = build_model(model_ref, model_text)
    found = model_sha256(model)
    if found != sha256:
        raise ValueError(
            f"model: {model_ref} builds a model with sha256 {found[:12]}… in this "
            f"process, the spec has {sha256[:12]}… (another eslabon version?)"
        )
    return model
