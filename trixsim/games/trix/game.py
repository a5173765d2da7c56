"""``TrixGame``: the Trix rules (``rules``, ``observation``, ``events``) as a ``Game``.

Action ids: a contract id 0..6 when picking, 0 (keep quiet) or 1 (declare K♥) when asked
to declare, a card 0..31 (``suit * 8 + rank``) when playing or placing, and ``PASS`` (32)
for the trix pass. The legal mask covers all 33, so a forced pass is simply the only bit
set. ``why_illegal`` is the one place that says why an action is refused; the loop's
errors and the record checker's messages come from it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from trixsim.game import Action, ActionMask, Decision, DecisionId, Redeals, Seat
from trixsim.gamekit.game import CompiledGame
from trixsim.games.trix import events as events_module
from trixsim.games.trix import rules
from trixsim.games.trix.cards import JACKS, card_name, cards_of
from trixsim.games.trix.chance import Chance
from trixsim.games.trix.events import EventLog
from trixsim.games.trix.integrity import TotalsAudit
from trixsim.games.trix.observation import FIELDS, Observation, describe, observe
from trixsim.games.trix.outcomes import CONTRACT_COLUMNS, GAME_COLUMNS, OutcomeLog
from trixsim.games.trix.rules import (
    init,
    legal_action_mask,
    legal_one,
    pick_number,
    step,
    winners_losers,
    with_pass,
)
from trixsim.games.trix.state import COL, GameState
from trixsim.games.trix.types import (
    CONTRACT_NAMES,
    DECLARE,
    DONE,
    PASS,
    PICK,
    PLACE,
    PLAY,
    TRIX,
)
from trixsim.jitcache import guard, sources
from trixsim.levels import Level

SUIT_WORDS = ("hearts", "clubs", "diamonds", "spades")
_PASS_BIT = np.uint64(1) << np.uint64(PASS)
_PHASE = COL["phase"]
_TURN = COL["turn"]
guard(__file__, sources(rules), DONE, PASS, PLACE, _PHASE, _TURN)


class TrixGame(CompiledGame):
    """The four-player, 32-card Trix of ``docs/rules.md``."""

    done = DONE
    observe_fn = observe
    describe_fn = describe
    event_log_type = EventLog
    outcome_log_type = OutcomeLog

    name = "trix"
    n_seats = 4
    n_actions = PASS + 1
    decisions = (Decision(PICK, "pick", "pick"), Decision(DECLARE, "declare", "declare"),
                 Decision(PLAY, "play", "play"), Decision(PLACE, "place", "place"))
    higher_is_better = False
    """Score direction: the lowest final total wins."""
    table_schemas = {"contracts": CONTRACT_COLUMNS, "games": GAME_COLUMNS}
    score_prefix = "final"
    score_word = "total"
    observation_fields = FIELDS
    events_module = events_module
    record_fields = ("first_picker",)
    """A Trix game replays from the seed, its index and who picked first."""
    terminal = "trixsim.terminal.trix"
    """The terminal table's plug-in: Trix's session and its records (``trixsim play``)."""
    report_aspects = "trixsim.reports.trix_aspects"
    """The report's plug-in for Trix's own aspects: contract ordering, K♥ declaration,
    trix timing and the points of every contract."""
    check_summary = ("{rows:,} contracts: totals, game ends, finals, sums and every contract "
                     "by the rules")
    format_limits = {"trixsim-run/1": None}
    """Notes ``trixsim check`` prints about runs of older formats (filled below)."""
    levels = (
        Level("easy", "random", "plays any legal card, contract or move at random"),
        Level("medium", "heuristic", "plays by rules of thumb (voids, the K♥, safe "
                                     "cards), without looking ahead"),
        Level("hard", "pimc", "deals the hidden cards 24 ways and plays each move out in "
                              "all of them"),
        Level("expert", "expert", "deals 128 ways, likelier as the others' moves suggest, and "
                                  "plays each move out with a learned model of a deeper "
                                  "search: the strongest bot"),
    )
    """The difficulty ladder people choose from (trixsim.levels)."""

    def verify_tables(self, tables: dict[str, Any], start: int, stop: int,
                      rows: dict[str, int]) -> list[str]:
        """A chunk's contracts and games tables re-derived by the rules
        (``trixsim.games.trix.chunkcheck``)."""
        from trixsim.games.trix.chunkcheck import verify_tables

        return verify_tables(tables, start, stop, rows)

    def legacy_tables(self, tables: dict[str, Any]) -> dict[str, Any]:
        """The tables as a format-1 run wrote them (without the cards taken)."""
        from trixsim.games.trix.outcomes import LEGACY_COLUMNS

        c = tables["contracts"]
        drop = [n for n in LEGACY_COLUMNS if n in c.column_names]
        return {**tables, "contracts": c.drop_columns(drop)}

    def play_by_play(self, record: Any) -> list[str]:
        """A trixsim-transcript/1 record's play-by-play, contract by contract."""
        from trixsim.games.trix.show import play_by_play

        return play_by_play(record)

    def own_records(self) -> Any:
        """Trix's own record format, trixsim-transcript/1, besides the envelope every
        game writes (``record`` and ``replay`` ask a game for it)."""
        from trixsim.games.trix.transcript import Transcripts

        return Transcripts()

    def whole_game_kernel(self) -> Any:
        """The compiled whole-game loop (its cache says whether a run must compile)."""
        from trixsim.games.trix.fast import play_games

        return play_games

    def init(self, seed: int | Chance, game_ids: Any, first_pickers: Any = None,
             events: EventLog | None = None) -> GameState:
        """New games (the first contract dealt, its picker to choose)."""
        return init(seed, game_ids, first_pickers=first_pickers, events=events)

    def legal_action_mask(self, state: GameState) -> ActionMask:
        """Per game, a uint64 mask over the 33 actions; the trix pass is bit 32."""
        return self.with_pass(state, legal_action_mask(state))

    def with_pass(self, state: GameState, legal: np.ndarray) -> ActionMask:
        """The engine's 32-bit masks with the forced trix pass added as bit 32."""
        return with_pass(state, legal)

    advances = True
    """``step(..., advance=True)`` plays the actions nobody chooses (see ``Game.step``)."""

    def step(self, state: GameState, actions: np.ndarray, events: EventLog | None = None,
             legal: ActionMask | None = None, advance: bool = False) -> ActionMask:
        """Apply one action per game in place (its events into ``events`` if given);
        IllegalActionError names refused games. ``legal``: this state's masks, if known.
        ``advance``: then play on through the trix passes and lone legal actions until a
        seat has a choice or the contract ends (with an event log that keeps only the
        outcome rows' events, or none)."""
        return step(state, actions, legal, events=events, pass_bit=True, advance=advance)

    # -- hooks for the loop (trixsim.sim) -------------------------------------------------

    def pending(self, state: GameState,
                legal: ActionMask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per game, in one pass: the decision due (-1 once over), the seat to act, and
        the action the rules take without asking (the trix pass), else -1."""
        n = state.batch_size
        out = (np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
               np.empty(n, dtype=np.int64))
        _pending(state.data, np.asarray(legal), *out)
        return out

    def strategy_view(self, state: GameState, games: np.ndarray, legal: ActionMask,
                      fields: frozenset[str] | None) -> Observation:
        """What the acting seats know in ``games`` (``legal``: their masks), as strategies
        receive it: ``legal`` over cards or contracts, the pass never offered."""
        lm = (np.asarray(legal) & np.uint64(0xFFFFFFFF)).astype(np.int64)
        return observe(state, games, lm, fields)

    def final_scores(self, state: GameState) -> np.ndarray:
        """(B, 4) final totals of finished games."""
        return state.totals.copy()

    def winners_losers(self, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Boolean masks of the winners (lowest total) and losers (highest)."""
        return winners_losers(scores)

    def check_rows(self, contracts: Any, first_picker: np.ndarray, first_game: int
                   ) -> list[str]:
        """The contract rows of one chunk that break the rules, one line each (see
        ``trixsim.games.trix.verify``): what ``trixsim check`` asks the game."""
        from trixsim.games.trix.verify import check_rows

        return check_rows(contracts, first_picker, first_game)

    def audit(self, state: GameState) -> TotalsAudit:
        """The loop's honesty check for a batch (``after_step(state)`` -> message, live)."""
        return TotalsAudit(state)

    def play_compiled(self, strategies: Any, seed: int, game_ids: Any,
                      observer: Any = None) -> GameState | None:
        """Whole games in compiled code when every seat has a compiled policy (else
        None); see ``trixsim.games.trix.fast``."""
        from trixsim.games.trix.fast import play_lineup

        return play_lineup(strategies, seed, game_ids, observer)

    # -- what the conformance kit (trixsim.testing) needs --------------------------------

    def own_hands(self, state: GameState) -> np.ndarray:
        """(B, 4) every seat's hand (32-bit card masks; hidden)."""
        return state.hands.copy()

    def redeal_pairs(self, states: list[GameState], actions: list[np.ndarray],
                     gen: np.random.Generator, limit: int | None = None) -> Redeals:
        """Decisions with the other seats' unplayed cards dealt anew consistently with the
        contract's public history and replayed to the same decision
        (``trixsim.games.trix.redeal``)."""
        from trixsim.games.trix.redeal import redeal_pairs

        return redeal_pairs(states, actions, gen, limit)

    def policy_answers(self, policy: Any, params: np.ndarray, state: GameState,
                       subkey: int) -> np.ndarray:
        """A compiled policy's answer for the seat to act in each game, as the whole-game
        loop asks it: the engine's 32-bit mask, the seat's hand (``UNIFORM``: Trix's
        uniform policy)."""
        from trixsim.games.trix.fast import resolve
        from trixsim.policykit import policy_answers

        hands = state.hands[np.arange(state.batch_size), state.turn]
        return policy_answers(resolve(policy), state.data, legal_action_mask(state), hands,
                              subkey, params)

    def raw_legal(self, state: GameState) -> np.ndarray:
        """The engine's 32-bit masks, the pass not in them (``observe`` and ``decision``
        come from CompiledGame: PICK, DECLARE, PLAY or PLACE, -1 once over)."""
        return legal_action_mask(state)

    def action_name(self, decision: DecisionId, action: Action) -> str:
        """``dineri``, ``declare``/``keep quiet``, ``AH``, ``pass``; else the number."""
        if decision == PICK and 0 <= action < len(CONTRACT_NAMES):
            return CONTRACT_NAMES[action]
        if decision == DECLARE and action in (0, 1):
            return ("keep quiet", "declare")[action]
        if decision in (PLAY, PLACE) and 0 <= action < 32:
            return card_name(action)
        if decision == PLACE and action == PASS:
            return "pass"
        return str(action)

    def why_illegal(self, state: GameState, game: int, action: Action) -> str | None:
        """Why ``action`` is refused in the game at batch position ``game``; None if legal."""
        g = int(game)
        a = int(action)
        mask = int(legal_one(state.data, g))
        ph = int(state.phase[g])
        if ph == PLACE and mask == 0:
            mask = 1 << PASS
        if 0 <= a < self.n_actions and (mask >> a) & 1:
            return None
        t = int(state.turn[g])
        if ph == DONE:
            return "the game is over"
        if ph == PICK:
            return _why_not_pick(state, g, t, a)
        if ph == DECLARE:
            return "the answer must be 0 (keep quiet) or 1 (declare the king of hearts)"
        if ph == PLACE and a == PASS:
            return f"seat {t} cannot pass: it can place {_names(mask)}"
        if not 0 <= a < 32:
            return f"{a} is not a card (0-31)"
        if not (int(state.hands[g, t]) >> a) & 1:
            return f"seat {t} does not hold {card_name(a)}"
        if ph == PLAY:
            return (f"seat {t} must follow {SUIT_WORDS[int(state.best_card[g]) >> 3]} "
                    f"with {_names(mask)}")
        return f"{card_name(a)} does not fit the layout (seat {t} can place {_names(mask)})"


@njit(cache=True)
def _pending(S: np.ndarray, legal: np.ndarray, decision: np.ndarray, seat: np.ndarray,
             forced: np.ndarray) -> None:
    for g in range(S.shape[0]):
        ph = S[g, _PHASE]
        decision[g] = -1 if ph == DONE else ph
        seat[g] = S[g, _TURN]
        lm = np.int64(legal[g]) & 0xFFFFFFFF
        forced[g] = PASS if ph == PLACE and lm == 0 else -1


def _why_not_pick(state: GameState, g: int, t: Seat, a: Action) -> str:
    if not 0 <= a < len(CONTRACT_NAMES):
        return f"{a} is not a contract id (0-6)"
    name = CONTRACT_NAMES[a]
    if (int(state.used[g, t]) >> a) & 1:
        return f"seat {t} has already used {name}"
    pick = int(pick_number(state, np.array([g]))[0])
    if a == TRIX and pick <= 5 and not int(state.hands[g, t]) & JACKS:
        return f"trix needs a jack in hand on picks 1-5 (pick {pick})"
    if pick == 6 and not (int(state.used[g, t]) >> TRIX) & 1:
        return "trix is forced on pick 6 when it is still unused"
    return f"{name} may not be picked now"


def _names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask & 0xFFFFFFFF)) or "nothing"


def _limits() -> dict[str, str | None]:
    from trixsim.games.trix.verify import LIMITS

    return {"trixsim-run/1": LIMITS}


TrixGame.format_limits = _limits()
GAME = TrixGame()

__all__ = ["GAME", "SUIT_WORDS", "TrixGame"]
