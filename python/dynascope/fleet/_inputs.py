"""What a fleet scan reads: paths and globs (local, file://, fsspec URLs), the job and rank a
path's layout gives, a folder of ranks, a remote input fetched into a temporary folder, the
size limit (:class:`TraceTooLarge`) and the error text that names the input.
"""

from __future__ import annotations

import contextlib
import glob as globmod
import os
import re
import shutil
import tempfile
from typing import Any, Iterator, Mapping, Optional, Sequence, Union
from urllib.parse import unquote, urlparse

from dynascope._errors import TraceError

PathLike = Union[str, "os.PathLike[str]"]
Paths = Union[PathLike, Sequence[PathLike]]

DEFAULT_MAX_BYTES = 2 << 30


class TraceTooLarge(ValueError):
    """An input larger than ``max_bytes`` (bytes on disk): it is not read. ``size`` is its
    size in bytes."""

    def __init__(self, path: str, size: int, limit: int) -> None:
        super().__init__(f"{path}: {size:,} bytes, over the limit of {limit:,}")
        self.path, self.size, self.limit = path, size, limit

    def __reduce__(self) -> tuple[Any, tuple[str, int, int]]:
        return (TraceTooLarge, (self.path, self.size, self.limit))


# --- where a path is, and what job and rank it is ------------------------------------------

_RANK_DIR = re.compile(r"^rank[_-]?(\d+)$", re.IGNORECASE)
_RANK_FILE = re.compile(r"_rank_?(\d+)(?=[_.-]|$)", re.IGNORECASE)
_GENERIC_DIRS = {
    "trace",
    "traces",
    "torch_trace",
    "torch_traces",
    "torch-trace",
    "torch-traces",
    "torchtrace",
    "dedicated_log",
    "log",
    "logs",
}
_TRACE_SUFFIXES = (".log", ".log.zst", ".log.gz", ".zst", ".gz")


def _is_trace_name(name: str) -> bool:
    """The names the core reads from a folder (core/load/loader.cpp isTraceName)."""
    return name.startswith("dedicated_log_torch_trace") and name.endswith(_TRACE_SUFFIXES)


def _is_url(path: str) -> bool:
    return "://" in path


def _file_url_path(path: str) -> Optional[str]:
    """The local path of a ``file://`` URL, None for anything else."""
    if not path.startswith("file://"):
        return None
    parsed = urlparse(path)
    local = unquote(parsed.path)
    if parsed.netloc not in ("", "localhost"):
        local = "//" + parsed.netloc + local
    return local


