"""The frame the benchmarks time and its Pinocchio twin: the per-call and batch sections'
frame rows (Jacobian, pose, J̇q̇) share them."""

from __future__ import annotations


def frame_name(model) -> str:
    """The frame the per-call Jacobian and pose rows time: ``ee``, else the last body."""
    return "ee" if any(f.name == "ee" for f in model.frames) else model.body_names[-1]


def pin_frame(pin, pm, model, name):
    """(model, data, frame id) of the Pinocchio twin with ``name`` added as an operational
    frame at the same place on the same body."""
    fr = model.frame(name)
    body_id = pm.getFrameId(f"body_{fr.body}_{model.body_names[fr.body]}")
    body = pm.frames[body_id]
    placement = body.placement * pin.SE3(fr.rotation, fr.translation)
    frame = pin.Frame("eslabon_" + name, body.parentJoint, body_id, placement, pin.OP_FRAME)
    fid = pm.addFrame(frame)
    return pm, pm.createData(), fid


def pin_bias_call(pin, pm, data, fid, zero):
    """Pinocchio's J̇q̇ of frame ``fid``: the classical acceleration at q̈ = 0, world axes,
    from its two calls (the pass at a = 0, then the frame's acceleration)."""
    forward, classical, lwa = (
        pin.forwardKinematics,
        pin.getFrameClassicalAcceleration,
        pin.LOCAL_WORLD_ALIGNED,
    )

    def pin_bias(qp, qdp):
        forward(pm, data, qp, qdp, zero)
        return classical(pm, data, fid, lwa)

    return pin_bias
