"""One game at the terminal table: the person's turns, the bots' moves, the commands.

A ``Session`` runs a ``trixsim.table.Table`` for the person at one seat: it lets the bots
play (and applies the forced trix passes) until the person must decide, prints what
happened as that seat may see it (``Table.history_for``), shows the status and the
playable cards, and reads lines until one is a legal action or ``quit``. It talks only
through an ``ask(prompt) -> line`` and a ``say(line)`` callable, so tests feed it input
lines and read its output; EOFError or KeyboardInterrupt from ``ask`` pass through.

The "last" command shows the last completed trick, at most twice per contract (the
house rule of docs/rules.md §12: won tricks lie face down).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from trixsim.games.trix.cards import KING_OF_HEARTS, Seat
from trixsim.games.trix.events import Trick
from trixsim.games.trix.transcript import GameRecord, Recorder
from trixsim.games.trix.types import (
    CONTRACT_NAMES,
    DECLARE,
    PASS,
    PICK,
    PLACE,
    PLAY,
    TRIX,
    Action,
)
from trixsim.strategy import Strategy
from trixsim.table import Table
from trixsim.terminal.text import (
    Names,
    Narrator,
    Style,
    hand_line,
    layout_line,
    points_so_far,
    read_card,
    read_contract,
    result_lines,
    trick_line,
)

LOOKS = 2
"""How often the last trick may be looked at per contract."""
QUIT = "quit"
OVER = "over"
SAVE_FORMAT = "trixsim-play-save/1"

HELP = """\
Commands (any time it is your turn):
  a card        play or place it: rank then suit, e.g. QH, 10S (or TS), 7d, A♠
  a contract    when you pick: its name or a unique start of it (dineri, da, pli, tr ...)
  y / n         when asked whether to declare the K♥
  pass          in trix, only when you have nothing to place (it happens by itself)
  hand          show the table and your hand again
  score         totals, this contract's points so far, and the contracts left
  last          look at the last trick (at most twice per contract)
  help          this text
  quit          leave the game (you may save it first, to resume with --resume)
