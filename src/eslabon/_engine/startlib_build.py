"""Build the start-up library (:mod:`.startlib`) from numba's cache: ``eslabon warmup``'s
last step.

Each C entry (a :class:`~eslabon._engine.compile.LazyCFunc` of :data:`ENTRY_MODULES`) is
compiled or loaded as usual; its machine code is then read back from numba's cache entry
(an ELF object, exactly the code a process would load) and every object is linked, with
a small C file, into one shared object by the system's C compiler:

- ``startlib_runtime.c`` defines the few symbols of numba's runtime that the objects
  name: allocation of a temporary array (only on rare paths: an angle beyond 1e5 rad
  is reduced into a copy), the GIL, and the raising of an exception, which here leaves
  the error to the general path (the C side calls it whenever an entry does not report
  success; it raises the error that numba's own runtime would have).
- a generated C file holds the table of the entries' function pointers and a JSON
  manifest (each entry's qualified name, C signature size and scratch sizes).

The library is written beside the entries' cache folder (``eslabon-<hash>``), private
to this user, under a name carrying :func:`.startlib.machine_key`. numba's objects use
absolute addresses, so the dynamic loader relocates the library's code when it opens
it (about a millisecond).
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
import struct
import subprocess
import sysconfig
import tempfile
import time

from . import startlib

ENTRY_MODULES = (
    "eslabon.dynamics.drivers",
    "eslabon.dynamics.derivative_drivers",
    "eslabon.kinematics.entries",
    "eslabon.kinematics.task_kernels",
    "eslabon.dynamics.regressor_kernel",
)
RUNTIME_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startlib_runtime.c")


# the symbols of numba's runtime that startlib_runtime.c defines; an entry whose machine
# code names another one (a list that grows, a reshape) is left to numba's cache
RUNTIME_SYMBOLS = frozenset(
    {
        "NRT_MemInfo_alloc_aligned",
        "NRT_MemInfo_call_dtor",
        "NRT_Free",
        "numba_gil_ensure",
        "numba_gil_release",
        "numba_unpickle",
        "numba_runtime_build_excinfo_struct",
        "numba_do_raise",
    }
)


class NotBuilt(Exception):
    """Why the library was not built (a phrase): there is then no library, and the
    kernels load from numba's cache as before."""


def entries() -> list:
    """(qualified name, LazyCFunc, its module) of every C entry, in a fixed order: the
    LazyCFuncs of the C entries' two signatures (a module's batch chunks, of
    :data:`eslabon._engine.batch.CHUNK_SIGNATURE`, are left to numba's cache)."""
    from .compile import LazyCFunc
    from .entrypoints import POINTERS, WIDE_POINTERS

    found = []
    for name in ENTRY_MODULES:
        module = importlib.import_module(name)
        for attr, value in sorted(vars(module).items()):
            if isinstance(value, LazyCFunc) and len(value.signature.args) in (
                POINTERS,
                WIDE_POINTERS,
            ):
                found.append((f"{name}.{attr}", value, module))
    return found


def _object_code(cfunc) -> tuple:
    """(the machine code of a compiled cfunc as numba cached it, an ELF object; the name
    of its C function there). The name comes from the same cache entry: the cfunc's own
    ``native_name`` carries a per-process counter, and another process may have saved
    the entry since this one compiled it."""
    cache = cfunc._cache
    key = cache._index_key(cfunc._sig, cfunc._targetdescr.target_context.codegen())
    data = cache._cache_file.load(key)
    if data is None:
        raise NotBuilt(f"{cfunc.__name__} is not in numba's cache (cache disabled?)")
    code = symbol = None
    for part in data:
        if isinstance(part, tuple) and len(part) == 3 and part[1] == "object":
            code = part[2][0]
        elif hasattr(part, "mangled_name"):
            symbol = "cfunc." + part.mangled_name
    if code is None or symbol is None:
        raise NotBuilt(f"{cfunc.__name__}: numba's cache entry holds no object code")
    if symbol not in defined_symbols(code):
        raise NotBuilt(f"{cfunc.__name__}: numba's cache entry does not define {symbol}")
    return code, symbol


