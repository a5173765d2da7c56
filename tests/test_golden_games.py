"""Golden games: complete recorded games kept as data, checked three ways.

The games are in tests/data/golden/ (one ``trixsim-transcript/1`` record per ``.jsonl``
file, with a readable play-by-play in the ``.txt`` beside it; the README there lists what
each game shows). For every game:

- the record replays through the rules engine (``check_record``), and again one decision
  at a time through a ``Table`` that deals from the seed instead of the record's hands;
- playing it again from its seed, strategies and game id gives the stored line byte for
  byte; when it does not, ``first_difference`` names the first place that differs (the
  contract, the trick or trix move, and the field, expected vs got);
- it still shows the events it was chosen for (checked per game below).

The forced-trix starter direction is also checked on hand-built deals: the starter is the
first seat after the picker in play order, ``(picker + k) % 4``, that holds a jack.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import act, deal, legal_cards, rotate, table

from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.games import trix as engine
from trixsim.games.trix.cards import KING_OF_HEARTS, card_name, mask_of, parse_card
from trixsim.games.trix.rules import trick_winner
from trixsim.games.trix.transcript import ContractRecord, GameRecord, result_seats
from trixsim.games.trix.transcript_check import check_record
from trixsim.games.trix.transcript_parse import parse_record
from trixsim.games.trix.types import DECLARE, GENERAL, PASS, PICK, PLACE, PLAY, RAY, TRIX
from trixsim.table import Table

TRIX_GAME = get_game("trix")

GOLDEN_DIR = Path(__file__).parent / "data" / "golden"
H_REST = ("trix_min_score=2.5,trix_by_pick=2,seventh_weight=1.0,farcha_shed_tricks=5,"
          "lead_guard=15.0,place_own_weight=2.0,place_other_weight=1.0,place_ace_bonus=3.0,"
          "farcha_by_rank=false,over_1000_penalty=0.0")
H_OLD = "declare_margin=-20.0," + H_REST  # the heuristic the games were chosen with
NAMES = ("docs_example", "forced_trix_wraps", "full_28_forced_trix", "general_declared",
         "reset_1000_then_end")
JACKS = frozenset(parse_card(f"J{s}") for s in "HCDS")


def stored_line(name: str) -> str:
    """The one line (with its newline) of the golden record ``name``."""
    text = (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
    assert text.count("\n") == 1 and text.endswith("\n"), f"{name}: expected one line"
    return text


def golden(name: str) -> GameRecord:
    """The golden record ``name``, parsed."""
    return parse_record(stored_line(name))


# --- first difference between two records ---------------------------------------------

_ABSENT: Any = object()

CONTRACT_FIELDS = ("number", "picker", "pick", "contract", "hands", "ray_declared", "tricks",
                   "moves", "points", "totals")
GAME_FIELDS = ("format", "game_id", "seed", "strategies", "first_picker", "contracts",
               "final_totals", "winners", "losers")


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values (``true`` is not ``1``, as it would be for Python's ``==``);
    an absent field equals only an absent field."""
    if a is _ABSENT or b is _ABSENT:
        return a is b
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _show(v: Any) -> str:
    return "absent" if v is _ABSENT else json.dumps(v)


def _ordered(fields: tuple[str, ...], *objs: dict[str, Any]) -> list[str]:
    """``fields`` in order, then any other key of ``objs`` (so that nothing is skipped)."""
    extra = [k for o in objs for k in o if k not in fields]
    return list(fields) + list(dict.fromkeys(extra))


def _move_text(m: Any) -> str:
    if isinstance(m, list) and len(m) == 2:
        return f"seat {m[0]} passes" if m[1] is None else f"seat {m[0]} places {m[1]}"
    return _show(m)


def _hands_difference(at: str, e: Any, g: Any) -> str | None:
    if isinstance(e, list) and isinstance(g, list) and len(e) == len(g):
        for s, (eh, gh) in enumerate(zip(e, g, strict=True)):
            if isinstance(eh, list) and isinstance(gh, list) and len(eh) == len(gh):
                for k, (ec, gc) in enumerate(zip(eh, gh, strict=True)):
                    if not _same(ec, gc):
                        return f"{at}hands[{s}][{k}]: expected {_show(ec)}, got {_show(gc)}"
            elif not _same(eh, gh):
                return f"{at}hands[{s}]: expected {_show(eh)}, got {_show(gh)}"
    return None if _same(e, g) else f"{at}hands: expected {_show(e)}, got {_show(g)}"


