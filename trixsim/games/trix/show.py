"""Trix's play-by-play of a ``trixsim-transcript/1`` record: hands by suit, each pick,
declaration, trick (leader, cards, winner) or trix turn, and the points and totals after
every contract (what ``trixsim replay FILE --game-id ID`` prints for a transcript)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trixsim.games.trix.cards import KING_OF_HEARTS, RANKS, SUIT_SYMBOLS, card_symbol
from trixsim.games.trix.rules import trick_winner
from trixsim.games.trix.types import TRIX

if TYPE_CHECKING:
    from trixsim.games.trix.transcript import GameRecord


def _hand_text(cards: list[int]) -> str:
    from trixsim.games.trix.transcript import hand_by_suit

    parts = []
    for s, suit in enumerate(hand_by_suit(cards)):
        ranks = " ".join(RANKS[c & 7] for c in suit) or "-"
        parts.append(f"{SUIT_SYMBOLS[s]} {ranks}")
    return "   ".join(parts)


def _row(values: list[int]) -> str:
    return "  ".join(f"{v:>5}" for v in values)


def play_by_play(rec: GameRecord) -> list[str]:
    """A readable account of one game, contract by contract."""
    seed = "" if rec.seed is None else f", seed {rec.seed}"
    lines = [f"game {rec.game_id}{seed}, first picker: seat {rec.first_picker}",
             "seats: " + ", ".join(f"{s} {name}" for s, name in enumerate(rec.strategies))]
    for c in rec.contracts:
        lines += ["", f"contract {c.number}: seat {c.picker} picks {c.name} (pick {c.pick})"]
        lines += [f"  seat {s}: {_hand_text(h)}" for s, h in enumerate(c.hands)]
        if c.contract == TRIX:
            for seat, card in c.moves or []:
                lines.append(f"  seat {seat}: {'pass' if card is None else card_symbol(card)}")
        else:
            holder = next(s for s, h in enumerate(c.hands) if KING_OF_HEARTS in h)
            lines.append(f"  seat {holder} declares {card_symbol(KING_OF_HEARTS)}"
                         if c.ray_declared else "  no declaration")
            for i, (leader, cards) in enumerate(c.tricks or [], 1):
                shown = " ".join(f"{card_symbol(x):>3}" for x in cards)
                lines.append(f"  trick {i}: seat {leader} leads  {shown}  -> seat "
                             f"{trick_winner(leader, cards)}")
        lines.append(f"  points: {_row(c.points)}")
        lines.append(f"  totals: {_row(c.totals)}")
    lines += ["", f"final totals: {_row(rec.final_totals)}",
              "winners: " + ", ".join(f"seat {s}" for s in rec.winners),
              "losers: " + ", ".join(f"seat {s}" for s in rec.losers)]
    return lines


__all__ = ["play_by_play"]
