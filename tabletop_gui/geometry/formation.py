"""Ranks and files of a rank-and-file unit.

Ranks run parallel to the front and are counted from the front; files run front to
back and are counted from the left. Every rank is full except perhaps the rear rank.

Placement of an incomplete rear rank (documented choice): its models are centred
behind the rank in front of it, snapped to whole files; when the number of empty files
is odd, the extra empty file is on the right. So 12 models in 5 files stand in ranks
of 5, 5, 2, and the rear pair stands in files 2 and 3: file counts 2, 3, 3, 2, 2
(two files of 3 and three of 2, whatever the placement).
A unit with fewer models than files is a single rank, centred in its boundary.
"""

from __future__ import annotations

from tabletop_gui.geometry.board import Formation


def _check(models: int, files: int) -> None:
    if models < 0 or files < 1:
        raise ValueError(f"a unit needs files >= 1 and models >= 0 (got {models}, {files})")


def rank_counts(models: int, files: int) -> list[int]:
    """Models in each rank, front rank first: ``rank_counts(12, 5) == [5, 5, 2]``."""
    _check(models, files)
    if models == 0:
        return []
    full, rest = divmod(models, files)
    return [files] * full + ([rest] if rest else [])


def rear_files(models: int, files: int) -> range:
    """The files (0 = leftmost) holding models in the rear rank."""
    ranks = rank_counts(models, files)
    if not ranks:
        return range(0)
    k = ranks[-1]
    left = (files - k) // 2
    return range(left, left + k)


def file_counts(models: int, files: int) -> list[int]:
    """Models in each file, left to right: ``file_counts(12, 5) == [2, 3, 3, 2, 2]``."""
    ranks = rank_counts(models, files)
    if not ranks:
        return [0] * files
    counts = [len(ranks) - 1] * files
    for f in rear_files(models, files):
        counts[f] += 1
    return counts


def model_centres(f: Formation) -> list[tuple[float, float]]:
    """Centres (u across, v along the facing) of every model, relative to the unit's centre.

    Front rank first, each rank left to right; v of the front rank is the largest.
    """
    files = max(1, f.files)  # the boundary is always ``files`` bases wide
    ranks = rank_counts(f.models, files)
    depth = len(ranks) * f.base_depth
    width = files * f.base_width
    out: list[tuple[float, float]] = []
    for r, count in enumerate(ranks):
        v = 0.5 * depth - (r + 0.5) * f.base_depth
        cols = range(files) if count == files else (
            rear_files(f.models, files) if r == len(ranks) - 1 else range(count))
        for c in cols:
            out.append((-0.5 * width + (c + 0.5) * f.base_width, v))
    return out