Playable cards are shown in [brackets]. Play goes seat 0 → 1 → 2 → 3 → 0."""

_PROMPTS = {PICK: "Your pick: ", DECLARE: "Declare the K♥? (y/n): ", PLAY: "Your card: ",
            PLACE: "Card to place: "}


class Session:
    """The person at ``seat`` plays ``table`` against the bots in ``bots`` (the other
    three seats); ``labels`` name the four seats' players (the record's ``strategies``).

    This is Trix's; another game's session (``trixsim.terminal.trump7``) keeps the loop,
    the save and the commands and answers ``prompt``, ``status``, ``score``, ``last``
    and ``_move`` in its own words."""

    help_text = HELP

    def __init__(self, table: Table, seat: Seat, bots: Mapping[int, Strategy],
                 labels: list[str], say: Callable[[str], None],
                 style: Style | None = None) -> None:
        self.table, self.seat, self.bots, self.labels = table, seat, dict(bots), labels
        self.say = say
        self.style = style or Style()
        self.names = Names(seat)
        self.narrator = Narrator(self.style, self.names)
        self.actions: list[Action] = []
        """The person's actions so far, in order: with the seed, the whole game."""
        self._told = 0
        self._looks: dict[int, int] = {}

    # -- the game loop ---------------------------------------------------------------

    def run(self, ask: Callable[[str], str]) -> str:
        """Play until the game is over (``OVER``) or the person quits (``QUIT``)."""
        self._catch_up()
        while not self.table.over:
            self.status()
            while True:
                answer = self._answer(ask(self.prompt()))
                if answer == QUIT:
                    return QUIT
                if answer is not None:
                    break
            self.table.act(int(answer))
            self.actions.append(int(answer))
            self._catch_up()
        return OVER

    def prompt(self) -> str:
        """What the person is asked for now."""
        return _PROMPTS[self.table.decision]

    def replay(self, actions: list[Action]) -> None:
        """Redo a saved game's moves silently (bots answer as before: their choices
        depend only on the game); ValueError if the moves do not fit the game."""
        for k, a in enumerate(actions):
            self.table.play_bots(self.bots)
            if self.table.over or self.table.turn != self.seat:
                raise ValueError(f"move {k + 1}: it is not seat {self.seat}'s turn")
            why = self.table.why_illegal(a)
            if why is not None:
                raise ValueError(f"move {k + 1}: {why}")
            self.table.act(a)
            self.actions.append(a)
        self.table.play_bots(self.bots)
        self._told = len(self.table.history)
        for e in self.table.history_for(self.seat):  # keep the narrator's contract
            self.narrator.lines(e)

    def _catch_up(self) -> None:
        """Let the bots play until the person must decide; print everything new."""
        self.table.play_bots(self.bots)
        new = self.table.history_for(self.seat)[self._told:]
        self._told += len(new)
        for e in new:
            for line in self.narrator.lines(e):
                self.say(line)

    def _answer(self, text: str) -> Action | str | None:
        """The action typed, ``QUIT``, or None after printing why the line is no action
        (a command's output, or why the move is not allowed)."""
        t = text.strip()
        word = t.lower()
        if not t:
            return None
        if word in ("help", "?", "h"):
            self.say(self.help_text)
        elif word == "hand":
            self.status()
        elif word == "score":
            self.score()
        elif word == "last":
            self.last()
        elif word in ("quit", "exit", "q"):
            return QUIT
        else:
            return self._move(t)
        return None

    def _move(self, text: str) -> Action | None:
        """The legal action ``text`` names, or None after saying why not."""
        decision = self.table.decision
        word = text.lower()
        action: Action | None
        if decision == PICK:
            found = read_contract(text)
            if len(found) != 1:
                options = ", ".join(CONTRACT_NAMES[a] for a in self.table.legal_actions())
                what = "names more than one contract" if found else "is not a contract"
                self.say(f"'{text}' {what}: pick one of {options}.")
                return None
            action = found[0]
        elif decision == DECLARE:
            action = {"y": 1, "yes": 1, "declare": 1, "n": 0, "no": 0, "quiet": 0}.get(word)
            if action is None:
                self.say("Answer y (declare the K♥) or n (keep quiet).")
                return None
        elif word == "pass":
            if decision != PLACE:
                self.say("You can pass only in trix, when you have nothing to place.")
                return None
            action = PASS
        else:
            action = read_card(text)
            if action is None:
                self.say(f"'{text}' is not a card or a command: type a card such as QH, "
                         "10S or TS (help lists the commands).")
                return None
        why = self.table.why_illegal(action)
        if why is not None:
            self.say(f"Not allowed: {self.names.personal(why)}.")
            return None
        return action

    # -- what the person sees --------------------------------------------------------

    def status(self) -> None:
        """The table as the person sees it before deciding, and their hand."""
        t, st, n = self.table, self.style, self.names
        v = t.view(self.seat)
        hand = int(v.hand[0])
        legal = set(t.legal_actions()) if t.turn == self.seat else set()
        self.say("")
        if t.decision == PICK:
            pick = int(v.pick[0])
            times = "four times" if pick == 7 else "double"
            self.say(f"Your pick {pick} of 7: your points count {times} (trix: never "
                     "multiplied).")
            self.say(f"Totals: {n.row([int(x) for x in v.totals[0]])}")
            self.say(f"Your hand:  {hand_line(st, hand)}")
            used = int(v.used[0][self.seat])
            self.say("Contracts you may pick: " + " ".join(
                st.bold(f"[{CONTRACT_NAMES[a]}]") for a in sorted(legal)))
            for a in range(len(CONTRACT_NAMES)):
                if a not in legal and not used >> a & 1:
                    self.say(f"  not {CONTRACT_NAMES[a]}: {t.why_illegal(a)}")
            return
        contract, picker = int(v.contract[0]), int(v.picker[0])
        declared = int(v.declared[0])
        head = (f"{st.bold(CONTRACT_NAMES[contract])}, picked by {n(picker)}, contract "
                f"{int(v.contract_no[0]) + 1} of 28")
        if declared >= 0:
            head += f" · {st.card(KING_OF_HEARTS)} declared by {n(declared)}"
        self.say(head)
        if contract == TRIX:
            left = [int(x) for x in v.hand_sizes[0]]
            self.say("Cards left: " + " · ".join(f"{n(s)} {left[s]}" for s in range(4)))
            self.say(f"Layout:  {layout_line(st, int(v.played[0]))}")
        else:
            self.say(f"Tricks won: {n.row([int(x) for x in v.tricks[0]])}"
                     f"   (trick {int(v.trick_no[0]) + 1})")
            for line in self._so_far():
                self.say(line)
            cards = [int(c) for c in v.trick_cards[0]]
            if t.turn == self.seat and int(v.trick_n[0]) == 0:
                self.say("You lead.")
            else:
                self.say(f"On the table: {trick_line(st, n, int(v.leader[0]), cards)}")
        playable = legal if t.decision in (PLAY, PLACE) else None
        self.say(f"Your hand:  {hand_line(st, hand, playable)}")
        if t.decision == DECLARE:
            kh = st.card(KING_OF_HEARTS)
            self.say(f"You hold the {kh}. Declared, it is worth 200 to whoever takes it; "
                     "you lose 50 if someone else does.")

    def _so_far(self) -> list[str]:
        """The points of the contract being played, so far (trick contracts, once picked)."""
        t = self.table
        v = t.view(self.seat)
        contract, number = int(v.contract[0]), int(v.contract_no[0])
        if t.decision == PICK or contract == TRIX or contract < 0:
            return []
        tricks = [(e.winner, e.cards) for e in t.history_for(self.seat)
                  if isinstance(e, Trick) and e.contract == number]
        points, taken = points_so_far(contract, int(v.picker[0]), number // 4 + 1,
                                      int(v.declared[0]), tricks)
        line = f"{CONTRACT_NAMES[contract].capitalize()} so far: {self.names.row(points)}"
        detail = [f"{self.names(s)} {taken[s]}" for s in range(4) if taken[s]]
        return [line + (f"   (taken: {', '.join(detail)})" if detail else "")]

    def score(self) -> None:
        """Totals (before this contract), the points of this contract so far, and the
        contracts each seat has not used yet."""
        v = self.table.view(self.seat)
        self.say(f"Totals: {self.names.row([int(x) for x in v.totals[0]])}"
                 + ("   (before this contract)" if self._so_far() else ""))
        for line in self._so_far():
            self.say(line)
        for s in range(4):
            used = int(v.used[0][s])
            left = [name for a, name in enumerate(CONTRACT_NAMES) if not used >> a & 1]
            self.say(f"  {self.names(s)} ({self.labels[s]}): "
                     f"{', '.join(left) or 'no contracts'} left")

    def last(self) -> None:
        """Show the last trick of this contract, if it was looked at fewer than twice."""
        t = self.table
        v = t.view(self.seat)
        number = int(v.contract_no[0])
        if int(v.contract[0]) == TRIX:
            self.say("There are no tricks in trix.")
            return
        tricks = [e for e in t.history_for(self.seat)
                  if isinstance(e, Trick) and e.contract == number]
        if not tricks:
            self.say("No trick has been completed in this contract yet.")
            return
        looked = self._looks.get(number, 0)
        if looked >= LOOKS:
            self.say(f"You have already looked at the last trick {LOOKS} times in this "
                     "contract.")
            return
        self._looks[number] = looked + 1
        e = tricks[-1]
        shown = trick_line(self.style, self.names, e.leader, e.cards)
        self.say(f"Last trick ({e.trick + 1}): {shown}  →  won by {self.names(e.winner)}   "
                 f"[look {looked + 1} of {LOOKS}]")

    def final_lines(self) -> list[str]:
        """The final totals and the result (the game must be over)."""
        return result_lines(self.names, self.table.totals)

    # -- saving ----------------------------------------------------------------------

    def saved(self, seed: int, game_id: int, against: str) -> dict[str, Any]:
        """What ``--resume`` needs to rebuild this unfinished game."""
        out = {"format": SAVE_FORMAT, "seed": seed, "game_id": game_id, "seat": self.seat,
               "against": against, "actions": list(self.actions)}
        if self.table.game.name != "trix":  # a save without a game is Trix's
            out["game"] = self.table.game.name
        return out