def _symbols(elf: bytes) -> tuple:
    """(defined, undefined) names of an ELF64 little-endian relocatable object, read from
    its symbol table."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise NotBuilt("numba's cache entry is not a 64-bit little-endian ELF object")
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + k * shentsize) for k in range(shnum)]
    defined, undefined = set(), set()
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strtab_offset = sections[link][4]
        for at in range(offset, offset + size, entsize or 24):
            name, _, _, shndx = struct.unpack_from("<IBBH", elf, at)
            if name:
                end = elf.index(b"\0", strtab_offset + name)
                text = elf[strtab_offset + name : end].decode()
                (undefined if shndx == 0 else defined).add(text)  # 0: SHN_UNDEF
    return defined, undefined


def defined_symbols(elf: bytes) -> set:
    """The names an ELF64 object defines."""
    return _symbols(elf)[0]


def undefined_symbols(elf: bytes) -> set:
    """The names an ELF64 object uses but does not define."""
    return _symbols(elf)[1]


def _served(elf: bytes) -> bool:
    """Whether every runtime symbol the object names is one the library defines."""
    runtime = {n for n in undefined_symbols(elf) if n.startswith(("NRT_", "numba_"))}
    return runtime <= RUNTIME_SYMBOLS


def _folder(cfunc) -> tuple:
    """(cache root, ``eslabon-<hash>`` folder) that the cfunc's cache entry is in; only
    a folder that :func:`.startlib.find` looks in (not one of this process only)."""
    path = os.path.normpath(cfunc._cache._cache_path)
    while path and not os.path.basename(path).startswith("eslabon-"):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    base = os.path.dirname(path)
    bases = [os.path.normpath(b) for b in startlib.cache_bases()]
    if not os.path.basename(path).startswith("eslabon-") or os.path.normpath(base) not in bases:
        raise NotBuilt("the kernels are cached in a folder of this process only")
    return base, path


def compiler() -> list:
    """The C compiler command (``CC``, else the one Python was built with, else cc)."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    command = shlex.split(cc)
    if not command or shutil.which(command[0]) is None:
        raise NotBuilt(f"no C compiler ({cc!r} not found; set CC)")
    return command


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _table_source(records: list) -> str:
    """The C file of the entry table and the manifest."""
    lines = ["/* generated by eslabon warmup: the start-up library's table */"]
    for k, r in enumerate(records):
        lines.append(f"extern char entry{k}[] __asm__({_c_string(r['symbol'])});")
    items = ", ".join(f"entry{k}" for k in range(len(records)))
    lines.append(f"void *const eslabon_entry_table[{len(records)}] = {{{items}}};")
    manifest = {"format": startlib.FORMAT, "entries": records}
    lines.append(f"const char *const eslabon_manifest = {_c_string(json.dumps(manifest))};")
    return "\n".join(lines) + "\n"


def build() -> dict:
    """Build the library for these sources and this machine; its path, the entries it
    holds, those left to numba's cache and the seconds taken. Raises :class:`NotBuilt`
    saying why it cannot be built here."""
    t0 = time.perf_counter()
    key = startlib.machine_key()
    if key is None:
        raise NotBuilt("not on Linux, or numba not found")
    command = compiler()
    records, objects, folder, left = [], [], None, []
    for qualified, lazy, module in entries():
        cfunc = lazy.compile()
        code, symbol = _object_code(cfunc)
        if not _served(code):
            left.append(qualified)
            continue
        objects.append(code)
        base, here = _folder(cfunc)
        if folder is not None and here != folder[1]:
            raise NotBuilt("the entries are cached in more than one folder")
        folder = (base, here)
        name = qualified.rsplit(".", 1)[1]
        plain = name.removesuffix("_extended")
        records.append(
            {
                "name": qualified,
                "symbol": symbol,
                "pointers": len(lazy.signature.args),
                "scratch_cols": getattr(module, "SCRATCH_COLS", {}).get(plain, 0),
                "scratch_squares": getattr(module, "SCRATCH_SQUARES", {}).get(plain, 0),
            }
        )
    if folder is None:
        raise NotBuilt("no C entries found")
    if startlib.safefiles.chain_problem(*folder) is not None:
        raise NotBuilt(f"{folder[1]}: not a folder this user alone may write")
    target = os.path.join(folder[1], startlib.library_name(key))
    with tempfile.TemporaryDirectory(prefix="eslabon-startlib-") as tmp:
        paths = []
        for k, code in enumerate(objects):
            paths.append(os.path.join(tmp, f"entry{k}.o"))
            with open(paths[-1], "wb") as f:
                f.write(code)
        table = os.path.join(tmp, "table.c")
        with open(table, "w", encoding="utf-8") as f:
            f.write(_table_source(records))
        out = os.path.join(tmp, "entries.so")
        run = command + ["-shared", "-fPIC", "-O2", "-Wl,-Bsymbolic", "-o", out]
        run += [RUNTIME_SOURCE, table, *paths, "-lm"]
        done = subprocess.run(run, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not os.path.exists(out):
            first = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise NotBuilt(f"the C compiler failed: {first}")
        try:
            startlib.Library(out)  # every symbol resolves, the manifest reads back
        except (OSError, ValueError, KeyError) as exc:
            raise NotBuilt(f"the library does not open: {exc}") from None
        _install(out, target)
    return {
        "path": target,
        "entries": [r["name"] for r in records],
        "left_to_numba": left,
        "seconds": time.perf_counter() - t0,
    }


def _install(built: str, target: str) -> None:
    """Copy ``built`` to ``target``, private to this user, replacing it in one step."""
    folder = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=".entries-", suffix=".tmp", dir=folder)
    try:
        with open(fd, "wb") as out, open(built, "rb") as src:
            shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
