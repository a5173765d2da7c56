"""``trixsim play``: the terminal table, driven with scripted input.

The person's moves are computed on a second ``Table`` with the same seed and bots (the
bots' choices depend only on the game, so both tables play the same game): each script
is a list of lines a person could type. Output is read back and checked against the
game's record and the hands as dealt.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.games.trix.cards import RANKS, SUIT_SYMBOLS, card_name, cards_of
from trixsim.games.trix.events import Deal, Pick, Place
from trixsim.games.trix.transcript_check import check_record
from trixsim.games.trix.transcript_parse import parse_record
from trixsim.games.trix.types import CONTRACT_NAMES, DECLARE, PICK, PLAY, TRIX
from trixsim.loading import load_strategy
from trixsim.table import Table
from trixsim.terminal import OVER, QUIT, Session, game_record
from trixsim.terminal.trix import Style, read_card, read_contract

TRIX_GAME = get_game("trix")

Chooser = Callable[[Table], int]


def first(table: Table) -> int:
    return table.legal_actions()[0]


def randomly(seed: int) -> Chooser:
    rnd = random.Random(seed)
    return lambda table: rnd.choice(table.legal_actions())


def typed(decision: int, action: int, k: int) -> str:
    """What a person types for ``action``, in varied spellings (the notation is
    case-insensitive, and ``T`` stands for 10)."""
    if decision == PICK:
        return CONTRACT_NAMES[action].upper() if k % 2 else CONTRACT_NAMES[action]
    if decision == DECLARE:
        return ("n", "y")[action]
    name = card_name(action)
    return (name, name.lower(), name.replace("10", "T"), name.replace("10", "t").lower())[k % 4]


class Script:
    """The lines a person at ``seat`` types to play the game of ``seed`` with ``choose``;
    ``extra(table, k)`` may add lines (commands, mistakes) before the k-th move."""

    def __init__(self, seed: int, seat: int = 0, choose: Chooser = first,
                 extra: Callable[[Table, int], list[str]] | None = None,
                 against: str = "heuristic", stop_after: int | None = None) -> None:
        self.table = Table(seed, game_id=0, game=TRIX_GAME)
        bot = load_strategy(against, "trix")
        bots = {s: bot for s in range(4) if s != seat}
        self.lines: list[str] = []
        k = 0
        while True:
            self.table.play_bots(bots)
            if self.table.over or (stop_after is not None and k == stop_after):
                break
            if extra is not None:
                self.lines += extra(self.table, k)
            a = choose(self.table)
            self.lines.append(typed(self.table.decision, a, k))
            self.table.act(a)
            k += 1
        self.moves = k

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def play(args: list[str], text: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["play", *args], input=text)
    assert not isinstance(result.exception, AssertionError)
    return result.exit_code, result.output


def totals_line(output: str) -> list[int]:
    m = re.search(r"Final totals: you (-?\d+) · right (-?\d+) · across (-?\d+) · "
                  r"left (-?\d+)", output)
    assert m, output[-2000:]
    return [int(x) for x in m.groups()]


@pytest.mark.parametrize("seed,choose", [(3, first), (11, randomly(5))])
def test_a_whole_game_is_played_recorded_and_the_record_replays(
        tmp_path: Path, seed: int, choose: Chooser) -> None:
    script = Script(seed, choose=choose)
    out = tmp_path / "game.jsonl"
    code, output = play(["--seed", str(seed), "--record", str(out)], script.text)
    assert code == 0, output[-3000:]
    assert "Game over." in output
    rec = parse_record(out.read_text().strip())
    assert rec.strategies == ["human", "heuristic", "heuristic", "heuristic"]
    assert rec.final_totals == script.table.totals
    assert totals_line(output) == rec.final_totals  # seat 0 is "you", listed first
    assert check_record(rec) == len(rec.contracts)
    replayed = CliRunner().invoke(cli, ["replay", str(out)])
    assert replayed.exit_code == 0 and "all consistent" in replayed.output
    # every contract's points and totals were printed as the record has them
    for c in rec.contracts:
        assert "  totals  " + "".join(f"{t:>7d}" for t in c.totals) in output


def test_record_appends_one_line_per_finished_game(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    for seed in (4, 5):
        code, _ = play(["--seed", str(seed), "--record", str(out), "--seat", "2"],
                       Script(seed, seat=2).text)
        assert code == 0
    recs = [parse_record(line) for line in out.read_text().splitlines()]
    assert [r.seed for r in recs] == [4, 5]
    assert all(r.strategies[2] == "human" for r in recs)
    assert CliRunner().invoke(cli, ["replay", str(out)]).exit_code == 0


def _first_play_mistakes(table: Table, k: int) -> list[str]:
    """At the person's first pick, an unknown and an ambiguous contract; at their first
    card decision: a card not held, one that does not follow (when there is one),
    nonsense and a pass."""
    if table.decision == PICK and not getattr(table, "_pick_mistakes", False):
        table._pick_mistakes = True  # type: ignore[attr-defined]
        return ["banana", "d"]  # no contract, and the start of two
    if table.decision != PLAY or getattr(table, "_mistakes_made", False):
        return []
    table._mistakes_made = True  # type: ignore[attr-defined]
    hand = int(table.view(table.turn).hand[0])
    legal = set(table.legal_actions())
    lines = [card_name(next(c for c in range(32) if not hand >> c & 1)).lower(), "zz9",
             "pass"]
    wrong_suit = [c for c in cards_of(hand) if c not in legal]
    if wrong_suit:
        lines.append(card_name(wrong_suit[0]))
    return lines


def test_illegal_input_gets_the_reason_and_a_new_prompt() -> None:
    seed = 8
    script = Script(seed, extra=_first_play_mistakes)
    code, output = play(["--seed", str(seed)], script.text)
    assert code == 0, output[-2000:]
    assert "'banana' is not a contract: pick one of" in output
    assert "'d' names more than one contract" in output
    assert re.search(r"Not allowed: you do not hold (10|[789JQKA])[♥♣♦♠]\.", output)  # as shown
    assert "'zz9' is not a card or a command" in output
    assert "You can pass only in trix" in output
    if "must follow" in output:
        assert re.search(r"Not allowed: you must follow (hearts|clubs|diamonds|spades) "
                         r"with ", output)
    assert "Traceback" not in output
    assert totals_line(output) == script.table.totals  # the mistakes changed nothing


def test_picks_the_rules_refuse_get_the_reason() -> None:
    """A used contract is refused; on pick 6 with trix unused, trix is the only choice
    (seed 2: the random seats leave the game going until the person's pick 6)."""
    table = Table(2, game_id=0, game=TRIX_GAME)
    printed: list[str] = []
    session = Session(table, 0, {s: load_strategy("random", "trix") for s in (1, 2, 3)},
                      ["human", "random", "random", "random"], printed.append)
    refused: list[str] = []

    def ask(prompt: str) -> str:
        if table.decision == PICK and len(refused) < 2:
            used = int(table.view(0).used[0][0])
            pick = int(table.view(0).pick[0])
            if pick == 6 and TRIX in table.legal_actions() and len(refused) == 1:
                refused.append(CONTRACT_NAMES[next(a for a in range(6) if not used >> a & 1)])
                return refused[-1]
            if used and not refused:
                refused.append(CONTRACT_NAMES[next(a for a in range(7) if used >> a & 1)])
                return refused[-1]
        legal = [a for a in table.legal_actions() if table.decision != PICK or a != TRIX]
        return typed(table.decision, (legal or table.legal_actions())[0], 0)

    assert session.run(ask) == OVER
    text = "\n".join(printed)
    assert len(refused) == 2
    assert f"Not allowed: you have already used {refused[0]}." in text
    assert "Not allowed: trix is forced on pick 6 when it is still unused." in text
    assert "  not trix: trix needs a jack in hand" in text or "[trix]" in text


def _lasts(table: Table, k: int) -> list[str]:
    """Four looks at the last trick before the person's card in the third trick of
    the first trick contract; one look in the next contract."""
    if table.decision != PLAY:
        return []
    v = table.view(table.turn)
    seen = getattr(table, "_looked", [])
    table._looked = seen  # type: ignore[attr-defined]
    cn = int(v.contract_no[0])
    if int(v.trick_no[0]) == 2 and not seen:
        seen.append(cn)
        return ["last"] * 4
    if len(seen) == 1 and cn > seen[0] and int(v.trick_no[0]) >= 1:
        seen.append(cn)
        return ["LAST"]
    return []


def test_last_shows_the_last_trick_twice_per_contract(tmp_path: Path) -> None:
    seed = 6
    script = Script(seed, extra=_lasts)
    out = tmp_path / "g.jsonl"
    code, output = play(["--seed", str(seed), "--record", str(out)], script.text)
    assert code == 0, output[-2000:]
    looks = re.findall(r"Last trick \((\d)\): (.*)  →  won by (\S+(?: \d)?)   "
                       r"\[look (\d) of 2\]",
                       output)
    assert [x[3] for x in looks] == ["1", "2", "1"]
    assert looks[0][0] == "2" and looks[0][1:3] == looks[1][1:3]
    assert output.count("You have already looked at the last trick 2 times in this "
                        "contract.") == 2
    # what "last" showed is the record's second trick of that contract
    rec = parse_record(out.read_text())
    first_trick_contract = next(c for c in rec.contracts if c.contract != TRIX)
    leader, cards = first_trick_contract.tricks[1]
    shown = [re.sub(r"^(you|right|across|left) ", "", part) for part in looks[0][1].split(", ")]
    assert shown == [RANKS[c & 7] + SUIT_SYMBOLS[c >> 3] for c in cards]


def test_quit_exits_cleanly_and_a_saved_game_resumes(tmp_path: Path) -> None:
    seed = 9
    whole = Script(seed, choose=randomly(1))
    part = Script(seed, choose=randomly(1), stop_after=20)
    save = tmp_path / "save.json"
    code, output = play(["--seed", str(seed)], part.text + "quit\n" + f"{save}\n")
    assert code == 0, output[-2000:]
    assert f"Resume with: trixsim play --resume {save}" in output
    saved = json.loads(save.read_text())
    assert saved["seed"] == seed and len(saved["actions"]) == 20
    out = tmp_path / "g.jsonl"
    code, output = play(["--resume", str(save), "--record", str(out)],
                        "\n".join(whole.lines[20:]) + "\n")
    assert code == 0, output[-2000:]
    assert "Resumed the game of seed 9" in output
    assert parse_record(out.read_text()).final_totals == whole.table.totals
    # quitting without saving, and the resume file must not be mixed with other options
    code, output = play(["--seed", "9"], "help\nquit\n\n")
    assert code == 0 and "Game left unsaved." in output
    code, output = play(["--resume", str(save), "--seed", "3"], "")
    assert code == 2 and "--resume takes the seat" in output


def test_a_save_that_fails_keeps_the_earlier_save_whole(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving over an earlier save on a full disk: one line, and the earlier save stays as
    it was (before, the file was rewritten in place and could be left cut short)."""
    save = tmp_path / "save.json"
    code, output = play(["--seed", "9"], "quit\n" + f"{save}\n")
    assert code == 0, output[-2000:]
    earlier = save.read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    part = Script(9, choose=randomly(1), stop_after=12)
    code, output = play(["--seed", "9"], part.text + "quit\n" + f"{save}\n")
    assert code == 1
    assert output.strip().splitlines()[-1].endswith(f"Error: cannot save to {save}: "
                                                    "No space left on device")
    assert save.read_bytes() == earlier and sorted(tmp_path.iterdir()) == [save]


def test_end_of_input_and_ctrl_c_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    code, output = play(["--seed", "1"], "dineri\n")
    assert code == 130
    assert output.strip().splitlines()[-1] == "Error: the input ended; game abandoned"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("trixsim.commands.play._ask", interrupt)
    code, output = play(["--seed", "1"], "")
    assert code == 130
    assert output.strip().splitlines()[-1] == "Error: interrupted; game abandoned"


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    code, output = play(["--against", "no-such-bot"], "")
    assert code == 2 and "--against" in output and "Traceback" not in output
    code, output = play(["--record", str(tmp_path / "nowhere" / "x.jsonl")], "")
    assert code == 2 and "does not exist" in output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    code, output = play(["--resume", str(bad)], "")
    assert code == 2 and "not a saved trixsim game" in output


_CARD = re.compile(r"(10|[789JQKA])([♥♣♦♠])")
_SUITS = {s: k for k, s in enumerate(SUIT_SYMBOLS)}


def _cards_in(line: str) -> set[int]:
    """Cards written with a suit symbol; for a "Your hand" line, its cards by suit."""
    if line.startswith("Your hand:"):
        found = set()
        for part in re.findall(r"([♥♣♦♠]) ([^♥♣♦♠]*)", line):
            for rank in part[1].replace("[", " ").replace("]", " ").split():
                if rank != "-":
                    found.add(_SUITS[part[0]] * 8 + RANKS.index(rank))
        return found
    return {_SUITS[s] * 8 + RANKS.index(r) for r, s in _CARD.findall(line)}


@pytest.mark.parametrize("seat", [0, 3])
def test_no_other_hand_is_shown_before_its_cards_are_played(seat: int) -> None:
    """Drive a session line by line; every card in a printed line must be the person's
    own (dealt to them in this contract) or already played when the line is printed: for
    a line telling an event, by that event; for the status and commands, by now."""
    table = Table(13, game_id=0, game=TRIX_GAME)
    bot = load_strategy("heuristic", "trix")
    printed: list[tuple[int, str]] = []  # (events the seat was told before the line, line)
    telling: list[int] = []  # events told so far, while the narrator tells one

    def say(line: str) -> None:
        printed.append((telling[0] if telling else len(table.history_for(seat)), line))

    session = Session(table, seat, {s: bot for s in range(4) if s != seat}, ["x"] * 4, say)
    lines = session.narrator.lines
    told = [0]

    def narrate(e: object) -> list[str]:
        told[0] += 1
        telling[:] = [told[0]]
        return lines(e)  # type: ignore[arg-type]

    session.narrator.lines = narrate  # type: ignore[method-assign]
    original = session._catch_up

    def catch_up() -> None:
        original()
        telling.clear()

    session._catch_up = catch_up  # type: ignore[method-assign]
    choose = randomly(2)
    assert session.run(lambda prompt: typed(table.decision, choose(table), 0)) == OVER
    history = table.history_for(seat)  # what the seat is told, in order
    checked = 0
    for upto, line in printed:
        past = history[:upto]
        deal = max(i for i, e in enumerate(past) if isinstance(e, Deal))
        own = set(cards_of(past[deal].hands[seat]))
        played = {e.card for e in past[deal:] if hasattr(e, "card")}
        shown = _cards_in(line) - {5}  # the K♥ is named in the rules' texts
        assert shown <= own | played, (line, [card_name(c) for c in shown - own - played])
        if line.startswith("Your hand:"):
            assert shown <= own
        checked += bool(shown - own)
    assert checked > 100  # many lines showed other seats' played cards
    assert any(isinstance(e, Pick) for e in history) and any(
        isinstance(e, Place) for e in history)


def test_a_keep_quiet_is_told_to_the_holder_alone() -> None:
    """Only a made declaration is public: a holder keeping quiet would give away the K♥,
    so the person hears of their own quiet decisions and of no one else's."""
    others = 0  # quiet decisions by bots, which the person must not hear of
    for seat in range(4):
        table = Table(2, game_id=0, game=TRIX_GAME)
        printed: list[str] = []
        bot = load_strategy("random", "trix")
        session = Session(table, seat, {s: bot for s in range(4) if s != seat}, ["x"] * 4,
                          printed.append)
        assert session.run(lambda p, t=table: typed(t.decision, first(t), 0)) == OVER
        quiet = [e.seat for e in table.history
                 if type(e).__name__ == "Declare" and not e.declared]
        said = [line for line in printed if "quiet" in line.lower()]
        assert len(said) == quiet.count(seat)
        assert all(line.startswith("You keep quiet about the K♥") for line in said)
        others += len(quiet) - quiet.count(seat)
    assert others > 0


def test_session_quits_when_asked() -> None:
    table = Table(1, game_id=0, game=TRIX_GAME)
    printed: list[str] = []
    bot = load_strategy("random", "trix")
    session = Session(table, 1, {0: bot, 2: bot, 3: bot}, ["x"] * 4, printed.append)
    assert session.run(lambda p: "quit") == QUIT
    assert not table.over and session.actions == []


def test_typed_cards_and_contracts() -> None:
    for text in ("QH", "qh", " q h ", "Q♥", "q♡"):
        assert read_card(text) == 4
    for text in ("10S", "10s", "TS", "ts", "10♠"):
        assert read_card(text) == 30
    assert read_card("1S") is None and read_card("hand") is None and read_card("") is None
    assert read_contract("Dineri") == [0]
    assert read_contract("tr") == [6] and read_contract("p") == [2]
    assert read_contract("d") == [0, 1] and read_contract("x") == []


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Style.for_stream(_Stream(True)).color
    assert not Style.for_stream(_Stream(False)).color
    monkeypatch.setenv("NO_COLOR", "1")
    assert not Style.for_stream(_Stream(True)).color
    red, black = Style(True), Style(False)
    assert red.card(4) == "\x1b[31mQ♥\x1b[0m" and red.card(30) == "10♠"
    assert red.card(20) == "\x1b[31mQ♦\x1b[0m" and black.card(4) == "Q♥"
    code, output = play(["--seed", "3"], "quit\n\n")  # CliRunner's output is no terminal
    assert code == 0 and "\x1b[" not in output


def test_game_record_of_a_bot_game_checks_out() -> None:
    table = Table(17, game_id=0, game=TRIX_GAME)
    bot = load_strategy("heuristic", "trix")
    table.play_bots({s: bot for s in range(4)})
    rec = game_record(table, 17, ["heuristic"] * 4)
    assert check_record(rec) == len(rec.contracts)
    assert rec.final_totals == table.totals