def _count_difference(at: str, what: str, e: list[Any], g: list[Any]) -> str:
    n = min(len(e), len(g))
    state = "missing" if len(g) < len(e) else "extra"
    return (f"{at}{what}s: expected {len(e)} {what}s, got {len(g)} "
            f"({what} {n + 1} is {state})")


def _tricks_difference(at: str, e: Any, g: Any) -> str | None:
    if not (isinstance(e, list) and isinstance(g, list)):
        return None if _same(e, g) else f"{at}tricks: expected {_show(e)}, got {_show(g)}"
    for i, (et, gt) in enumerate(zip(e, g, strict=False)):
        where = f"{at}trick {i + 1}, "
        if not (isinstance(et, dict) and isinstance(gt, dict)):
            if not _same(et, gt):
                return f"{where[:-2]}: expected {_show(et)}, got {_show(gt)}"
            continue
        for key in _ordered(("leader", "cards"), et, gt):
            ev, gv = et.get(key, _ABSENT), gt.get(key, _ABSENT)
            if key == "cards" and isinstance(ev, list) and isinstance(gv, list) \
                    and len(ev) == len(gv):
                lead = et.get("leader")
                for k, (ec, gc) in enumerate(zip(ev, gv, strict=True)):
                    if not _same(ec, gc):
                        seat = f" (seat {(lead + k) % 4})" if isinstance(lead, int) else ""
                        return f"{where}cards[{k}]{seat}: expected {_show(ec)}, got {_show(gc)}"
            elif not _same(ev, gv):
                return f"{where}{key}: expected {_show(ev)}, got {_show(gv)}"
    return None if len(e) == len(g) else _count_difference(at, "trick", e, g)


def _moves_difference(at: str, e: Any, g: Any) -> str | None:
    if not (isinstance(e, list) and isinstance(g, list)):
        return None if _same(e, g) else f"{at}moves: expected {_show(e)}, got {_show(g)}"
    for i, (em, gm) in enumerate(zip(e, g, strict=False)):
        if _same(em, gm):
            continue
        where = f"{at}trix move {i + 1}"
        if isinstance(em, list) and isinstance(gm, list) and len(em) == len(gm) == 2:
            k = 0 if not _same(em[0], gm[0]) else 1
            return (f"{where}, {('seat', 'card')[k]}: expected {_show(em[k])} "
                    f"({_move_text(em)}), got {_show(gm[k])} ({_move_text(gm)})")
        return f"{where}: expected {_show(em)}, got {_show(gm)}"
    return None if len(e) == len(g) else _count_difference(at, "trix move", e, g)


def _contract_difference(i: int, e: dict[str, Any], g: dict[str, Any]) -> str | None:
    at = f"contract {e.get('number', i + 1)} ({e.get('contract', '?')}), "
    for key in _ordered(CONTRACT_FIELDS, e, g):
        ev, gv = e.get(key, _ABSENT), g.get(key, _ABSENT)
        if key == "hands":
            diff = _hands_difference(at, ev, gv)
        elif key == "tricks" and ev is not _ABSENT and gv is not _ABSENT:
            diff = _tricks_difference(at, ev, gv)
        elif key == "moves" and ev is not _ABSENT and gv is not _ABSENT:
            diff = _moves_difference(at, ev, gv)
        else:
            diff = None if _same(ev, gv) else f"{at}{key}: expected {_show(ev)}, got {_show(gv)}"
        if diff:
            return diff
    return None


def first_difference(expected: dict[str, Any], got: dict[str, Any]) -> str | None:
    """The first place where two game records (JSON objects) differ, as one readable line,
    or None when they hold the same values.

    Fields are walked in the record's order and contracts, tricks and trix moves in the
    order of play, so the line names the earliest divergence: ``contract 13 (ray), trick
    4, cards[3] (seat 0): expected "KH", got "AS"``. Contracts, tricks and moves are
    counted from 1, as ``trixsim replay`` counts them.
    """
    for key in _ordered(GAME_FIELDS, expected, got):
        ev, gv = expected.get(key, _ABSENT), got.get(key, _ABSENT)
        if key == "contracts" and isinstance(ev, list) and isinstance(gv, list):
            for i, (ec, gc) in enumerate(zip(ev, gv, strict=False)):
                if isinstance(ec, dict) and isinstance(gc, dict):
                    diff = _contract_difference(i, ec, gc)
                elif not _same(ec, gc):
                    diff = f"contracts[{i}]: expected {_show(ec)}, got {_show(gc)}"
                else:
                    diff = None
                if diff:
                    return diff
            if len(ev) != len(gv):
                n = min(len(ev), len(gv))
                longer = ev if len(ev) > len(gv) else gv
                name = longer[n].get("contract", "?") if isinstance(longer[n], dict) else "?"
                state = "missing" if len(gv) < len(ev) else "extra"
                return (f"contracts: expected {len(ev)} contracts, got {len(gv)} "
                        f"(contract {n + 1} ({name}) is {state})")
        elif not _same(ev, gv):
            return f"{key}: expected {_show(ev)}, got {_show(gv)}"
    return None


