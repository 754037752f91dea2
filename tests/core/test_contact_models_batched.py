"""``unit_arcs.contact_models`` makes the front-rank bases in one call and measures them
all at once: on random units in and near base contact (turned, single short ranks,
round-base and monster targets) it counts exactly what the base-by-base computation
counts, and its bases are the same polygons."""

from __future__ import annotations

import numpy as np
import shapely

from tabletop_gui.geometry import outline, unit_arcs
from tabletop_gui.geometry.board import Body, Footprint, Formation
from tabletop_gui.geometry.formation import model_centres


def bases_one_by_one(body: Body) -> list[shapely.Polygon]:
    """Each front-rank base built on its own from ``outline.to_world`` (the obvious way)."""
    f = body.formation
    fp = body.footprint
    if f is None or f.round_base or f.models == 0:
        return [outline.polygon(fp)]
    centres = model_centres(f)
    front_v = max(v for _, v in centres)
    hw, hd = 0.5 * f.base_width, 0.5 * f.base_depth
    return [shapely.Polygon([outline.to_world(fp, u + su * hw, v + sv * hd)
                             for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1))])
            for u, v in centres if abs(v - front_v) <= 1e-9]


def count_one_by_one(attacker: Body, target: Body) -> int:
    tfp = target.footprint
    if outline.is_circle(tfp):
        centre = shapely.Point(tfp.x, tfp.y)
        return sum(1 for b in bases_one_by_one(attacker)
                   if b.distance(centre) - 0.5 * tfp.length <= unit_arcs.CONTACT)
    tpoly = outline.polygon(tfp)
    return sum(1 for b in bases_one_by_one(attacker) if b.distance(tpoly) <= unit_arcs.CONTACT)


def random_unit(rng: np.random.Generator, uid: str, x: float, y: float) -> Body:
    kind = rng.integers(0, 5)
    facing = float(rng.choice([0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360)]))
    if kind == 0:  # a monster on a round base
        d = float(rng.uniform(1.0, 2.5))
        return Body(uid, uid, Footprint("circle", x, y, d, d, facing), 0.0, 1.0,
                    Formation(1, 1, d, d, True))
    if kind == 1:  # no formation at all
        return Body(uid, uid, Footprint("rect", x, y, 2.0, 3.0, facing), 0.0, 1.0)
    files = int(rng.integers(1, 9))
    models = int(rng.integers(1, 4 * files + 1))  # short single ranks and ragged rear ranks
    bw, bd = float(rng.choice([0.79, 0.98, 1.57])), float(rng.choice([0.79, 0.98, 1.97]))
    ranks = -(-models // files)
    return Body(uid, uid, Footprint("rect", x, y, ranks * bd, files * bw, facing), 0.0, 1.0,
                Formation(models, files, bw, bd))


def test_batched_contact_models_count_what_one_base_at_a_time_counts() -> None:
    rng = np.random.default_rng(17)
    counted = set()
    for n in range(400):
        target = random_unit(rng, "t", 0.0, 0.0)
        # the attacker's front edge on a facing of the target, shifted along it, or a
        # little away from it, or overlapping it
        t_half = 0.5 * max(target.footprint.length, target.footprint.width)
        attacker = random_unit(rng, "a", 0.0, 0.0)
        a_half = 0.5 * attacker.footprint.length
        angle = float(rng.choice([90.0, 0.0, 270.0, 180.0, rng.uniform(0, 360)]))
        gap = float(rng.choice([0.0, 0.005, 0.0099, 0.0101, 0.3, -0.2]))
        reach = t_half + a_half + gap
        c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
        slide = float(rng.uniform(-2.0, 2.0))
        fp = attacker.footprint
        moved = Footprint(fp.shape, float(reach * c - slide * s), float(reach * s + slide * c),
                          fp.length, fp.width, (angle + 180.0) % 360.0 if n % 3 else fp.facing)
        attacker = Body("a", "a", moved, 0.0, 1.0, attacker.formation)
        want = count_one_by_one(attacker, target)
        assert unit_arcs.contact_models(attacker, target) == want, n
        counted.add(want)
        got = unit_arcs.front_rank_bases(attacker)
        expected = bases_one_by_one(attacker)
        assert len(got) == len(expected)
        for a, b in zip(got, expected, strict=True):
            assert shapely.equals_exact(a, b, tolerance=0.0), n
    assert 0 in counted and max(counted) >= 4  # none, some and many models in contact
