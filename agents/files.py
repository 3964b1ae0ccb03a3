"""Opening agent files: only regular files, only up to a size cap, never blocking.

Every loader of an agent or network file (``policy:``, ``az:``, ``rllib:``, the training
entry points) goes through this module, because a path can name things that are not
files: a FIFO blocks ``open()`` until someone writes to it, ``/dev/zero`` and
``/dev/urandom`` never end (a reader fills memory until the process dies), a socket or
a folder cannot be read as a file. So a path is first looked at with ``os.stat``
(symlinks followed: what counts is what the link points at) and refused unless it is a
regular file (``stat.S_ISREG``) of at most :data:`MAX_AGENT_FILE_BYTES`; only then is it
opened, with ``O_NONBLOCK`` as a second guard (opening a FIFO that appeared after the
stat returns at once), the opened descriptor is checked again with ``fstat``, and at most
one byte more than the cap is read, so a file that grows after its stat, or that reports
a size of 0 (``/proc``), is still refused instead of read without end.

Every refusal is an :class:`AgentFileError` (an ``AgentSpecError``, so a ``ValueError``)
raised before anything is read, naming the path and what it is. The messages are meant
for the person at the terminal who named the path; a server must not pass paths from its
clients here at all (the web app refuses file-backed agent kinds from requests).
"""

from __future__ import annotations

import math
import os
import stat
import zipfile
from pathlib import Path

import numpy as np

from .specs import AgentSpecError

MAX_AGENT_FILE_BYTES = 256 * 2**20
"""The largest agent file read (256 MiB), also the cap on what an ``.npz`` unpacks to.

Generous: the shipped networks are 0.7 to 4.1 MB; the largest network the training
configs make (Taiwan, 1,624 observation values, 512x512 actor and 256x256 critic) is
about 5 MB in float32, its MaskablePPO checkpoint with the Adam state a few times that,
and even a 4096x4096 hidden layer is 64 MiB. A cap keeps a wrong path (a disk image, a
data dump) from being read into memory whole.
"""

MAX_FOLDER_ENTRIES = 1_000
"""The most files and folders a checkpoint folder may hold (an RLlib module folder holds
three files and a few sub-folders)."""

MAX_FOLDER_DEPTH = 8
"""How deep a checkpoint folder may nest (a link to a parent folder would never end)."""


class AgentFileError(AgentSpecError):
    """An agent file that is refused before it is read: not a regular file, too large,
    unreadable or missing."""


class AgentFileNotFoundError(AgentFileError, FileNotFoundError):
    """An agent path where there is nothing (also a ``FileNotFoundError``)."""


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words (``a regular file``, ``a FIFO``...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def size_text(size: int) -> str:
    """``256 MiB`` for whole mebibytes, else ``1,234 bytes``."""
    if size >= 2**20 and size % 2**20 == 0:
        return f"{size // 2**20} MiB"
    return f"{size:,} bytes"


def _cap(max_bytes: int | None) -> int:
    return MAX_AGENT_FILE_BYTES if max_bytes is None else int(max_bytes)


def _stat(path: Path, what: str) -> os.stat_result:
    """``os.stat(path)`` (links followed); missing and unreadable as :class:`AgentFileError`."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise AgentFileNotFoundError(f"{what} not found: {path}") from None
    except OSError as exc:
        raise AgentFileError(f"{what} {path}: cannot be read ({exc.strerror})") from None


def _refuse_kind(path: Path, info: os.stat_result, what: str, wanted: str) -> None:
    """Raise unless ``info`` is a ``wanted`` (``a regular file`` or ``a folder``)."""
    kind = kind_of(info.st_mode)
    if kind == wanted:
        return
    shown = kind
    if path.is_symlink():
        shown = f"a link to {os.path.realpath(path)}, which is {kind}"
    raise AgentFileError(f"{what} {path}: is {shown}, not {wanted}")


def _refuse_size(path: Path, size: int, what: str, cap: int) -> None:
    if size > cap:
        raise AgentFileError(f"{what} {path}: is {size:,} bytes, larger than {size_text(cap)} "
                             "(the cap on agent files)")


def stat_agent_file(path: str | os.PathLike[str], what: str = "agent file",
                    max_bytes: int | None = None) -> os.stat_result:
    """The ``os.stat`` of ``path`` after the checks of :func:`checked_agent_file`."""
    file = Path(path)
    info = _stat(file, what)
    _refuse_kind(file, info, what, "a regular file")
    _refuse_size(file, info.st_size, what, _cap(max_bytes))
    if not os.access(file, os.R_OK):
        raise AgentFileError(f"{what} {file}: cannot be read (permission denied)")
    return info


def checked_agent_file(path: str | os.PathLike[str], what: str = "agent file",
                       max_bytes: int | None = None) -> Path:
    """``path`` as a ``Path`` if it is a readable regular file of at most ``max_bytes``
    (default :data:`MAX_AGENT_FILE_BYTES`); nothing is opened.

    Raises :class:`AgentFileError` naming ``what`` and the path: missing
    (:class:`AgentFileNotFoundError`), a folder, a FIFO, a device, a socket (a symlink
    is judged by its target, which the message names), too large or unreadable.
    """
    stat_agent_file(path, what, max_bytes)
    return Path(path)


def read_agent_file(path: str | os.PathLike[str], what: str = "agent file",
                    max_bytes: int | None = None) -> bytes:
    """The bytes of agent file ``path``, checked as :func:`checked_agent_file` first.

    The file is opened non-blocking, its descriptor checked again (a FIFO or device put
    in its place after the check is refused too) and at most ``max_bytes + 1`` bytes are
    read: a file longer than the cap is refused whatever its stat said.
    """
    file, cap = Path(path), _cap(max_bytes)
    stat_agent_file(file, what, cap)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(file, flags)
    except OSError as exc:
        raise AgentFileError(f"{what} {file}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        _refuse_kind(file, info, what, "a regular file")
        _refuse_size(file, info.st_size, what, cap)
        data = _read_at_most(fd, cap + 1, file, what)
    finally:
        os.close(fd)
    if len(data) > cap:
        raise AgentFileError(f"{what} {file}: holds more bytes than its size says, larger "
                             f"than {size_text(cap)} (the cap on agent files)")
    return data


def _read_at_most(fd: int, limit: int, file: Path, what: str) -> bytes:
    """Up to ``limit`` bytes from ``fd`` (fewer at the end of the file)."""
    chunks: list[bytes] = []
    left = limit
    try:
        while left > 0:
            chunk = os.read(fd, min(left, 8 * 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise AgentFileError(f"{what} {file}: cannot be read ({exc.strerror})") from None
    return b"".join(chunks)


def check_npz_archive(archive: zipfile.ZipFile, path: str | os.PathLike[str],
                      what: str = "agent file", max_bytes: int | None = None) -> None:
    """Refuse an ``.npz`` (a zip of ``.npy`` members) that would unpack to more than the
    cap, judged before any array is read: the members' unpacked sizes in all (a
    compressed archive of a few kilobytes can unpack to gigabytes), and each member's
    declared array size, which must fit in the member (numpy allocates the declared
    shape before it reads the data)."""
    cap = _cap(max_bytes)
    members = archive.infolist()
    total = sum(info.file_size for info in members)
    if total > cap:
        raise AgentFileError(f"{what} {path}: unpacks to more than {size_text(cap)} "
                             f"({total:,} bytes; the cap on agent files)")
    for info in members:
        declared = _declared_bytes(archive, info, path, what)
        if declared > info.file_size:
            raise AgentFileError(f"{what} {path}: array {info.filename} declares "
                                 f"{declared:,} bytes but holds {info.file_size:,}")


def _declared_bytes(archive: zipfile.ZipFile, info: zipfile.ZipInfo,
                    path: str | os.PathLike[str], what: str) -> int:
    """The bytes that member ``info``'s ``.npy`` header says its array holds."""
    fmt = np.lib.format
    readers = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}
    try:
        with archive.open(info) as member:
            version = fmt.read_magic(member)
            if version not in readers:
                raise ValueError(f".npy format version {version} is not supported")
            shape, _, dtype = readers[version](member)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
        raise AgentFileError(f"{what} {path}: array {info.filename} cannot be read "
                             f"({exc})") from None
    return math.prod(shape) * dtype.itemsize


