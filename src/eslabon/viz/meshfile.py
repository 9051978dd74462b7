"""Reading a mesh file for the HTML viewer from its bytes alone, within bounds
(docs/viewer.md, "Where meshes come from"): the file is read through
:func:`eslabon._files.read_regular` (a regular file, no link followed, no wait on a
FIFO, the file checked), its content checked before any parser runs (no archive; Collada
in UTF-8 without a DOCTYPE, its triangles times their placements counted with expat; glTF
self-contained, its images dropped), then read by trimesh without a resolver, and only
the placed triangles kept.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import numpy as np

#: the largest mesh file read [bytes]
MAX_FILE_BYTES = 32 * 2**20
#: the most triangles a mesh file may unfold to when read (a Collada or glTF scene places
#: its geometries many times over), before decimation
MAX_READ_FACES = 2_000_000
#: the mesh files read, by extension: trimesh's name of the format
MESH_TYPES = {".stl": "stl", ".obj": "obj", ".dae": "dae", ".gltf": "gltf", ".glb": "glb"}
#: the first bytes of archives and compressed streams (ZIP, gzip, bzip2, xz, zstd, 7z, RAR)
COMPRESSED = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08", b"\x1f\x8b", b"BZh",
              b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd", b"7z\xbc\xaf\x27\x1c", b"Rar!")  # fmt: skip


def refuse(filename: str, rule: str) -> ValueError:
    """The error for the mesh ``filename`` (as the URDF names it) broken ``rule``."""
    return ValueError(f"mesh {filename!r}: {rule}")


def _read_file(path: Path, filename: str, max_bytes: int, identity=None) -> bytes:
    """The bytes of the regular file ``path`` (resolved), at most ``max_bytes``:
    :func:`eslabon._files.read_regular` (no link followed, no wait on a FIFO, checked again
    once open), and when ``identity`` (st_dev, st_ino) is given, the file opened must be
    the one checked then (a folder on the way swapped for a link since is refused)."""
    from .._files import UnsafeFileError, read_regular

    try:
        return read_regular(path, max_bytes, what="mesh file (max_file_bytes)", expect=identity)
    except UnsafeFileError as exc:
        raise refuse(filename, str(exc)) from None
    except OSError as exc:
        raise refuse(filename, f"cannot open {path} ({exc.strerror})") from None


#: byte-order marks of encodings other than UTF-8 (UTF-16, UTF-32, UTF-7, UTF-1,
#: UTF-EBCDIC, SCSU, BOCU-1, GB 18030)
OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"+/v", b"\xf7\x64\x4c",
              b"\xdd\x73\x66\x73", b"\x0e\xfe\xff", b"\xfb\xee\x28",
              b"\x84\x31\x95\x33")  # fmt: skip
#: Collada primitives trimesh (pycollada) turns into triangles, and those it may one day
#: (counted too, to be safe)
TRIANGLE_PRIMITIVES = {"triangles", "polylist", "polygons", "tristrips", "trifans"}


def _check_content(data: bytes, kind: str, filename: str) -> None:
    """Refuse archives, Collada not in UTF-8 or with a DOCTYPE (entities), glTF naming
    other files."""
    if data.startswith(COMPRESSED):
        raise refuse(filename, "an archive or compressed file (refused: only plain mesh "
                      "files are read)")  # fmt: skip
    if kind == "dae":
        _check_collada_text(data, filename)
    elif kind in ("gltf", "glb"):
        head, _ = _gltf_json(data, kind, filename)
        for group in ("buffers", "images"):
            for item in head.get(group, []) if isinstance(head.get(group), list) else []:
                uri = item.get("uri") if isinstance(item, dict) else None
                if uri is not None and not str(uri).startswith("data:"):
                    raise refuse(filename, f"a glTF naming an external file {uri!r} "
                                  "(refused: only self-contained glTF is read)")  # fmt: skip


def _check_collada_text(data: bytes, filename: str) -> None:
    """UTF-8 only (no other byte-order mark, every byte valid UTF-8, an XML declaration
    naming no other encoding), so that the byte search for ``<!DOCTYPE`` sees what an
    XML parser sees; and no DOCTYPE or ENTITY."""
    not_utf8 = "a Collada file not in UTF-8 (refused)"
    if data.startswith(OTHER_BOMS) or b"\0" in data[:4096]:
        raise refuse(filename, not_utf8)
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        raise refuse(filename, not_utf8) from None
    if re.match(rb"<\?xml\s", body):
        declaration = re.match(rb"<\?xml\s([^<>?]*)\?>", body)
        if declaration is None:
            raise refuse(filename, "a Collada file with a malformed XML declaration (refused)")
        encoding = re.search(rb"encoding\s*=\s*([\"'])(.*?)\1", declaration.group(1))
        if encoding and encoding.group(2).lower() != b"utf-8":
            named = encoding.group(2).decode("ascii", "replace")
            raise refuse(filename, f"a Collada file declaring the encoding {named!r} "
                          "(refused: only UTF-8 is read)")  # fmt: skip
    lower = data.lower()
    if b"<!doctype" in lower or b"<!entity" in lower:
        raise refuse(filename, "a Collada file with a <!DOCTYPE> or <!ENTITY> "
                      "(refused: entities can read other files)")  # fmt: skip


def collada_triangles(data: bytes, filename: str = "mesh.dae") -> int:
    """An upper bound of the triangles trimesh places reading the Collada file ``data``
    (checked by :func:`_check_collada_text`), counted with the standard library's expat
    before trimesh runs: per ``<geometry>``, the vertex references of its ``<p>`` lists
    (each triangle takes three, each polygon of n corners makes n − 2), times the times
    it is placed — ``<instance_geometry>`` in a ``<node>``, nodes nested and placed again
    by ``<instance_node>``, all ``<visual_scene>``\\ s together.

    Raises
    ------
    ValueError
        Not well-formed XML; a node that places itself.
    """
    from xml.parsers import expat

    geometry: dict[str, int] = {}  # id: triangles
    content: dict[str, dict] = {}  # node or scene key: {("g" | "n", id): times}
    scenes: list[str] = []
    containers: list[str] = []  # the nodes and scene open, innermost last
    state = {"geometry": None, "stride": 1, "tokens": 0, "in_p": False, "word": False}
    anonymous = iter(range(1 << 62))

    def key(attrs, kind):
        found = attrs.get("id")
        return f"{kind}:{found}" if found else f"{kind}#{next(anonymous)}"

    def place(ref):
        if containers:
            inside = content.setdefault(containers[-1], {})
            inside[ref] = inside.get(ref, 0) + 1

    def start(name, attrs):
        name = name.rpartition(":")[2]
        url = attrs.get("url", "")
        if name == "geometry":
            state["geometry"] = key(attrs, "g")
            geometry.setdefault(state["geometry"], 0)
        elif name in TRIANGLE_PRIMITIVES:
            state.update(stride=1, tokens=0)
        elif name == "input" and state["geometry"]:
            with contextlib.suppress(ValueError):
                state["stride"] = max(state["stride"], int(attrs.get("offset", 0)) + 1)
        elif name in ("p", "h") and state["geometry"]:
            state.update(in_p=True, word=False)
        elif name in ("node", "visual_scene"):
            own = key(attrs, "n" if name == "node" else "s")
            if name == "node":
                place(("n", own))  # placed once per placement of its parent
            else:
                scenes.append(own)
            content.setdefault(own, {})
            containers.append(own)
        elif name == "instance_geometry" and url.startswith("#"):
            place(("g", "g:" + url[1:]))
        elif name == "instance_node" and url.startswith("#"):
            place(("n", "n:" + url[1:]))

    def end(name):
        name = name.rpartition(":")[2]
        if name in ("p", "h"):
            state["in_p"] = False
        elif name in TRIANGLE_PRIMITIVES and state["geometry"]:
            per = 3 if name == "triangles" else 1  # an n-gon, strip or fan: < n triangles
            geometry[state["geometry"]] += -(-state["tokens"] // (per * state["stride"]))
        elif name == "geometry":
            state["geometry"] = None
        elif name in ("node", "visual_scene") and containers:
            containers.pop()

    def text(chunk):
        if state["in_p"] and chunk:
            words = len(chunk.split())
            if state["word"] and not chunk[0].isspace():
                words -= 1  # a number split across two chunks
            state["tokens"] += words
            state["word"] = not chunk[-1].isspace()

    parser = expat.ParserCreate()
    parser.buffer_text, parser.buffer_size = True, 1 << 20
    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise refuse(filename, f"not a Collada file (XML: {exc})") from None
    return sum(_placed_triangles(scene, content, geometry, filename) for scene in scenes)


def _placed_triangles(top: str, content: dict, geometry: dict, filename: str) -> int:
    """Triangles under one placement of the node or scene ``top`` (depth first, each
    node's count once)."""
    done: dict[str, int] = {}
    open_, stack = set(), [(top, False)]
    while stack:
        node, finished = stack.pop()
        if finished:
            open_.discard(node)
            done[node] = sum(times * (geometry.get(ref, 0) if kind == "g" else done[ref])
                             for (kind, ref), times in content.get(node, {}).items())  # fmt: skip
        elif node not in done:
            open_.add(node)
            stack.append((node, True))
            for kind, ref in content.get(node, {}):
                if kind == "n" and ref not in done:
                    if ref in open_:
                        raise refuse(filename, f"a Collada node {ref[2:]!r} that places "
                                      "itself (refused)")  # fmt: skip
                    stack.append((ref, False))
    return done[top]


def _gltf_json(data: bytes, kind: str, filename: str):
    """(the JSON of a glTF or GLB file, the GLB's chunks after it or b"")."""
    try:
        if kind == "glb":
            if data[:4] != b"glTF" or len(data) < 20 or data[16:20] != b"JSON":
                raise ValueError("no JSON chunk")
            end = 20 + int.from_bytes(data[12:16], "little")
            head, rest = json.loads(data[20:end]), data[end:]
        else:
            head, rest = json.loads(data), b""
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise refuse(filename, f"not a {kind} file") from None
    if not isinstance(head, dict):
        raise refuse(filename, f"not a {kind} file")
    return head, rest


def _gltf_without_images(data: bytes, kind: str, filename: str) -> bytes:
    """The glTF or GLB file without its materials, textures, samplers and images (the
    viewer draws the URDF's colours), so that no image is ever decoded."""
    head, rest = _gltf_json(data, kind, filename)
    for group in ("images", "textures", "samplers", "materials"):
        head.pop(group, None)
    for mesh in head.get("meshes") if isinstance(head.get("meshes"), list) else []:
        primitives = mesh.get("primitives") if isinstance(mesh, dict) else None
        for primitive in primitives if isinstance(primitives, list) else []:
            if isinstance(primitive, dict):
                primitive.pop("material", None)
    text = json.dumps(head).encode()
    if kind == "gltf":
        return text
    text += b" " * (-len(text) % 4)
    body = len(text).to_bytes(4, "little") + b"JSON" + text + rest
    return data[:8] + (12 + len(body)).to_bytes(4, "little") + body


def read_mesh(path: Path, filename: str, max_file_bytes: int = MAX_FILE_BYTES, identity=None):
    """(vertices (V, 3) float64, faces (F, 3) int64) of a mesh file, read from its bytes
    alone: nothing it names (OBJ materials, glTF buffers, Collada images) is opened, and
    no image is decoded (glTF materials and images are dropped before reading; Collada
    textures would need a file). ``identity``, (st_dev, st_ino) when the path was
    checked: the file opened must be that one.

    Raises
    ------
    ValueError
        Not a regular file (or not the one checked); larger than ``max_file_bytes``; an
        archive; a Collada file not in UTF-8 or with a DOCTYPE; a glTF with an external
        buffer or image; not readable as its type, or without triangles; unfolding to
        more than :data:`MAX_READ_FACES` triangles (a Collada file is counted before
        trimesh reads it: :func:`collada_triangles`).
    """
    kind = MESH_TYPES.get(Path(filename).suffix.lower()) or MESH_TYPES.get(path.suffix.lower())
    data = _read_file(path, filename, max_file_bytes, identity)
    _check_content(data, kind, filename)
    if kind == "dae":
        placed = collada_triangles(data, filename)
        if placed > MAX_READ_FACES:
            raise refuse(filename, f"places {placed} triangles (its geometries times the "
                          f"times each is placed), more than the {MAX_READ_FACES} a mesh "
                          "file may have (refused before reading)")  # fmt: skip
    elif kind in ("gltf", "glb"):
        data = _gltf_without_images(data, kind, filename)
    try:
        import trimesh
    except ImportError:
        raise refuse(
            filename, "reading meshes needs trimesh (pip install 'eslabon[viz]')"
        ) from None
    try:  # no resolver: whatever the file names is not read
        loaded = trimesh.load(io.BytesIO(data), file_type=kind, force="scene", resolver=None)
    except Exception as exc:  # trimesh raises many kinds for a bad file
        raise refuse(filename, f"not a mesh trimesh can read ({type(exc).__name__}: {exc})"
                      ) from None  # fmt: skip
    placed = []
    for node in loaded.graph.nodes_geometry:
        T, name = loaded.graph[node]
        geometry = loaded.geometry.get(name)
        if isinstance(geometry, trimesh.Trimesh) and len(geometry.faces):
            placed.append((np.asarray(T, dtype=float), geometry))
    total = sum(len(g.faces) for _, g in placed)
    if total > MAX_READ_FACES:
        raise refuse(filename, f"unfolds to {total} triangles, more than the "
                      f"{MAX_READ_FACES} a mesh file may have")  # fmt: skip
    if total == 0:
        raise refuse(filename, "no triangles (not a mesh)")
    vertices, faces, offset = [], [], 0
    for T, g in placed:  # geometry only: colours, normals and textures are not copied
        v = np.asarray(g.vertices, dtype=float) @ T[:3, :3].T + T[:3, 3]
        f = np.asarray(g.faces, dtype=np.int64) + offset
        vertices.append(v)
        faces.append(f[:, ::-1] if np.linalg.det(T[:3, :3]) < 0 else f)  # as trimesh does
        offset += len(v)
    vertices, faces = np.concatenate(vertices), np.ascontiguousarray(np.concatenate(faces))
    if not np.isfinite(vertices).all():
        raise refuse(filename, "vertices that are not finite numbers")
    return vertices, faces
