"""The game interface: what the loop, runner, records, tables and search are written against.

A ``Game`` holds one rule set's pure functions over a batch of games (in the spirit of
Pgx's ``Env`` and OpenSpiel's ``Game``): ``init`` deals, ``legal_action_mask`` says what the
seat to act may do (every action, a forced pass included, so no caller special-cases
one), ``step`` applies one action per game, ``observe`` builds a seat's view, and
``why_illegal`` is the one place that explains a refusal, used by every error message.
Actions are plain ints below ``n_actions``; a game's decisions are named, with the strategy
method that answers each. Each rule set lives in its own package under ``trixsim.games``
and is registered by name (``trixsim.games.get_game``).

Beyond the rules, a game says what its callers need and nothing of it is assumed:

- **results**: ``final_scores`` and ``winners_losers``, and ``higher_is_better``, the
  direction every comparison, tuning and report names "better" in;
- **outcome tables**: ``outcomes(batch, lineup).tables(state, specs)`` gives Arrow tables
  named as in ``table_schemas`` (name -> column -> meaning); a ``games`` table, one row per
  game with ``{score_prefix}_0..3`` and ``winner_0..3``/``loser_0..3``, is always among
  them, and other tables list their row counts in run.json under their own name;
- **verification**: ``verify_tables`` re-derives a chunk's tables by the rules (what
  ``trixsim check`` asks);
- **observations**: ``observation_fields`` (``legal`` and ``key`` always among them) and
  ``describe_observation``, what strategies' ``observes`` are checked against;
- **chance as input**: ``init`` takes a seed or the game's own chance object (one that
  imposes deals), so records replay and search re-deals through the rules alone;
- **events**: ``event_log()`` makes the buffer ``init``/``step`` fill, and
  ``events_module`` holds ``decode(rows, game_ids)`` and ``visible_to(event, seat)``;
- **records**: ``record_fields``, the per-game inputs besides the seed and game index a
  record must keep to replay a game (Trix: its first picker; none for trump7).
  A game may also have a record format of its own (optional ``own_records()``: its
  ``format`` name, ``recorder``, ``parse`` and ``check``; Trix's trixsim-transcript/1),
  which ``record`` and ``replay`` use besides the envelope;
- **report aspects** (optional): ``report_aspects``, the import path of the report's
  plug-in for the game's own aspects (``trixsim.reports.aspects``); absent: none;
- **difficulty levels** (optional): ``levels``, the game's ladder for people (easy,
  medium, hard, expert: ``trixsim.levels.Level``, each a bundled spec and one line saying
  what it means), offered by ``trixsim play --level`` and the web table; absent: none;
- **terminal table** (optional): ``terminal``, the import path of the game's terminal
  plug-in, whose ``SESSION`` plays it at ``trixsim play`` (``trixsim.terminal.session``);
  absent: the terminal table does not play it.
- **the conformance kit** (``trixsim.testing``): ``own_hands`` (every seat's hidden
  hand) and ``redeal_pairs`` (states that look the same to a seat but differ in the cards
  hidden from it, for the fair-play check; a game without it is checked without fair
  play), and, for a game whose strategies may have compiled policies,
  ``policy_answers(policy, params, state, subkey)``: the policy's answer for the seat to
  act in each game of ``state``, asked as the game's compiled loop asks it (the base
  class's ``UNIFORM`` marker included); absent: the kit asks the methods only.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import numpy as np

Seat = int
"""A seat, 0..n_seats - 1."""
Action = int
"""An action id, 0..n_actions - 1; its meaning depends on the decision."""
DecisionId = int
"""The kind of decision a seat must take (an index into ``Game.decisions``)."""
ActionMask = np.ndarray
"""Per game, a uint64 bit mask over action ids: bit a set when action a is legal."""


@dataclass(frozen=True)
class Redeals:
    """What ``Game.redeal_pairs`` gives the fair-play check: pairs of states of the same
    decisions that look the same to a seat (same observation, same public history) but
    differ in the cards hidden from it.

    ``played`` and ``redealt`` are states of the game, one game per pair (the same game
    ids, the same chance source); ``viewers`` (int64) the seat each pair looks the same
    to (the seat to act, for the fair-play check); ``where`` each pair's decision in words
    for messages (``decision 'play' at ply 12 (seat 2)``; the kit adds the game id and
    seed). ``asked``: decisions the game tried to re-deal; ``rejected``: re-deals drawn
    that did not fit the public history when replayed through the rules, and were
    dropped, with ``reasons`` (one line per kind, with its count). ``problems``: faults of
    the engine found on the way, one line each (an observation field that disagrees with
    the public history), which the kit reports as failures.
    """

    played: Any
    redealt: Any
    viewers: np.ndarray
    where: tuple[str, ...]
    asked: int = 0
    rejected: int = 0
    reasons: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.viewers)


@dataclass(frozen=True)
class Decision:
    """One kind of decision: its id, its name and the strategy method that answers it."""

    id: DecisionId
    name: str
    method: str


class Game(Protocol):
    """A rule set over a batch of games (see the module docstring). Its states have
    ``game_id`` (each game's global index), ``batch_size`` and ``copy()`` (a deep copy,
    for search and checks); ``decisions[i].id == i``."""

    name: str
    n_seats: int
    n_actions: int
    decisions: tuple[Decision, ...]
    higher_is_better: bool
    """Score direction: True when the most points win (trump7), False when the fewest
    do (Trix). Comparisons, tuning and reports name "better" by it."""
    table_schemas: dict[str, dict[str, str]]
    """The outcome tables by name, each column -> meaning (``games`` always present)."""
    score_prefix: str
    """The ``games`` table's final-score columns are ``{score_prefix}_0..3``."""
    score_word: str
    """What a final score is called in summaries (Trix: ``total``, trump7: ``points``)."""
    observation_fields: tuple[str, ...]
    """Every field an observation of this game offers (``legal`` and ``key`` included)."""
    events_module: ModuleType
    """Where ``decode(rows, game_ids)`` and ``visible_to(event, seat)`` live."""
    record_fields: tuple[str, ...]
    """Per-game columns of the ``games`` table a record keeps to replay a game."""

    def init(self, seed: Any, game_ids: Any, first_pickers: Any = None,
             events: Any = None) -> Any:
        """A batch of new games, one per game id, dealt by the chance source (a seed or
        one imposing deals); the deals are reported to ``events`` if given."""

    def legal_action_mask(self, state: Any) -> ActionMask:
        """Per game, the legal actions of the seat to act (0 once a game is over)."""

    def step(self, state: Any, actions: np.ndarray, events: Any = None) -> ActionMask:
        """Apply one action per game in place and return the new legal masks; what
        happened is reported to ``events`` if given (nothing is made otherwise). A game
        that sets ``advances = True`` also takes ``legal`` (this state's masks) and
        ``advance``: with it, each game then goes on by itself through the actions nobody
        chooses (one its rules force, the only legal one) until its seat to act has a
        choice, the game ends, or a scoring unit (a Trix contract) ends; the stepwise
        loop then asks the strategies fewer times for the same games."""

    def decision(self, state: Any) -> np.ndarray:
        """Per game, the decision id the seat to act must take, or -1 once over."""

    def to_act(self, state: Any) -> np.ndarray:
        """Per game, the seat that must act."""

    def observe(self, state: Any, games: np.ndarray, seat: Seat | np.ndarray) -> Any:
        """What ``seat`` knows in the games at ``games`` (hidden cards unreachable)."""

    def why_illegal(self, state: Any, game: int, action: Action) -> str | None:
        """Why ``action`` is not legal in the game at batch position ``game``, or None."""

    def action_name(self, decision: DecisionId, action: Action) -> str:
        """A short readable name of an action in a decision."""

    # -- what the loop (trixsim.sim) needs besides the rules ---------------------------

    def pending(self, state: Any, legal: ActionMask) -> tuple[np.ndarray, np.ndarray,
                                                             np.ndarray]:
        """Per game: the decision due (-1 once over), the seat to act, and an action the
        rules take without asking anyone (Trix: the pass of a seat with nothing to
        place), else -1 (int64 arrays)."""

    def strategy_view(self, state: Any, games: np.ndarray, legal: ActionMask,
                      fields: frozenset[str] | None) -> Any:
        """The acting seats' observations in ``games``, as strategies receive them
        (``fields``: only those, None for all)."""

    def audit(self, state: Any) -> Any:
        """An honesty check for a batch being played: ``after_step(state)`` returns a
        message naming a game whose state broke the rules (or None) and whether any game
        is still being played. An audit that also offers ``take(idx)`` (the audit of the
        games at ``idx`` alone) and ``put(idx, part)`` (take a part's account back) lets
        the loop drop finished games from the rows it steps."""

    def play_compiled(self, strategies: Any, seed: Any, game_ids: Any,
                      observer: Any = None) -> Any:
        """Play whole games inside compiled code if every seat can be played there
        (else None), feeding ``observer`` the same events as the stepwise loop."""


    # -- results, tables, checks ---------------------------------------------------------

    def final_scores(self, state: Any) -> np.ndarray:
        """(B, n_seats) final scores of finished games."""

    def winners_losers(self, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Boolean (B, n_seats) masks of each game's winners and losers (ties: all)."""

    def outcomes(self, batch: int, lineup: int = 0) -> Any:
        """An observer of one batch whose ``tables(state, specs)`` gives the outcome
        tables (``table_schemas``) of the finished batch."""

    def verify_tables(self, tables: dict[str, Any], start: int, stop: int,
                      rows: dict[str, int]) -> list[str]:
        """Problems (one line each, empty when none) of one chunk's tables (pandas
        frames by name, games ``start .. stop - 1``; ``rows``: the row counts run.json
        lists for tables other than ``games``), re-derived by the rules."""

    def describe_observation(self) -> dict[str, str]:
        """Every observation field with its meaning."""

    def event_log(self) -> Any:
        """A fresh buffer for the events ``init`` and ``step`` report."""

    # -- what the conformance kit (trixsim.testing) needs ---------------------------------

    def own_hands(self, state: Any) -> np.ndarray:
        """(B, n_seats) int64: every seat's hidden hand (a card mask), what its compiled
        policy is handed and what a re-deal must keep for the seat it looks the same to."""

    def redeal_pairs(self, states: list[Any], actions: list[np.ndarray],
                     gen: np.random.Generator, limit: int | None = None) -> Redeals:
        """Up to ``limit`` decisions of recorded games, each with the cards hidden from
        the seat to act dealt anew consistently with what that seat saw, checked by
        replaying the public history through the rules (a re-deal that does not fit is
        rejected and counted). ``states``: the batch's state before each step of
        ``play_batch`` (as an observer's ``before_step`` sees it, copied); ``actions``:
        the actions applied at each step. A game without hidden cards returns no pairs."""


def direction(game: Game) -> str:
    """``higher`` or ``lower``: which scores are better in ``game``."""
    return "higher" if game.higher_is_better else "lower"


def better_sign(game: Game) -> int:
    """+1 when higher scores are better in ``game``, -1 when lower are: a difference of
    scores times this is positive for the better side."""
    return 1 if game.higher_is_better else -1


def mask_actions(mask: int) -> list[Action]:
    """The action ids set in one game's mask."""
    return [a for a in range(64) if (int(mask) >> a) & 1]


__all__ = ["Action", "ActionMask", "Decision", "DecisionId", "Game", "Redeals", "Seat",
           "better_sign", "direction", "mask_actions"]