def first_line_difference(expected: str, got: str) -> str | None:
    """``first_difference`` of two record lines; when their values agree but the text does
    not (key order, spacing, newline), the first character where the text differs."""
    diff = first_difference(json.loads(expected), json.loads(got))
    if diff is not None or expected == got:
        return diff
    i = next((k for k, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
             min(len(expected), len(got)))
    return (f"same values, but the text differs at character {i}: expected "
            f"{expected[i:i + 30]!r}, got {got[i:i + 30]!r}")


# --- the helper itself, on altered copies of a golden record ----------------------------

def _contract(d: dict[str, Any], number: int) -> dict[str, Any]:
    return d["contracts"][number - 1]


def _set_trick_card(d: dict[str, Any]) -> None:
    _contract(d, 9)["tricks"][4]["cards"][1] = "AS"


def _set_move_card(d: dict[str, Any]) -> None:
    _contract(d, 6)["moves"][8] = [1, "7H"]


def _set_move_seat(d: dict[str, Any]) -> None:
    _contract(d, 6)["moves"][1][0] = 3


def _swap_hand_cards(d: dict[str, Any]) -> None:
    hands = _contract(d, 1)["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]


def _two_changes(d: dict[str, Any]) -> None:
    _contract(d, 12)["points"][3] = 90
    _contract(d, 1)["tricks"][7]["leader"] = 0


ALTERATIONS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_set_trick_card, 'contract 9 (general), trick 5, cards[1] (seat 3): expected "KH", got '
                      '"AS"'),
    (_set_move_card, 'contract 6 (trix), trix move 9, card: expected null (seat 1 passes), '
                     'got "7H" (seat 1 places 7H)'),
    (_set_move_seat, 'contract 6 (trix), trix move 2, seat: expected 2 (seat 2 places JC), '
                     'got 3 (seat 3 places JC)'),
    (lambda d: _contract(d, 9).update(ray_declared=False),
     "contract 9 (general), ray_declared: expected true, got false"),
    (lambda d: _contract(d, 9).update(ray_declared=1),
     "contract 9 (general), ray_declared: expected true, got 1"),
    (lambda d: _contract(d, 12)["points"].__setitem__(3, 90),
     "contract 12 (dineri), points: expected [40, 0, 0, 80], got [40, 0, 0, 90]"),
    (_swap_hand_cards, 'contract 1 (farcha), hands[0][0]: expected "8H", got "JH"'),
    (lambda d: _contract(d, 12)["tricks"].append({"leader": 3, "cards": ["AH"] * 4}),
     "contract 12 (dineri), tricks: expected 8 tricks, got 9 (trick 9 is extra)"),
    (lambda d: _contract(d, 6)["moves"].pop(),
     "contract 6 (trix), trix moves: expected 30 trix moves, got 29 (trix move 30 is missing)"),
    (lambda d: d["contracts"].pop(),
     "contracts: expected 12 contracts, got 11 (contract 12 (dineri) is missing)"),
    (lambda d: _contract(d, 6).pop("moves"),
     'contract 6 (trix), moves: expected [[1, "JD"], [2, "JC"], [3, "QD"], [0, "QC"], '
     '[1, "JS"], [2, "9S"], [3, "KD"], [0, "QS"], [1, null], [2, "9C"], [3, "JH"], '
     '[0, "9D"], [1, "QH"], [2, "KH"], [3, "8D"], [0, "KC"], [1, "8C"], [2, "KS"], '
     '[3, "9H"], [0, "10D"], [1, "7C"], [2, "8H"], [3, "10S"], [0, "10C"], [1, "7H"], '
     '[2, "10H"], [3, "AS"], [3, "AH"], [0, "AD"], [0, "8S"]], got absent'),
    (lambda d: d.update(winners=[3]), "winners: expected [1], got [3]"),
    (lambda d: d.update(seed=6), "seed: expected 5, got 6"),
    (lambda d: d.pop("seed"), "seed: expected 5, got absent"),
    (lambda d: d.update(comment="x"), 'comment: expected absent, got "x"'),
    (_two_changes, "contract 1 (farcha), trick 8, leader: expected 1, got 0"),
]


