"""A private copy of a store file, for the scripts that serve or read the fixtures: a store is never opened in
place, since opening it may write its -shm (and the fixtures are read-only, checked by checksum)."""
from __future__ import annotations

import shutil
from pathlib import Path


def private_copy(store: Path, folder: Path) -> Path:
    """The store with its -wal and -shm, and its external-storage folder (`.<name>_SUPPORT`), copied into
    `folder`; returns the copy's path."""
    copy = folder / store.name
    for suffix in ("", "-wal", "-shm"):
        if Path(str(store) + suffix).exists():
            shutil.copyfile(str(store) + suffix, str(copy) + suffix)
    support = store.parent / f".{store.stem}_SUPPORT"
    if support.exists():
        shutil.copytree(support, folder / support.name)
    return copy