def game_record(table: Table, seed: int | None, labels: list[str]) -> GameRecord:
    """The finished game at ``table`` as a ``trixsim-transcript/1`` record."""
    rec = Recorder(seed, labels)
    rec.fold(table.state, table.history)
    return rec.records(table.state)[0]


def load_save(path: Path) -> dict[str, Any]:
    """A saved game's fields; ValueError with a one-line reason if it is not one."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from None
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        raise ValueError(f"{path} is not a saved trixsim game ({SAVE_FORMAT})")
    ints = ("seed", "game_id", "seat")
    if not all(isinstance(d.get(k), int) and not isinstance(d.get(k), bool) for k in ints) \
            or not 0 <= d["seat"] <= 3 or d["seed"] < 0 or d["game_id"] < 0 \
            or not isinstance(d.get("against"), str) \
            or not isinstance(d.get("actions"), list) \
            or not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 64
                       for a in d["actions"]) \
            or not isinstance(d.get("game", "trix"), str):
        raise ValueError(f"{path}: a damaged save (seed, game_id, seat, against, actions)")
    if d.get("game", "trix") == "trix" and any(a > PASS for a in d["actions"]):
        raise ValueError(f"{path}: a damaged save (seed, game_id, seat, against, actions)")
    return d


__all__ = ["HELP", "LOOKS", "OVER", "QUIT", "Session", "game_record",
           "load_save"]