def checked_folder(path: str | os.PathLike[str], what: str = "RLlib checkpoint") -> Path:
    """``path`` as a ``Path`` if it is a folder (a link to one counts); nothing inside is
    looked at. :class:`AgentFileError` naming what it is otherwise (missing:
    :class:`AgentFileNotFoundError`)."""
    folder = Path(path)
    _refuse_kind(folder, _stat(folder, what), what, "a folder")
    return folder


def checked_agent_folder(path: str | os.PathLike[str], what: str = "RLlib checkpoint",
                         max_bytes: int | None = None) -> Path:
    """``path`` as a ``Path`` if it is a folder of regular files and folders only.

    For loaders that hand a whole folder to a library (RLlib reads every file of a
    module checkpoint): every entry, links followed, must be a folder or a regular
    file; the files together hold at most ``max_bytes`` (default
    :data:`MAX_AGENT_FILE_BYTES`), at most :data:`MAX_FOLDER_ENTRIES` entries, nested at
    most :data:`MAX_FOLDER_DEPTH` deep. Raises :class:`AgentFileError` naming the entry.
    """
    folder = checked_folder(path, what)
    budget = {"cap": _cap(max_bytes), "bytes": _cap(max_bytes), "entries": MAX_FOLDER_ENTRIES}
    _check_tree(folder, folder, what, budget, depth=0)
    return folder


def _check_tree(root: Path, folder: Path, what: str, budget: dict[str, int],
                depth: int) -> None:
    """Check every entry below ``folder`` (see :func:`checked_agent_folder`)."""
    if depth > MAX_FOLDER_DEPTH:
        raise AgentFileError(f"{what} {root}: nests more than {MAX_FOLDER_DEPTH} folders "
                             f"deep (at {folder})")
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        raise AgentFileError(f"{what} {folder}: cannot be read ({exc.strerror})") from None
    for entry in entries:
        budget["entries"] -= 1
        if budget["entries"] < 0:
            raise AgentFileError(f"{what} {root}: holds more than {MAX_FOLDER_ENTRIES:,} "
                                 "files and folders")
        child = Path(entry.path)
        info = _stat(child, f"{what} {root}: entry")
        if stat.S_ISDIR(info.st_mode):
            _check_tree(root, child, what, budget, depth + 1)
            continue
        _refuse_kind(child, info, f"{what} {root}: entry", "a regular file")
        _refuse_size(child, info.st_size, f"{what} {root}: entry", budget["cap"])
        budget["bytes"] -= info.st_size
        if budget["bytes"] < 0:
            raise AgentFileError(f"{what} {root}: its files hold more than "
                                 f"{size_text(budget['cap'])} (the cap on agent files)")
