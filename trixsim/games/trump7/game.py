"""``Trump7Game``: the trump7 rules behind the ``trixsim.game.Game`` interface.

Two instances: ``GAME`` (trump7) and ``BID_GAME`` (trump7-bid, the optional bid). Action
ids depend on the decision: in ``play`` a card 0..51 (``suit * 13 + rank``, rank 0 = 2,
suits ♣ ♦ ♥ ♠), in ``bid`` the number of tricks announced, 0..13; so every mask fits 52
bits. Nothing is ever forced without asking (a single legal card is still the seat's
decision), so ``pending`` never names a forced action.

Beyond the protocol: ``variant``/``bidding`` (which of the two) and ``score`` (the
points formula, for checks and tests).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from trixsim.game import Action, ActionMask, Decision, DecisionId, Redeals
from trixsim.gamekit.game import CompiledGame, compiled_lineup, policy_error
from trixsim.games.trump7 import events as events_module
from trixsim.games.trump7 import rules
from trixsim.games.trump7.cards import N_RANKS, SUIT_WORDS, card_name, names
from trixsim.games.trump7.chance import Chance
from trixsim.games.trump7.events import EventLog
from trixsim.games.trump7.observation import FIELDS, Observation, describe, observe
from trixsim.games.trump7.outcomes import TABLE_SCHEMAS, OutcomeLog, PointsAudit
from trixsim.games.trump7.state import BID, DONE, PLAY, GameState
from trixsim.levels import Level

PLAY_DECISION = Decision(PLAY, "play", "play")
BID_DECISION = Decision(BID, "bid", "bid")


class Trump7Game(CompiledGame):
    """The four-player, 52-card trump7 of docs/rules-trump7.md, with or without the bid."""

    done = DONE
    observe_fn = observe
    describe_fn = describe
    event_log_type = EventLog
    outcome_log_type = OutcomeLog
    n_seats = 4
    n_actions = 52
    higher_is_better = True
    """Score direction: the most points wins (§10). Trix's is the opposite."""
    table_schemas = TABLE_SCHEMAS
    """The outcome tables ``outcomes(...).tables`` makes: name -> column -> meaning."""
    observation_fields = FIELDS
    """Every field a trump7 Observation offers (``describe_observation`` says what)."""
    events_module: ModuleType = events_module
    """Where this game's event kinds, ``decode`` and ``visible_to`` live."""
    score_prefix = "points"
    score_word = "points"
    record_fields: tuple[str, ...] = ()
    """A trump7 game replays from the seed and its index alone (the dealer is index % 4)."""
    report_aspects = "trixsim.reports.trump7_aspects"
    """The report's plug-in for trump7's own aspects: bidding, trump use, lead choices."""
    terminal = "trixsim.terminal.trump7"
    """The terminal table's plug-in: trump7's session (``trixsim play``)."""
    check_summary = ("points from tricks, honours and bids, 13 tricks and 12 honour points "
                     "a game, winners, losers and sums by the rules")
    format_limits: dict[str, str | None] = {}
    levels = (
        Level("easy", "random", "plays any legal card (and bid) at random"),
        Level("medium", "heuristic", "plays by rules of thumb (when to trump, when to "
                                     "save honours, what to lead), without looking ahead"),
        Level("hard", "pimc", "deals the unseen cards 24 ways and plays each move out in "
                              "all of them"),
        Level("expert", "pimc:worlds=64", "the same search over 64 deals: the strongest "
                                          "bot at the table"),
    )
    """The difficulty ladder people choose from (trixsim.levels)."""

    def __init__(self, bidding: bool) -> None:
        self.bidding = bidding
        self.name = "trump7-bid" if bidding else "trump7"
        self.variant = {"bid": bidding}
        self.decisions: tuple[Decision, ...] = \
            (PLAY_DECISION, BID_DECISION) if bidding else (PLAY_DECISION,)

    def __repr__(self) -> str:
        return f"Trump7Game(bidding={self.bidding})"

    # -- rules -------------------------------------------------------------------------

    def init(self, seed: int | Chance, game_ids: Any, first_pickers: Any = None,
             events: EventLog | None = None) -> GameState:
        """New games, dealt, the eldest to bid or lead. ``first_pickers`` must be None:
        trump7's dealer is the game index % 4, not drawn."""
        if first_pickers is not None:
            raise ValueError("trump7 has no first picker: the dealer is game index % 4")
        return rules.init(seed, game_ids, bidding=self.bidding, events=events)

    def legal_action_mask(self, state: GameState) -> ActionMask:
        """Per game, a uint64 mask over the actions (0 once over)."""
        return rules.legal_action_mask(state).astype(np.uint64)

    advances = True
    """``step(..., advance=True)`` plays the lone legal cards (see ``Game.step``)."""

    def step(self, state: GameState, actions: np.ndarray, events: EventLog | None = None,
             legal: ActionMask | None = None, advance: bool = False) -> ActionMask:
        """Apply one action per game in place; IllegalActionError names refused games.
        ``advance``: then play on through lone legal cards (without ``events`` only)."""
        return rules.step(state, actions, legal, events, advance=advance).astype(np.uint64)

    def raw_legal(self, state: GameState) -> np.ndarray:
        """The rules' int64 masks (``observe`` and ``decision`` come from CompiledGame:
        PLAY (0) or BID (1), -1 once over)."""
        return rules.legal_action_mask(state)

    def verify_tables(self, tables: dict[str, Any], start: int, stop: int,
                      rows: dict[str, int]) -> list[str]:
        """A chunk's games table re-derived by the rules (``trump7.verify``)."""
        from trixsim.games.trump7.verify import verify_games

        return verify_games(tables["games"], self.bidding)

    def legacy_tables(self, tables: dict[str, Any]) -> dict[str, Any]:
        """trump7 has no older table format."""
        return tables

    def whole_game_kernel(self) -> Any:
        """The compiled whole-game loop (its cache says whether a run must compile)."""
        from trixsim.games.trump7.fast import play_games

        return play_games

    def action_name(self, decision: DecisionId, action: Action) -> str:
        """A card name (``QS``, ``10H``) in play, ``bid 3`` in bid; else the number."""
        if decision == PLAY and 0 <= action < 52:
            return card_name(action)
        if decision == BID and 0 <= action <= 13:
            return f"bid {action}"
        return str(action)

    def why_illegal(self, state: GameState, game: int, action: Action) -> str | None:
        """Why ``action`` is refused in the game at batch position ``game``; None if legal."""
        g, a = int(game), int(action)
        mask = int(rules.legal_action_mask(state.take(np.array([g])))[0])
        if 0 <= a < self.n_actions and (mask >> a) & 1:
            return None
        ph, t = int(state.phase[g]), int(state.turn[g])
        if ph == DONE:
            return "the game is over"
        if ph == BID:
            return f"a bid is a number of tricks from 0 to 13, not {a}"
        if not 0 <= a < 52:
            return f"{a} is not a card (0-51)"
        if not (int(state.hands[g, t]) >> a) & 1:
            return f"seat {t} does not hold {card_name(a)}"
        led = int(state.trick_cards[g, 0]) // N_RANKS
        return f"seat {t} must follow {SUIT_WORDS[led]} with {names(mask)}"

    # -- what the loop (trixsim.sim) needs besides the rules ---------------------------

    def pending(self, state: GameState,
                legal: ActionMask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per game: the decision due (-1 once over), the seat to act, and -1 (trump7
        forces no action without asking)."""
        return (self.decision(state).astype(np.int64), state.turn.astype(np.int64),
                np.full(state.batch_size, -1, dtype=np.int64))

    def strategy_view(self, state: GameState, games: np.ndarray, legal: ActionMask,
                      fields: frozenset[str] | None) -> Observation:
        """What the acting seats know in ``games`` (``legal``: their masks)."""
        return observe(state, np.asarray(games, dtype=np.int64), legal, fields)

    def audit(self, state: GameState) -> PointsAudit:
        """The loop's honesty check (``after_step(state)`` -> message, live)."""
        return PointsAudit(state)

    def play_compiled(self, strategies: Any, seed: int, game_ids: Any,
                      observer: Any = None) -> GameState | None:
        """Whole games in compiled code when every seat has a compiled policy (the base
        class's ``UNIFORM`` is drawn inline); else None, and the loop asks the
        strategies' methods. An observer with ``events`` gets every event of the batch
        at the end. An illegal action raises StrategyError naming the strategy."""
        from trixsim.games.trump7.fast import play_policies
        from trixsim.games.trump7.policy import uniform_policy

        lineup = compiled_lineup(strategies, uniform_policy)
        if lineup is None:
            return None
        policies, params, builtin = lineup
        keep = observer is not None and hasattr(observer, "events")
        st, ev, err = play_policies(policies, params, Chance(int(seed)), game_ids,
                                    self.bidding, builtin=builtin, keep_events=keep)
        if err[0] >= 0:
            raise policy_error(self, st, strategies, err)
        if keep:
            observer.events(st, ev)
        return st

    # -- what the conformance kit (trixsim.testing) needs --------------------------------

    def own_hands(self, state: GameState) -> np.ndarray:
        """(B, 4) every seat's hand (52-bit card masks; hidden)."""
        return state.hands.copy()

    def redeal_pairs(self, states: list[GameState], actions: list[np.ndarray],
                     gen: np.random.Generator, limit: int | None = None) -> Redeals:
        """Decisions with the other hands and the stock's unseen order dealt anew
        consistently with what the seat saw, checked by replaying every action through the
        rules (``trixsim.games.trump7.redeal``)."""
        from trixsim.games.trump7.redeal import redeal_pairs

        return redeal_pairs(states, actions, gen, limit)

    def policy_answers(self, policy: Any, params: np.ndarray, state: GameState,
                       subkey: int) -> np.ndarray:
        """A compiled policy's answer for the seat to act in each game, as the whole-game
        loop asks it: the rules' mask, the seat's hand (``UNIFORM``: trump7's uniform
        policy)."""
        from trixsim.games.trump7.policy import uniform_policy
        from trixsim.policykit import policy_answers
        from trixsim.strategy import UNIFORM

        hands = state.hands[np.arange(state.batch_size), state.turn]
        return policy_answers(uniform_policy if policy is UNIFORM else policy, state.data,
                              rules.legal_action_mask(state), hands, subkey, params)

    # -- results (not yet in the protocol) ----------------------------------------------

    def final_scores(self, state: GameState) -> np.ndarray:
        """(B, 4) final points of finished games (higher is better)."""
        return state.points.copy()

    def winners_losers(self, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Boolean masks of the winners (most points) and losers (fewest)."""
        return rules.winners_losers(scores)

    def score(self, tricks: np.ndarray, bids: np.ndarray, honours: np.ndarray) -> np.ndarray:
        """Points from tricks, bids (-1: none) and honour points."""
        return rules.score(tricks, bids, honours)


GAME = Trump7Game(bidding=False)
BID_GAME = Trump7Game(bidding=True)

__all__ = ["BID_DECISION", "BID_GAME", "GAME", "PLAY_DECISION", "Trump7Game"]
