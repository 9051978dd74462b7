"""How far a decimated mesh keeps the shape of the mesh it came from: both meshes' shadows
(silhouettes) seen from seven directions — along x, y, z and the four diagonals of a
cube — rasterised on the same square grid of pixels, and their agreement in each,
the intersection over union (Jaccard index) of the covered pixels,

    agreement = min over directions of #(S_original ∩ S_decimated) / #(S_original ∪ S_decimated),

1 for the same shadows, 0 for disjoint ones. A part lost (the UR5's forearm, a Go1's
calf) or triangles dropped from a surface (holes) shows as pixels of the original's
shadow that the decimated one lacks.

A pixel is covered when its centre lies inside a projected triangle (edge functions,
vectorised over the candidate pixels of each triangle's bounding box); the few triangles
whose bounding box spans more than :data:`LARGE_BOX` pixels are filled with Pillow's
polygon fill. The grid spans the original's shadow (its larger side, the other centred),
so both meshes are seen at the same scale.
"""

from __future__ import annotations

import numpy as np

#: the directions the shadows are cast along (normalised in use)
DIRECTIONS = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1],
                       [1, 1, 1], [1, -1, 1], [-1, 1, 1], [-1, -1, 1]], dtype=float)  # fmt: skip
#: pixels per side of the grid
RESOLUTION = 160
#: a triangle whose bounding box covers more pixels is filled by Pillow
LARGE_BOX = 64
#: the most (triangle, pixel) pairs tested at once
CHUNK = 2_000_000


def _screen(direction):
    """Two unit vectors spanning the plane normal to ``direction``, (3, 2)."""
    d = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    a = np.cross(d, [0.0, 0.0, 1.0] if abs(d[2]) < 0.9 else [1.0, 0.0, 0.0])
    a /= np.linalg.norm(a)
    return np.column_stack([a, np.cross(d, a)])


def _grid(vertices, direction, resolution):
    """(3, 2) projection, lower corner (2,), pixels per metre: the grid framing the
    shadow of ``vertices`` cast along ``direction``."""
    axes = _screen(direction)
    p = np.asarray(vertices, dtype=float) @ axes
    lo, hi = p.min(0), p.max(0)
    extent = max(float((hi - lo).max()), 1e-12) * (1 + 4 / resolution)  # 2 pixels' margin
    return axes, (lo + hi - extent) / 2, resolution / extent


def shadow(vertices, faces, grid, resolution: int = RESOLUTION) -> np.ndarray:
    """The pixels covered by the triangles ``faces`` (F, 3) of ``vertices`` (V, 3)
    projected on ``grid`` (:func:`_grid`), a (resolution, resolution) bool array."""
    axes, corner, scale = grid
    p = (np.asarray(vertices, dtype=float) @ axes - corner) * scale - 0.5  # pixel centres at k
    tri = p[np.asarray(faces, dtype=np.int64)]  # (F, 3, 2)
    out = np.zeros((resolution, resolution), dtype=bool)
    lo = np.clip(np.ceil(tri.min(1)), 0, resolution).astype(np.int64)
    hi = np.clip(np.floor(tri.max(1)), -1, resolution - 1).astype(np.int64)
    size = np.maximum(hi - lo + 1, 0)
    count = size[:, 0] * size[:, 1]
    large = count > LARGE_BOX
    small = np.flatnonzero(~large & (count > 0))
    start = 0
    while start < len(small):  # chunks of at most CHUNK pairs
        stop = start + max(1, int(np.searchsorted(np.cumsum(count[small[start:]]), CHUNK)))
        _fill_small(out, tri[small[start:stop]], lo[small[start:stop]],
                    size[small[start:stop]])  # fmt: skip
        start = stop
    if large.any():
        _fill_large(out, tri[large], resolution)
    return out


def _fill_small(out, tri, lo, size):
    """Mark the pixel centres inside each triangle, its bounding box's pixels tested."""
    n = size[:, 0] * size[:, 1]
    which = np.repeat(np.arange(len(tri)), n)
    k = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    x = lo[which, 0] + k % size[which, 0]
    y = lo[which, 1] + k // size[which, 0]
    a, b, c = tri[which, 0], tri[which, 1], tri[which, 2]

    def edge(p, q):  # the side of the pixel centre (x, y) from the edge p → q
        return (q[:, 0] - p[:, 0]) * (y - p[:, 1]) - (q[:, 1] - p[:, 1]) * (x - p[:, 0])

    e0, e1, e2 = edge(a, b), edge(b, c), edge(c, a)
    inside = ((e0 >= 0) & (e1 >= 0) & (e2 >= 0)) | ((e0 <= 0) & (e1 <= 0) & (e2 <= 0))
    out[y[inside], x[inside]] = True


def _fill_large(out, tri, resolution):
    from PIL import Image, ImageDraw

    image = Image.new("1", (resolution, resolution), 0)
    draw = ImageDraw.Draw(image)
    for corners in (tri + 0.0).reshape(-1, 6).tolist():
        draw.polygon(corners, fill=1)
    out |= np.asarray(image, dtype=bool)


class Silhouettes:
    """The shadows of a mesh from :data:`DIRECTIONS`, to compare meshes with.

    Parameters
    ----------
    vertices : array_like (V, 3)
    faces : array_like (F, 3) of int
    resolution : int
        Pixels per side of each shadow.

    Examples
    --------
    >>> import trimesh
    >>> box = trimesh.creation.box()
    >>> reference = Silhouettes(box.vertices, box.faces)
    >>> reference.agreement(box.vertices, box.faces)
    1.0
    >>> bool(reference.agreement(box.vertices, box.faces[:6]) < 0.9)  # half the box
    True
    """

    def __init__(self, vertices, faces, resolution: int = RESOLUTION):
        self.resolution = int(resolution)
        self.grids = [_grid(vertices, d, self.resolution) for d in DIRECTIONS]
        self.shadows = [shadow(vertices, faces, g, self.resolution) for g in self.grids]

    def scores(self, vertices, faces) -> list:
        """The agreement (intersection over union) of the shadows of ``vertices``,
        ``faces`` with these, one per direction."""
        out = []
        for grid, reference in zip(self.grids, self.shadows, strict=True):
            other = shadow(vertices, faces, grid, self.resolution)
            union = np.count_nonzero(reference | other)
            out.append(np.count_nonzero(reference & other) / union if union else 1.0)
        return out

    def agreement(self, vertices, faces) -> float:
        """The least agreement over the directions (:meth:`scores`), in [0, 1]."""
        return float(min(self.scores(vertices, faces)))