def _layout(path: str, is_dir: Optional[bool] = None) -> tuple[Optional[str], Optional[int]]:
    """Job and rank from the path: ``.../JOB/rank_N/file``, ``.../JOB/file_rank_N.log``,
    ``.../JOB/trace`` (a folder). ``is_dir`` None guesses from the name."""
    rest = path.split("://", 1)[1] if _is_url(path) else path
    parts = [p for p in rest.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts:
        return None, None
    name = parts[-1]
    if is_dir is None:
        is_dir = not (_is_trace_name(name) or name.endswith(_TRACE_SUFFIXES))
    rank: Optional[int] = None
    if is_dir:
        folders = parts
    else:
        folders = parts[:-1]
        m = _RANK_FILE.search(name)
        if m:
            rank = int(m.group(1))
    job: Optional[str] = None
    fallback: Optional[str] = None
    for folder in reversed(folders):
        m = _RANK_DIR.match(folder)
        if m:
            if rank is None:
                rank = int(m.group(1))
            continue
        if folder == "..":
            break
        if folder.lower() in _GENERIC_DIRS:
            fallback = fallback or folder
            continue
        job = folder
        break
    return job or fallback, rank


def _fsspec() -> Any:
    try:
        import fsspec  # type: ignore[import-untyped]
    except ImportError:
        raise ImportError(
            "reading URLs needs fsspec: pip install fsspec (or dynascope[fleet])"
        ) from None
    return fsspec


def _rank_key(name: str) -> tuple[int, str]:
    m = _RANK_DIR.match(name)
    return (int(m.group(1)) if m else -1, name)


def _local_folder(folder: str) -> tuple[list[str], int]:
    """What to load for a local folder, and its trace files' bytes: the folder itself when it
    holds trace files, else its rank_N subfolders that do (one job, its ranks one folder each),
    else the folder (the load says it holds no trace)."""

    def traces_in(d: str) -> int:
        total, found = 0, False
        with os.scandir(d) as entries:
            for e in entries:
                if _is_trace_name(e.name) and e.is_file():
                    total += e.stat().st_size
                    found = True
        return total if found else -1

    own = traces_in(folder)
    if own >= 0:
        return [folder], own
    ranks: list[tuple[str, int]] = []
    with os.scandir(folder) as entries:
        for e in sorted(entries, key=lambda e: _rank_key(e.name)):
            if _RANK_DIR.match(e.name) and e.is_dir():
                size = traces_in(e.path)
                if size >= 0:
                    ranks.append((e.path, size))
    if ranks:
        return [p for p, _ in ranks], sum(n for _, n in ranks)
    return [folder], 0


def _remote_traces(fs: Any, folder: str) -> list[tuple[str, int]]:
    return [
        (str(e["name"]), int(e.get("size") or 0))
        for e in fs.ls(folder, detail=True)
        if e.get("type") == "file" and _is_trace_name(_basename(str(e["name"])))
    ]


@contextlib.contextmanager
def _local_input(
    path: str, storage_options: Optional[Mapping[str, Any]], max_bytes: int
) -> Iterator[tuple[list[str], bool, int, Optional[tuple[str, str]]]]:
    """Yield (local paths to load, whether the input is a folder, its bytes on disk,
    (temp prefix, url prefix) or None).

    Local paths and file:// URLs are used in place; anything else is fetched with fsspec into
    a temporary folder (a folder: its trace files, or its rank_N subfolders' trace files),
    deleted afterwards."""
    local = _file_url_path(path) if _is_url(path) else path
    if local is not None:
        try:
            st = os.stat(local)
        except FileNotFoundError:
            raise FileNotFoundError(f"{path}: no such file or folder") from None
        is_dir = os.path.isdir(local)
        here, size = _local_folder(local) if is_dir else ([local], st.st_size)
        if size > max_bytes:
            raise TraceTooLarge(path, size, max_bytes)
        yield here, is_dir, size, None
        return

    fs, root = _fsspec().core.url_to_fs(path, **dict(storage_options or {}))
    if not fs.exists(root):
        raise FileNotFoundError(f"{path}: no such file or folder")
    is_dir = bool(fs.isdir(root))
    # (remote file, size, the subfolder of the temporary folder it goes to)
    files: list[tuple[str, int, str]] = []
    if is_dir:
        files = [(n, size, "") for n, size in _remote_traces(fs, root)]
        if not files:
            subfolders = [
                str(e["name"])
                for e in fs.ls(root, detail=True)
                if e.get("type") == "directory" and _RANK_DIR.match(_basename(str(e["name"])))
            ]
            for sub in sorted(subfolders, key=lambda n: _rank_key(_basename(n))):
                files += [(n, size, _basename(sub)) for n, size in _remote_traces(fs, sub)]
        if not files:
            message = "the folder holds no dedicated_log_torch_trace*.log files"
            raise TraceError([{"file": path, "line": 0, "message": message}])
        url_prefix = path.rstrip("/")
    else:
        files = [(root, int(fs.size(root) or 0), "")]
        url_prefix = path.rsplit("/", 1)[0]
    size = sum(n for _, n, _ in files)
    if size > max_bytes:
        raise TraceTooLarge(path, size, max_bytes)
    tmp = tempfile.mkdtemp(prefix="dynascope-fleet-")
    try:
        inputs: list[str] = []
        for name, _, sub in files:
            folder = os.path.join(tmp, sub) if sub else tmp
            os.makedirs(folder, exist_ok=True)
            target = os.path.join(folder, _basename(name))
            fs.get_file(name, target)
            entry = folder if is_dir else target
            if entry not in inputs:
                inputs.append(entry)
        yield inputs, is_dir, size, (tmp, url_prefix)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _basename(name: str) -> str:
    return name.rstrip("/").rsplit("/", 1)[-1]


def _error_message(exc: BaseException, path: str, remap: Optional[tuple[str, str]]) -> str:
    text = str(exc) or type(exc).__name__
    if remap is not None:
        text = text.replace(remap[0], remap[1])
    local = _file_url_path(path)
    if path not in text and (local is None or local not in text):
        text = f"{path}: {text}"
    return text


# --- globs ---------------------------------------------------------------------------------


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def expand_paths(
    paths: Paths, storage_options: Optional[Mapping[str, Any]] = None
) -> list[str]:
    """The inputs a scan runs over: a list is taken as it is (each item one trace); a string
    is a local glob (``jobs/*/trace``, ``**`` allowed), a ``file://`` glob, or an fsspec URL
    or glob (``s3://bucket/jobs/*/trace``), matches sorted; a string without glob characters
    is itself when it exists, else nothing."""
    if not isinstance(paths, (str, os.PathLike)):
        return [os.fspath(p) for p in paths]
    text = os.fspath(paths)
    local = _file_url_path(text) if _is_url(text) else text
    if local is not None:
        if _has_glob(local):
            found = sorted(globmod.glob(local, recursive=True))
        else:
            found = [local] if os.path.exists(local) else []
        if local is not text:
            return ["file://" + p for p in found]
        return found
    fs, root = _fsspec().core.url_to_fs(text, **dict(storage_options or {}))
    if _has_glob(root):
        matches = sorted(str(m) for m in fs.glob(root))
    else:
        matches = [root] if fs.exists(root) else []
    return [str(fs.unstrip_protocol(m)) for m in matches]
