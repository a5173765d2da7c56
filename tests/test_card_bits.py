"""The compiled card counters (one CPU instruction each) give what the plain bit tricks they
replaced gave, for every int64, so every kernel that counts cards plays as before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from trixsim.games.trix.cards import bit_count, high_card, low_card

INT64 = hs.integers(-(2**63), 2**63 - 1)


def _wrap(x: int) -> int:
    """``x`` as an int64 (two's complement)."""
    return ((x + 2**63) % 2**64) - 2**63


def _swar_count(x: int) -> int:
    """The former ``bit_count``: a 32-bit SWAR count in int64 arithmetic."""
    x = _wrap(x - ((x >> 1) & 0x55555555))
    x = _wrap((x & 0x33333333) + ((x >> 2) & 0x33333333))
    x = _wrap((x + (x >> 4)) & 0x0F0F0F0F)
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@settings(max_examples=400, deadline=None)
@given(x=hs.one_of(INT64, hs.integers(0, 2**32 - 1), hs.sampled_from([0, 1, -1, 2**32,
                                                                     -(2**63)])))
def test_counts_match_the_former_bit_tricks(x: int) -> None:
    assert bit_count(x) == _swar_count(x) == bin(x & 0xFFFFFFFF).count("1")
    assert low_card(x) == _swar_count(_wrap((x & -x) - 1))
    if x & 0xFFFFFFFF:
        c = 31
        while (x >> c) & 1 == 0:  # the former ``high_card``
            c -= 1
        assert high_card(x) == c