@pytest.mark.parametrize(("alter", "message"), ALTERATIONS)
def test_first_difference_names_the_place(alter: Callable[[dict[str, Any]], None],
                                          message: str) -> None:
    """An altered copy of a golden record is reported at the altered place, and only the
    first of several changes is named."""
    stored = json.loads(stored_line("docs_example"))
    changed = copy.deepcopy(stored)
    alter(changed)
    assert first_difference(stored, changed) == message


def test_first_difference_of_equal_records_is_none() -> None:
    """Identical records, and records whose keys come in another order, hold no difference."""
    line = stored_line("docs_example")
    stored = json.loads(line)
    assert first_difference(stored, copy.deepcopy(stored)) is None
    assert first_line_difference(line, line) is None
    reordered = dict(reversed(list(stored.items())))
    assert first_difference(stored, reordered) is None


def test_first_line_difference_reports_text_changes() -> None:
    """Same values, other text: the message says so and points at the character."""
    line = stored_line("docs_example")
    spaced = line.replace('"game_id":0,', '"game_id": 0,', 1)
    msg = first_line_difference(line, spaced)
    assert msg == ("same values, but the text differs at character 43: expected "
                   "'0,\"seed\":5,\"strategies\":[\"rand', "
                   "got ' 0,\"seed\":5,\"strategies\":[\"ran'")
    changed = line.replace('"first_picker":0', '"first_picker":1', 1)
    assert first_line_difference(line, changed) == "first_picker: expected 0, got 1"


# --- every golden game: replay, step-by-step walk, regeneration, readable text ------------

def test_the_golden_folder_holds_the_listed_games() -> None:
    """No game is missing or left over (a missing file must fail, not be skipped)."""
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.jsonl")) == sorted(NAMES)
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.txt")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_replays_through_the_engine(name: str) -> None:
    """``check_record`` accepts every pick, card, move, score and the result."""
    rec = golden(name)
    assert check_record(rec) == len(rec.contracts)


def _hand_mask(st: engine.GameState, seat: int) -> int:
    return int(st.hands[0, seat])


def walk_with_table(rec: GameRecord) -> int:
    """Play ``rec`` one decision at a time on a ``Table`` dealt from the record's seed and
    game id (not from its hands), asserting at every step who acts, what kind of decision
    it is, that the recorded action is legal, and each contract's points and totals.
    Returns the number of decisions taken."""
    assert rec.seed is not None
    t = Table(rec.seed, rec.game_id, game=TRIX_GAME)
    st = t.state
    assert int(st.first_picker[0]) == rec.first_picker, "first_picker"
    steps = 0
    for c in rec.contracts:
        where = f"contract {c.number} ({c.name})"
        assert t.decision == PICK and t.turn == c.picker, f"{where}: pick"
        assert [_hand_mask(st, s) for s in range(4)] == [mask_of(h) for h in c.hands], \
            f"{where}: the record's hands are not the seed's deal"
        assert c.contract in t.legal_actions(), f"{where}: illegal pick"
        t.act(c.contract)
        steps += 1
        if c.contract == TRIX:
            for i, (seat, card) in enumerate(c.moves or [], 1):
                assert t.decision == PLACE and t.turn == seat, f"{where}, trix move {i}: turn"
                action = PASS if card is None else card
                assert action in t.legal_actions(), f"{where}, trix move {i}: illegal"
                t.act(action)
                steps += 1
        else:
            asked = 0
            for i, (leader, cards) in enumerate(c.tricks or [], 1):
                assert int(st.leader[0]) == leader, f"{where}, trick {i}: leader"
                for k, card in enumerate(cards):
                    if t.decision == DECLARE:
                        assert c.contract in (RAY, GENERAL) and KING_OF_HEARTS in \
                            c.hands[t.turn], f"{where}, trick {i}: unexpected question"
                        t.act(1 if c.ray_declared else 0)
                        asked += 1
                        steps += 1
                    seat = (leader + k) % 4
                    assert t.decision == PLAY and t.turn == seat, \
                        f"{where}, trick {i}, card {k + 1}: turn"
                    assert card in t.legal_actions(), \
                        f"{where}, trick {i}: {card_name(card)} illegal for seat {seat}"
                    t.act(card)
                    steps += 1
            # the holder of K♥ is asked exactly once in ray and general, never elsewhere
            assert asked == (1 if c.contract in (RAY, GENERAL) else 0), f"{where}: asked"
        assert int(st.contract_no[0]) == c.number, f"{where}: the contract did not end"
        assert [int(v) for v in st.points[0]] == c.points, f"{where}: points"
        assert t.totals == c.totals, f"{where}: totals"
    assert t.over, "the game goes on after the record's last contract"
    assert t.totals == rec.final_totals
    assert (rec.winners, rec.losers) == result_seats(rec.final_totals)
    return steps


