"""The exact damage engine of rules/dist.py against brute force enumeration and icepool."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import icepool
import numpy as np
import pytest

from tabletop_gui.rules.dist import DicePool, Dist, FaceTable, dice_needed, pool_damage

WARCRY_GREATER = FaceTable(["miss"] * 2 + ["hit"] * 3 + ["critical"], [0, 0, 1, 1, 1, 3])
HAMMER = FaceTable(["miss"] * 3 + ["hit"] * 2 + ["critical"], [0, 0, 0, 2, 2, 3])
DAGGER = FaceTable(["miss"] * 3 + ["hit"] * 2 + ["critical"], [0, 0, 0, 1, 1, 3])


def brute(pools: list[DicePool], cap: int | None, known: tuple[int, ...] = ()) -> dict[int, float]:
    """Enumerate every outcome of the unknown dice."""
    n = dice_needed(pools)
    sides = [p.table.sides for p in pools for _ in range(p.count)]
    out: dict[int, float] = {}
    rest = [range(1, s + 1) for s in sides[len(known):]]
    combos = list(itertools.product(*rest))
    for combo in combos:
        faces = list(known) + list(combo)
        assert len(faces) == n
        total, pos = 0, 0
        for p in pools:
            total += p.total(faces[pos: pos + p.count])[1]
            pos += p.count
        if cap is not None:
            total = min(total, cap)
        out[total] = out.get(total, 0.0) + 1.0 / len(combos)
    return out


def as_dict(d: Dist) -> dict[int, float]:
    return {v: q for v, q in d.items() if q > 1e-15}


def assert_same(d: Dist, ref: dict[int, float]) -> None:
    got = as_dict(d)
    assert set(got) == {k for k, v in ref.items() if v > 1e-15}
    for k, v in ref.items():
        assert got[k] == pytest.approx(v, abs=1e-12)


def test_face_table_dist_and_faces() -> None:
    d = WARCRY_GREATER.dist
    assert as_dict(d) == pytest.approx({0: 2 / 6, 1: 3 / 6, 3: 1 / 6})
    assert WARCRY_GREATER.face(6) == ("critical", 3)
    with pytest.raises(ValueError):
        WARCRY_GREATER.face(7)
    with pytest.raises(ValueError):
        FaceTable(["miss"], [0])
    with pytest.raises(ValueError):
        FaceTable(["a", "b"], [0, -1])
    assert FaceTable(["a", "b"], [0, 1]) == FaceTable(["a", "b"], [0, 1])
    assert hash(FaceTable(["a", "b"], [0, 1])) == hash(FaceTable(["a", "b"], [0, 1]))


@pytest.mark.parametrize("cap", [None, 0, 1, 4, 30])
def test_sum_and_cap_match_brute_force(cap: int | None) -> None:
    pools = [DicePool(WARCRY_GREATER, 4)]
    assert_same(pool_damage(pools, cap), brute(pools, cap))


def test_reduction_per_pool_matches_brute_force() -> None:
    pools = [DicePool(HAMMER, 3, reduction=1), DicePool(DAGGER, 1, reduction=3)]
    for cap in (None, 2, 5):
        assert_same(pool_damage(pools, cap), brute(pools, cap))


def test_conditioning_matches_brute_force_for_every_prefix() -> None:
    pools = [DicePool(HAMMER, 3, reduction=2), DicePool(DAGGER, 1, reduction=1)]
    for k in range(0, 5):
        for known in itertools.product(range(1, 7), repeat=k):
            assert_same(pool_damage(pools, 6, known), brute(pools, 6, known))


def test_all_dice_known_is_a_point() -> None:
    pools = [DicePool(HAMMER, 2, reduction=1), DicePool(DAGGER, 1, reduction=3)]
    # the worked example of docs/rulesets/mordheim-warcry.md:
    # hammer 5,6 -> 5 - 1 = 4; dagger 6 -> 3 - 3 = 0
    assert as_dict(pool_damage(pools, None, (5, 6, 6))) == pytest.approx({4: 1.0}, abs=1e-12)
    with pytest.raises(ValueError):
        pool_damage(pools, None, (1, 1, 1, 1))


def test_zero_dice_and_mixture_helpers() -> None:
    assert as_dict(pool_damage([DicePool(HAMMER, 0)], 3)) == pytest.approx({0: 1.0}, abs=1e-12)
    with pytest.raises(ValueError):
        DicePool(HAMMER, -1)
    d = Dist([0.5, 0.5])
    assert d.cap(0).items() == [(0, 1.0)]
    assert d.cap(5) is d
    assert d.cap(-2).items() == [(-2, 1.0)]
    assert d.clip(lo=0) is d


def test_a_certain_capped_outcome_is_exactly_one_on_every_cpu() -> None:
    # a fair d7: adding its faces' 1/7 in sequence (numpy's order for a short tail, or a
    # CPU's wider vector order) gives 0.9999999999999998, not 1
    d7 = Dist.die(7)
    assert float(d7.probs[0]) + sum(float(q) for q in d7.probs[1:]) != 1.0  # the trap
    # exactness is the point here: "always at most 1 damage" is reported as exactly 1.0
    assert d7.cap(1).items() == [(1, 1.0)]
    # a folded tail is the correctly rounded sum of what it folds, independent of order
    folded = d7.cap(2).probs
    assert folded[1] == math.fsum([1 / 7] * 6)
    assert folded[0] == 1 / 7


def test_probabilities_are_exact_fractions_of_icepool() -> None:
    die = icepool.Die([0, 0, 1, 1, 1, 3])
    ref = (8 @ die).map(lambda x: min(x, 10))
    ours = pool_damage([DicePool(WARCRY_GREATER, 8)], 10)
    total = ref.denominator()
    for value, q in ref.items():
        assert ours.prob(value) == pytest.approx(q / total, abs=1e-12)
    assert ours.total == pytest.approx(1.0, abs=1e-12)
    assert ours.mean == pytest.approx(float(Fraction(ref.mean())), abs=1e-9)


def test_icepool_agrees_with_armour_per_weapon() -> None:
    hammer = icepool.Die([0, 0, 0, 2, 2, 3])
    dagger = icepool.Die([0, 0, 0, 1, 1, 3])
    main = (3 @ hammer).map(lambda x: max(0, x - 1))
    off = dagger.map(lambda x: max(0, x - 3))
    ref = (main + off).map(lambda x: min(x, 6))
    ours = pool_damage([DicePool(HAMMER, 3, 1), DicePool(DAGGER, 1, 3)], 6)
    total = ref.denominator()
    for value, q in ref.items():
        assert ours.prob(value) == pytest.approx(q / total, abs=1e-12)


def test_large_pool_is_a_distribution() -> None:
    d = pool_damage([DicePool(WARCRY_GREATER, 40)], None)
    assert d.total == pytest.approx(1.0, abs=1e-9)
    assert np.all(d.probs >= 0)
    assert d.mean == pytest.approx(40 * (3 / 6 + 3 / 6), abs=1e-9)


def test_large_sums_go_through_the_fft_and_agree_with_the_direct_convolution() -> None:
    """Above FFT_WORK the convolution is an FFT product: the same probabilities to
    1e-13 of the largest (rounding noise below that is set to 0), the same total."""
    from tabletop_gui.rules.dist import FFT_WORK, convolve

    rng = np.random.default_rng(12)
    a = rng.random(1500)
    b = rng.random(2500)
    a /= a.sum()
    b /= b.sum()
    assert a.size * b.size > FFT_WORK
    fast, direct = convolve(a, b), np.convolve(a, b)
    assert fast.shape == direct.shape
    assert np.max(np.abs(fast - direct)) <= 1e-13 * direct.max()
    assert fast.sum() == pytest.approx(1.0, abs=1e-12)
    assert (fast >= 0).all()


def test_thousands_of_dice_sum_exactly_enough() -> None:
    """10,000 d6 by repeated squaring through the FFT: mean, spread and total as exact."""
    d = Dist.die(6).repeat(10_000)
    assert d.total == pytest.approx(1.0, abs=1e-9)
    assert d.mean == pytest.approx(35_000, rel=1e-12)
    values = np.arange(d.offset, d.offset + d.probs.size)
    variance = float(np.dot((values - d.mean) ** 2, d.probs))
    assert variance == pytest.approx(10_000 * 35 / 12, rel=1e-9)


def _clip_by_values(d: Dist, lo: int, hi: int) -> Dist:
    """The obvious clip: every value moved into [lo, hi] (hi wins when lo > hi), the
    probabilities added one after the other in value order."""
    out: dict[int, float] = {}
    for k, q in enumerate(d.probs):
        v = min(max(d.offset + k, lo), hi) if lo <= hi else hi
        out[v] = out.get(v, 0.0) + float(q)
    start = min(out)
    probs = np.zeros(max(out) - start + 1)
    for v, q in out.items():
        probs[v - start] = q
    return Dist(probs, start)


@pytest.mark.parametrize("seed", range(4))
def test_clip_folds_the_tails_bit_for_bit_as_the_obvious_sum(seed: int) -> None:
    """clip(lo, hi) with nothing below lo (its fast path: the damage engines' clip(0, cap))
    and with values below lo (the general path) give the same bits as adding the folded
    probabilities one by one in value order: the odds do not depend on the path."""
    rng = np.random.default_rng(seed)
    for _ in range(500):
        size, offset = int(rng.integers(1, 30)), int(rng.integers(-3, 8))
        p = rng.random(size)
        d = Dist(p / p.sum(), offset)
        lo = int(rng.integers(offset - 4, offset + size + 2))
        hi = int(rng.integers(offset - 4, offset + size + 4))
        got, want = d.clip(lo, hi), _clip_by_values(d, lo, hi)
        assert got.offset == want.offset
        assert got.probs.tolist() == want.probs.tolist()  # exact: same sums in the same order