@pytest.mark.parametrize("name", NAMES)
def test_walks_step_by_step_from_the_seed(name: str) -> None:
    """The game plays through a Table dealt from the seed, decision by decision."""
    rec = golden(name)
    n_cards = sum(sum(len(cards) for _, cards in c.tricks or []) for c in rec.contracts)
    n_moves = sum(len(c.moves or []) for c in rec.contracts)
    n_declare = sum(1 for c in rec.contracts if c.contract in (RAY, GENERAL))
    assert walk_with_table(rec) == len(rec.contracts) + n_cards + n_moves + n_declare


def regenerate(tmp_path: Path, rec: dict[str, Any]) -> str:
    """The record written by ``trixsim record`` from ``rec``'s seed, strategies and game id
    (the command docs/record-format.md gives for regenerating a game)."""
    out = tmp_path / "again.jsonl"
    res = CliRunner().invoke(cli, [
        "record", "--seed", str(rec["seed"]), "--first-game", str(rec["game_id"]),
        "--games", "1", "--strategies", ",".join(rec["strategies"]), "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_regenerates_byte_for_byte(tmp_path: Path, name: str) -> None:
    """Played again from its seed, strategies and game id, the game is the stored line."""
    line = stored_line(name)
    rec = json.loads(line)
    again = regenerate(tmp_path, rec)
    diff = first_line_difference(line, again)
    assert diff is None, (
        f"{name}: game {rec['game_id']} played again (seed {rec['seed']}, strategies "
        f"{','.join(rec['strategies'])}) differs from tests/data/golden/{name}.jsonl; first "
        f"divergence: {diff}. If the change is intended, rerun scripts/make_golden_games.py "
        "and read the new .txt")


@pytest.mark.parametrize("name", NAMES)
def test_readable_text_matches_the_record(name: str) -> None:
    """The .txt beside each record is exactly ``trixsim replay NAME.jsonl --game ID``."""
    rec = golden(name)
    res = CliRunner().invoke(cli, ["replay", str(GOLDEN_DIR / f"{name}.jsonl"),
                                   "--game", str(rec.game_id)])
    assert res.exit_code == 0, res.output
    text = (GOLDEN_DIR / f"{name}.txt").read_text(encoding="utf-8")
    assert res.output == text, f"{name}.txt is out of date: rerun scripts/make_golden_games.py"


# --- what each game shows -----------------------------------------------------------------

def contract(rec: GameRecord, number: int, name: str) -> ContractRecord:
    """Contract ``number`` (from 1) of ``rec``, checked to be ``name``."""
    c = rec.contracts[number - 1]
    assert c.number == number and c.name == name, (c.number, c.name)
    return c


def king_holder(c: ContractRecord) -> int:
    """The seat dealt K♥."""
    return next(s for s, h in enumerate(c.hands) if KING_OF_HEARTS in h)


def trick_winners(c: ContractRecord) -> list[int]:
    """The winner of each trick, in order."""
    return [trick_winner(lead, cards) for lead, cards in c.tricks or []]


def king_taker(c: ContractRecord) -> int:
    """The seat that took K♥."""
    return next(w for (_, cards), w in zip(c.tricks or [], trick_winners(c), strict=True)
                if KING_OF_HEARTS in cards)


def jack_seats(c: ContractRecord) -> list[int]:
    """The seats dealt at least one jack."""
    return [s for s, h in enumerate(c.hands) if JACKS & set(h)]


def ace_extra_turns(c: ContractRecord) -> list[tuple[int, str, str]]:
    """(seat, ace, next move) for every ace in trix followed by another move of the same
    seat: the extra turn (``pass`` when nothing fitted)."""
    m = c.moves or []
    return [(s, card_name(a), "pass" if m[i + 1][1] is None else card_name(m[i + 1][1]))
            for i, (s, a) in enumerate(m[:-1])
            if a is not None and a & 7 == 7 and m[i + 1][0] == s]


def resets(rec: GameRecord) -> list[tuple[int, int]]:
    """(contract number, seat) for every total that landed on exactly 1000 and became 0."""
    out, before = [], [0, 0, 0, 0]
    for c in rec.contracts:
        out += [(c.number, s) for s in range(4)
                if before[s] + c.points[s] == 1000 and c.totals[s] == 0]
        before = c.totals
    return out


def test_docs_example_shows_what_the_docs_say() -> None:
    """The game docs/record-format.md shows (and docs/rules.md §9 takes its trix from)."""
    rec = golden("docs_example")
    assert (rec.seed, rec.game_id, rec.strategies) == (5, 0, ["random"] * 4)
    c = contract(rec, 1, "farcha")
    assert c.points == [200, 0, 0, 0] and not c.ray_declared
    c = contract(rec, 6, "trix")
    assert c.moves is not None and c.moves[0] == (1, parse_card("JD")) and c.moves[8] == (1, None)
    assert (3, "AS", "AH") in ace_extra_turns(c) and c.points == [-50, 0, 0, -100]
    c = contract(rec, 9, "general")  # seat 3 declares; the picker takes K♥ with 10♥
    assert (c.picker, king_holder(c), c.ray_declared, king_taker(c)) == (0, 3, True, 0)
    assert c.points == [880, 60, 30, -40] and len(c.tricks or []) == 8
    c = contract(rec, 12, "dineri")
    assert c.picker == 3 and c.points == [40, 0, 0, 80]
    assert len(rec.contracts) == 12 and rec.final_totals == [1010, 170, 220, 400]
    assert (rec.winners, rec.losers) == ([1], [0])
    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text("utf-8")
    shown = next(ln for ln in doc.splitlines() if ln.startswith('{"format":'))
    assert shown.endswith("…") and stored_line("docs_example").startswith(shown[:-1])
    assert f"takes {len(stored_line('docs_example').encode()):,} bytes" in doc


def test_the_declaration_examples_of_the_rules() -> None:
    """docs/rules.md §7: game 0 of seed 1396, four random seats, played again."""
    import io

    from trixsim.commands.record import record_games
    from trixsim.loading import load_seats

    buf = io.StringIO()
    record_games(buf, load_seats("random,random,random,random", "trix"), 1396, 0, 1, "trix")
    rec = parse_record(buf.getvalue())
    c = contract(rec, 7, "ray")  # the picker declares, another seat takes K♥
    assert (c.picker, c.pick, king_holder(c), c.ray_declared, king_taker(c)) == (1, 2, 1, True, 2)
    assert c.points == [0, -50, 200, 0] and trick_winners(c)[5] == 2
    c = contract(rec, 1, "ray")  # the picker declares and takes its own K♥: 200 doubled
    assert (c.picker, c.pick, king_holder(c), c.ray_declared, king_taker(c)) == (3, 1, 3, True, 3)
    assert c.points == [0, 0, 0, 400] and (c.tricks or [])[5][1][0] == parse_card("KH")
    doc = (Path(__file__).parent.parent / "docs" / "rules.md").read_text("utf-8")
    assert "--seed 1396 --strategies random,random,random,random" in doc


def test_general_declared() -> None:
    """General with a declaration: the -50 when another seat takes K♥, also through the
    all-8-tricks rule."""
    rec = golden("general_declared")
    c = contract(rec, 4, "general")
    assert (c.picker, king_holder(c), c.ray_declared, king_taker(c)) == (0, 3, True, 2)
    # seat 2: K♥ 200 + Q♦ 10♦ 20 + Q♦ Q♥ Q♠ 60 + 3 tricks 30; seat 3: J♦ 9♦ A♦ 30 + 2 tricks
    # 20 + last trick 100 - 50; the picker: 3 diamonds 30 + 2 tricks 20, doubled.
    assert c.points == [100, 30, 310, 100]
    c = contract(rec, 9, "general")  # seat 3 takes all 8 tricks, K♥ with them
    assert (c.picker, king_holder(c), c.ray_declared) == (1, 1, True)
    assert trick_winners(c) == [3] * 8 and c.points == [0, -50, 0, 0]
    c = contract(rec, 10, "general")  # the picker declares and takes its own K♥
    assert (c.picker, king_holder(c), c.ray_declared, king_taker(c)) == (2, 2, True, 2)
    assert len(rec.contracts) == 10 and rec.final_totals == [30, 400, 1120, -110]


def test_reset_1000_then_end() -> None:
    """Exactly 1000 becomes 0, even in the contract that ends the game."""
    rec = golden("reset_1000_then_end")
    assert resets(rec) == [(15, 2), (16, 1)]
    c = contract(rec, 16, "general")
    assert rec.contracts[14].totals == [860, 950, 0, -20]
    assert c.points == [960, 50, 0, 10] and c.totals == [1820, 0, 0, -10]
    assert len(rec.contracts) == 16 and rec.final_totals == c.totals  # ended early
    assert (rec.winners, rec.losers) == ([3], [0])
    c = contract(rec, 3, "ray")  # the picker's -50 is not doubled
    assert (c.picker, king_holder(c), c.ray_declared, king_taker(c)) == (3, 3, True, 0)
    assert c.points == [200, 0, 0, -50]


def test_full_28_forced_trix() -> None:
    """All 28 contracts; a forced trix that wraps past two seats; aces' extra turns."""
    rec = golden("full_28_forced_trix")
    assert len(rec.contracts) == 28 and max(rec.final_totals) <= 1000
    for seat in range(4):  # each seat chose each of its seven contracts once
        assert sorted(c.contract for c in rec.contracts if c.picker == seat) == list(range(7))
    c = contract(rec, 24, "trix")  # forced on seat 0; seats 0 and 1 hold no jack
    assert (c.picker, c.pick, jack_seats(c)) == (0, 6, [2])
    assert c.moves is not None and c.moves[0] == (2, parse_card("JD"))
    assert ace_extra_turns(c) == [(3, "AD", "pass"), (0, "AS", "pass")]
    c = contract(rec, 10, "general")  # seat 0's declared king goes to seat 3
    assert (c.picker, king_holder(c), c.ray_declared, king_taker(c)) == (2, 0, True, 3)
    assert c.totals[1] == 0  # and seat 1 lands on exactly 1000
    c = contract(rec, 22, "ray")
    assert (king_holder(c), c.ray_declared, king_taker(c)) == (0, True, 1)
    assert c.points == [-50, 200, 0, 0]
    assert resets(rec) == [(10, 1), (17, 1)]
    assert "heuristic:declare_margin=40," + H_REST in rec.strategies


def test_forced_trix_wraps() -> None:
    """Forced trix where the starter is found by going round past seat 3 to seat 0."""
    rec = golden("forced_trix_wraps")
    c = contract(rec, 22, "trix")  # picker 2 and seat 3 hold no jack: seat 0 starts
    assert (c.picker, c.pick, jack_seats(c)) == (2, 6, [0, 1])
    assert c.moves is not None and c.moves[0] == (0, parse_card("JH"))
    assert ace_extra_turns(c)[:2] == [(2, "AD", "AH"), (2, "AH", "pass")]
    c = contract(rec, 23, "trix")  # forced on seat 3, which holds no jack: seat 0 starts
    assert (c.picker, c.pick, jack_seats(c)) == (3, 6, [0, 1, 2])
    assert c.moves is not None and c.moves[0][0] == 0
    assert len(rec.contracts) == 26 and rec.final_totals[1] > 1000


# --- forced trix: who starts, built by hand -----------------------------------------------

# Seats 0 and 1 hold no jack; seat 2 holds J♥ J♣ and seat 3 J♦ J♠. Hand check: all 32 cards
# once (♥ 7 8 9 seat 0, Q K 10 A seat 1, J seat 2; ♣ the same; ♦ 7 8 seat 0, 9 Q K seat 2,
# J 10 A seat 3; ♠ 7 8 9 seat 2, J Q K 10 A seat 3); deal() checks it too.
NO_JACK_0_1 = deal("7H 8H 9H 7C 8C 9C 7D 8D", "QH KH 10H AH QC KC 10C AC",
                   "JH JC 9D QD KD 7S 8S 9S", "JD JS 10D AD QS KS 10S AS")

# The first moves with seat 0 as picker, worked out by hand: (seat to act, its legal cards,
# what it does). Only jacks open a suit; a stack grows from its jack one card up (Q K 10 A)
# or down (9 8 7); a seat with nothing that fits must pass; an ace gives another turn.
FORCED_START = [
    (2, "JH JC", "JH"),        # seat 1 has no jack, so seat 2 starts (not seat 3)
    (3, "JD JS", "JS"),        # seat 3 holds no heart; it may open ♦ or ♠
    (0, "9H", "9H"),           # below J♥
    (1, "QH", "QH"),           # above J♥
    (2, "JC 9S", "9S"),        # J♣ opens clubs, 9♠ goes below J♠
    (3, "JD QS", "QS"),
    (0, "8H", "8H"),
    (1, "KH", "KH"),
    (2, "JC 8S", "8S"),
    (3, "JD KS", "KS"),
    (0, "7H", "7H"),
    (1, "10H", "10H"),         # the 10 comes after the king
    (2, "JC 7S", "7S"),
    (3, "JD 10S", "10S"),
    (0, "", "pass"),           # 7♣ 8♣ 9♣ 7♦ 8♦ left: ♣ and ♦ are not open
    (1, "AH", "AH"),           # the ace gives seat 1 another turn ...
    (1, "", "pass"),           # ... but Q♣ K♣ 10♣ A♣ do not fit: it passes
    (2, "JC", "JC"),           # 9♦ Q♦ K♦ wait for J♦
    (3, "JD AS", "AS"),        # A♠ goes above 10♠: another turn ...
    (3, "JD", "JD"),           # ... in which seat 3 opens diamonds
    (0, "9C", "9C"),           # below J♣; 8♦ waits for 9♦
]


@pytest.mark.parametrize(("picker", "shift", "expected_starter"), [
    (0, 0, 2),  # 0 -> 1 (no jack) -> 2
    (2, 2, 0),  # the mirror: 2 -> 3 (no jack) -> 0, wrapping round past seat 3
])
def test_forced_trix_starter_goes_round_in_play_order(picker: int, shift: int,
                                                      expected_starter: int) -> None:
    """Trix forced on a picker with no jack: the first seat after it in play order,
    (picker + 1) % 4, (picker + 2) % 4, ..., that holds a jack starts.

    For picker 2 the deal is turned two seats on (seat s gets the hand of seat s - 2), so
    seats 2 and 3 hold no jack and seats 0 and 1 do; every seat of the script moves two
    seats on too. Going the other way round (picker - 1) would start with seat 3 for
    picker 0 and seat 1 for picker 2, both holding jacks, so the wrong direction fails
    here; a search that stops at seat 3 instead of wrapping round fails for picker 2.
    """
    hands = rotate(NO_JACK_0_1, shift)
    assert [s for s in range(4) if hands[s] & mask_of(JACKS)] == sorted(
        [(2 + shift) % 4, (3 + shift) % 4])
    st = table(hands, picker=picker, contract_no=20 + picker, used=0x7F & ~(1 << TRIX))
    assert st.phase[0] == PICK and st.contract_no[0] // 4 + 1 == 6  # pick 6
    assert int(engine.legal_action_mask(st)[0]) == 1 << TRIX  # trix, and nothing else
    act(st, "trix")
    assert int(st.turn[0]) == expected_starter
    for i, (seat, legal, action) in enumerate(FORCED_START, 1):
        seat = (seat + shift) % 4
        assert (int(st.phase[0]), int(st.turn[0])) == (PLACE, seat), f"move {i}"
        assert legal_cards(st) == set(legal.split()), f"move {i}"
        act(st, action)
    assert int(st.out_first[0]) == -1 and int(st.contract_no[0]) == 20 + picker  # goes on
    assert (int(st.phase[0]), int(st.turn[0])) == (PLACE, (1 + shift) % 4)


def test_forced_trix_starter_skips_to_the_first_jack_only() -> None:
    """Picker 0 without a jack: seat 1 holds one, so seat 1 starts, not seat 2 or 3."""
    hands = rotate(NO_JACK_0_1, 3)  # seats 1 and 2 hold the jacks, seats 3 and 0 none
    st = table(hands, picker=0, contract_no=20, used=0x7F & ~(1 << TRIX))
    act(st, "trix")
    assert int(st.turn[0]) == 1 and legal_cards(st) == {"JH", "JC"}
