"""Game records: trixsim record / trixsim replay, the format, and the replay checker."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as hs

from trixsim.cli import cli
from trixsim.games.trix import GAME as TRIX_RULES
from trixsim.games.trix import init
from trixsim.games.trix.cards import parse_card
from trixsim.games.trix.rules import trick_winner
from trixsim.games.trix.transcript import FORMAT, Recorder
from trixsim.games.trix.transcript_check import ReplayError, check_record
from trixsim.games.trix.transcript_parse import RecordFormatError, parse_record
from trixsim.loading import load_seats
from trixsim.rng import deal
from trixsim.sim import play_batch

GAME_KEYS = ["format", "game_id", "seed", "strategies", "first_picker", "contracts",
             "final_totals", "winners", "losers"]
TRICK_KEYS = ["number", "picker", "pick", "contract", "hands", "ray_declared", "tricks",
              "points", "totals"]
TRIX_KEYS = ["number", "picker", "pick", "contract", "hands", "moves", "points", "totals"]
SPECS = "random,random,random,random"


def invoke(*args: str) -> object:
    """Run the CLI, catching exceptions like a user's shell would see them."""
    return CliRunner().invoke(cli, list(args))


def record(tmp_path: Path, games: int = 3, seed: int = 1, name: str = "g.jsonl",
           *extra: str) -> Path:
    out = tmp_path / name
    res = invoke("record", "--games", str(games), "--seed", str(seed), "--strategies", SPECS,
                 "--out", str(out), *extra)
    assert res.exit_code == 0, res.output
    return out


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def save(path: Path, games: list[dict]) -> None:
    path.write_text("".join(json.dumps(g) + "\n" for g in games))


def replay_fails(path: Path, *needles: str) -> str:
    res = invoke("replay", str(path))
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    msg = res.output.strip()
    assert len(msg.splitlines()) == 1, msg
    for n in needles:
        assert n in msg, msg
    return msg


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six recorded games shared by the read-only tests."""
    return record(tmp_path_factory.mktemp("rec"), 6, 11)


# --- round trip -------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_record_then_replay_round_trip(tmp_path: Path, seed: int) -> None:
    out = record(tmp_path, 2, seed)
    games = load(out)
    assert [g["game_id"] for g in games] == [0, 1]
    res = invoke("replay", str(out))
    assert res.exit_code == 0, res.output
    assert "2 games" in res.output and "contracts checked" in res.output


def test_first_game_and_single_spec(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    res = invoke("record", "-n", "2", "--seed", "5", "-s", "random", "-o", str(out),
                 "--first-game", "40")
    assert res.exit_code == 0, res.output
    games = load(out)
    assert [g["game_id"] for g in games] == [40, 41]
    assert games[0]["strategies"] == ["random"] * 4
    assert invoke("replay", str(out)).exit_code == 0


def test_records_do_not_depend_on_chunking(tmp_path: Path) -> None:
    """Game 3 recorded alone equals game 3 recorded in a batch of four."""
    a = load(record(tmp_path, 4, 9, "a.jsonl"))
    b = load(record(tmp_path, 1, 9, "b.jsonl", "--first-game", "3"))
    assert a[3] == b[0]


def _record_one(seed: int, game_id: int) -> str:
    rec = Recorder(seed, ["random"] * 4)
    st = play_batch(load_seats("random", "trix"), seed, [game_id], observer=rec, game=TRIX_RULES)
    (game,) = rec.records(st)
    return game.to_json()


@settings(max_examples=12, deadline=None)
@given(seed=hs.integers(0, 2**63 - 1), game_id=hs.integers(0, 10**6))
def test_property_recorded_game_parses_and_replays(seed: int, game_id: int) -> None:
    line = _record_one(seed, game_id)
    d = json.loads(line)
    assert list(d) == GAME_KEYS
    for c in d["contracts"]:
        assert list(c) == (TRIX_KEYS if c["contract"] == "trix" else TRICK_KEYS)
        for t in c.get("tricks", []):
            assert list(t) == ["leader", "cards"]
    rec = parse_record(line)
    assert check_record(rec) == len(d["contracts"])
    assert rec.to_json() == line


# --- golden checks of the format ----------------------------------------------------------

def test_format_golden(recorded: Path) -> None:
    for g in load(recorded):
        assert g["format"] == FORMAT and g["seed"] == 11
        assert g["strategies"] == ["random"] * 4
        contracts = g["contracts"]
        assert 1 <= len(contracts) <= 28
        totals = [0, 0, 0, 0]
        for k, c in enumerate(contracts):
            assert c["number"] == k + 1
            assert c["picker"] == (g["first_picker"] + k) % 4
            assert c["pick"] == k // 4 + 1
            hands = [[parse_card(x) for x in h] for h in c["hands"]]
            assert all(len(h) == 8 for h in hands)
            assert sorted(sum(hands, [])) == list(range(32))
            assert all(h == sorted(h) for h in hands)
            dealt = deal(11, np.array([g["game_id"]]), np.array([k]))[0]
            assert [sum(1 << x for x in h) for h in hands] == [int(m) for m in dealt]
            if c["contract"] == "trix":
                assert "ray_declared" not in c and "tricks" not in c
                _check_trix_moves(c)
            else:
                assert isinstance(c["ray_declared"], bool) and "moves" not in c
                if c["contract"] not in ("ray", "general"):
                    assert c["ray_declared"] is False
                assert 1 <= len(c["tricks"]) <= 8
                assert all(len(t["cards"]) == 4 for t in c["tricks"])
                if c["contract"] in ("pli", "farcha", "general"):
                    assert len(c["tricks"]) == 8
                for prev, t in zip(c["tricks"], c["tricks"][1:], strict=False):
                    cards = [parse_card(x) for x in prev["cards"]]
                    assert t["leader"] == trick_winner(prev["leader"], cards)
                assert c["tricks"][0]["leader"] == c["picker"]
            totals = [0 if t + p == 1000 else t + p
                      for t, p in zip(totals, c["points"], strict=True)]
            assert c["totals"] == totals
            if k < len(contracts) - 1:
                assert max(totals) <= 1000
        assert len(contracts) == 28 or max(totals) > 1000
        assert g["final_totals"] == totals
        assert g["winners"] == [s for s in range(4) if totals[s] == min(totals)]
        assert g["losers"] == [s for s in range(4) if totals[s] == max(totals)]


def _check_trix_moves(c: dict) -> None:
    """Moves alternate seats, except the extra turn after an ace; two seats go out."""
    moves = c["moves"]
    held = [set(h) for h in c["hands"]]
    for (seat, card), nxt in zip(moves, moves[1:] + [None], strict=True):
        if card is not None:
            held[seat].remove(card)
        if nxt is not None and card is not None and card.startswith("A") and held[seat]:
            assert nxt[0] == seat
    assert sum(1 for h in held if not h) == 2
    assert moves[0][1] is not None and moves[0][1].startswith("J")


def test_imposed_first_picker_starts_the_first_contract() -> None:
    for seat in range(4):
        st = init(3, [0, 1], first_pickers=[0, seat])
        assert (st.first_picker[1], st.picker[1], st.turn[1], st.leader[1]) == (seat,) * 4


# --- tampering ------------------------------------------------------------------------------

def _find_follow_swap(games: list[dict]) -> tuple[int, int, int, int, int, int]:
    """(game, contract, trick, pos, trick2, pos2): the same seat followed suit at ``pos``
    and later played a card of another suit at ``pos2`` of ``trick2``."""
    for gi, g in enumerate(games):
        for ci, c in enumerate(g["contracts"]):
            tricks = c.get("tricks", [])
            for ti, t in enumerate(tricks):
                led = t["cards"][0][-1]
                for k in range(1, 4):
                    seat = (t["leader"] + k) % 4
                    if t["cards"][k][-1] != led:
                        continue
                    for tj in range(ti + 1, len(tricks)):
                        k2 = (seat - tricks[tj]["leader"]) % 4
                        if tricks[tj]["cards"][k2][-1] != led:
                            return gi, ci, ti, k, tj, k2
    raise AssertionError("no follow-suit swap found")


def test_tamper_illegal_card(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    gi, ci, ti, k, tj, k2 = _find_follow_swap(games)
    tricks = games[gi]["contracts"][ci]["tricks"]
    a, b = tricks[ti]["cards"][k], tricks[tj]["cards"][k2]
    tricks[ti]["cards"][k], tricks[tj]["cards"][k2] = b, a
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    name = games[gi]["contracts"][ci]["contract"]
    replay_fails(bad, f"game {games[gi]['game_id']}, contract {ci + 1} ({name})",
                 f"trick {ti + 1}: {b} is not a legal play", "must follow")


def test_tamper_card_not_held(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    c = next(c for c in games[0]["contracts"] if "tricks" in c)
    leader = c["tricks"][0]["leader"]
    other = c["hands"][(leader + 1) % 4][0]
    c["tricks"][0]["cards"][0] = other
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, f"contract {c['number']}", "does not hold")


def test_tamper_points(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    games[1]["contracts"][2]["points"][0] += 10
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, "bad.jsonl:2:", f"game {games[1]['game_id']}, contract 3", "points")


def test_tamper_drop_last_trick(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    c = next(c for c in games[0]["contracts"] if "tricks" in c)
    c["tricks"].pop()
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, f"contract {c['number']} ({c['contract']})", "the contract goes on")


def test_tamper_drop_trix_move(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    c = next(c for g in games for c in g["contracts"] if c["contract"] == "trix")
    c["moves"].pop()
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, f"contract {c['number']} (trix)", "goes on")


def test_tamper_add_declaration(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    c = next(c for c in games[0]["contracts"]
             if c["contract"] in ("dineri", "damet", "pli", "farcha"))
    c["ray_declared"] = True
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, f"contract {c['number']} ({c['contract']})", "ray_declared")


def test_tamper_extra_contract(recorded: Path, tmp_path: Path) -> None:
    games = load(recorded)
    g = next(g for g in games if len(g["contracts"]) < 28)
    g["contracts"].append(g["contracts"][-1])
    bad = tmp_path / "bad.jsonl"
    save(bad, games)
    replay_fails(bad, f"game {g['game_id']}", "the record goes on")


@pytest.mark.parametrize("edit, needles", [
    (lambda lines: lines.__setitem__(2, "{not json"), ["bad.jsonl:3:", "invalid JSON"]),
    (lambda lines: lines.__setitem__(0, json.dumps(_edit(
        json.loads(lines[0]), lambda g: g["contracts"][2]["hands"][1].__setitem__(4, "XX")))),
     ["bad.jsonl:1:", "contracts[2].hands[1][4]: unknown card 'XX'"]),
    (lambda lines: lines.__setitem__(1, json.dumps(_edit(
        json.loads(lines[1]), lambda g: g["contracts"][0].pop("points")))),
     ["bad.jsonl:2:", "contracts[0].points: missing field"]),
    (lambda lines: lines.__setitem__(0, json.dumps(_edit(
        json.loads(lines[0]), lambda g: g.__setitem__("first_picker", "2")))),
     ["bad.jsonl:1:", "first_picker: expected an integer"]),
    (lambda lines: lines.__setitem__(0, json.dumps(_edit(
        json.loads(lines[0]), lambda g: g.pop("winners")))),
     ["bad.jsonl:1:", "winners: missing field"]),
])
def test_malformed_lines(recorded: Path, tmp_path: Path, edit, needles) -> None:
    lines = recorded.read_text().splitlines()
    edit(lines)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    replay_fails(bad, *needles)


def _edit(g: dict, f) -> dict:
    f(g)
    return g


def test_parse_record_names_the_field() -> None:
    with pytest.raises(RecordFormatError, match=r"^format: expected"):
        parse_record(json.dumps({k: 0 for k in GAME_KEYS}))
    with pytest.raises(RecordFormatError, match="unexpected field"):
        parse_record(json.dumps({"format": FORMAT, "extra": 1}))


def test_replay_error_is_a_replay_error(recorded: Path) -> None:
    rec = parse_record(recorded.read_text().splitlines()[0])
    rec.contracts[0].hands[0][0] = rec.contracts[0].hands[1][0]
    with pytest.raises(ReplayError, match="dealt twice"):
        check_record(rec)


# --- bad input to record ----------------------------------------------------------------

@pytest.mark.parametrize("games", ["0", "-3"])
def test_record_rejects_bad_game_counts(tmp_path: Path, games: str) -> None:
    res = invoke("record", "--games", games, "--out", str(tmp_path / "g.jsonl"))
    assert res.exit_code == 2 and "--games" in res.output
    assert not (tmp_path / "g.jsonl").exists()


def test_record_rejects_unknown_strategy(tmp_path: Path) -> None:
    res = invoke("record", "-s", "random,nosuch,random,random", "-o", str(tmp_path / "g.jsonl"))
    assert res.exit_code == 2 and "unknown strategy 'nosuch'" in res.output
    assert "Traceback" not in res.output and not list(tmp_path.iterdir())


def test_record_rejects_unwritable_out(tmp_path: Path) -> None:
    res = invoke("record", "-o", str(tmp_path / "missing" / "g.jsonl"))
    assert res.exit_code == 2 and "does not exist" in res.output
    res = invoke("record", "-o", str(tmp_path), "--force")
    assert res.exit_code == 2 and "is a directory" in res.output
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        try:
            res = invoke("record", "-o", str(ro / "g.jsonl"))
            assert res.exit_code == 2 and "cannot write" in res.output
        finally:
            ro.chmod(0o700)


def test_record_keeps_existing_out_without_force(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    out.write_text("old\n")
    res = invoke("record", "-o", str(out))
    assert res.exit_code == 2 and "--force" in res.output
    assert out.read_text() == "old\n"
    res = invoke("record", "-o", str(out), "--force")
    assert res.exit_code == 0, res.output
    assert len(load(out)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


# --- play-by-play -------------------------------------------------------------------------

def test_play_by_play(recorded: Path) -> None:
    g = load(recorded)[2]
    res = invoke("replay", str(recorded), "--game", str(g["game_id"]))
    assert res.exit_code == 0, res.output
    out = res.output
    c1 = g["contracts"][0]
    assert f"game {g['game_id']}, seed 11, first picker: seat {g['first_picker']}" in out
    assert f"contract 1: seat {c1['picker']} picks {c1['contract']} (pick 1)" in out
    assert "♥" in out and "♠" in out and "final totals:" in out
    assert "winners: " + ", ".join(f"seat {s}" for s in g["winners"]) in out
    assert "losers: " + ", ".join(f"seat {s}" for s in g["losers"]) in out
    assert out.count("\ncontract ") == len(g["contracts"])
    if any(c["contract"] != "trix" for c in g["contracts"]):
        assert "trick 1: seat" in out and "-> seat" in out
    if any(c["contract"] == "trix" for c in g["contracts"]):
        assert ": pass" in out or ": J" in out


def test_play_by_play_unknown_game(recorded: Path) -> None:
    res = invoke("replay", str(recorded), "--game", "999")
    assert res.exit_code == 2 and "no game 999" in res.output


def test_replay_missing_file(tmp_path: Path) -> None:
    assert invoke("replay", str(tmp_path / "none.jsonl")).exit_code == 2


# --- hostile input to replay ----------------------------------------------------------------

def _good_lines(recorded: Path) -> list[bytes]:
    return recorded.read_bytes().splitlines()


def _write(path: Path, lines: list[bytes], end: bytes = b"\n") -> Path:
    path.write_bytes(b"\n".join(lines) + end)
    return path


def _with(line: bytes, f) -> bytes:
    """A record line with ``f`` applied to its parsed game."""
    return json.dumps(_edit(json.loads(line), f)).encode()


@pytest.mark.parametrize("bad", [
    b"[" * 100_000,
    b"{" * 100_000,
    b'{"seed": ' + b"[" * 100_000,
    b'{"format": "trixsim-transcript/1", "seed": ' + b"[" * 5_000 + b"]" * 5_000 + b"}",
])
def test_deeply_nested_json_is_a_data_error(recorded: Path, tmp_path: Path, bad: bytes) -> None:
    lines = _good_lines(recorded)
    lines[2] = bad
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:3:")


def test_moderately_nested_field_is_named(recorded: Path, tmp_path: Path) -> None:
    """Nesting that json accepts must not overflow the error message either."""
    lines = _good_lines(recorded)
    deep: list = []
    for _ in range(400):
        deep = [deep]
    lines[1] = _with(lines[1], lambda g: g.__setitem__("seed", deep))
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:2:", "seed: expected")


@pytest.mark.parametrize("key, value, needle", [
    ("seed", None, "seed: expected an integer, got null"),
    ("seed", True, "seed: expected an integer, got true"),
    ("seed", 3.0, "seed: expected an integer"),
    ("seed", "3", "seed: expected an integer"),
    ("seed", -1, "seed: -1 is out of range"),
    ("seed", 2**63, "seed: 9223372036854775808 is out of range"),
    ("game_id", None, "game_id: expected an integer"),
    ("game_id", False, "game_id: expected an integer, got false"),
    ("first_picker", True, "first_picker: expected an integer, got true"),
    ("format", None, "format: expected"),
    ("format", ["trixsim-transcript/1"], "format: expected"),
    ("strategies", "random", "strategies: expected a list"),
    ("strategies", None, "strategies: expected a list"),
    ("strategies", ["random", "random", "random", None], "strategies[3]: expected a string"),
    ("contracts", None, "contracts: expected a list"),
    ("contracts", {}, "contracts: expected a list, got an object"),
    ("final_totals", None, "final_totals: expected a list"),
    ("final_totals", [0, 0, True, 0], "final_totals[2]: expected an integer, got true"),
    ("winners", [False], "winners[0]: expected an integer, got false"),
    ("losers", None, "losers: expected a list"),
])
def test_top_level_field_types_are_strict(recorded: Path, tmp_path: Path, key: str,
                                          value: object, needle: str) -> None:
    lines = _good_lines(recorded)
    lines[0] = _with(lines[0], lambda g: g.__setitem__(key, value))
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:", needle)


@pytest.mark.parametrize("edit, needle", [
    (lambda c: c.__setitem__("contract", ["pli"]), "contracts[0].contract: expected a string"),
    (lambda c: c.__setitem__("contract", None), "contracts[0].contract: expected a string"),
    (lambda c: c.__setitem__("number", True), "contracts[0].number: expected an integer"),
    (lambda c: c.__setitem__("hands", {}), "contracts[0].hands: expected a list"),
    (lambda c: c["hands"][0].__setitem__(0, ["7H"]), "contracts[0].hands[0][0]: unknown card"),
    (lambda c: c["hands"][0].__setitem__(0, None), "contracts[0].hands[0][0]: unknown card"),
    (lambda c: c.__setitem__("points", [0, 0, 0, None]), "contracts[0].points[3]: expected"),
])
def test_contract_field_types_are_strict(recorded: Path, tmp_path: Path, edit,
                                         needle: str) -> None:
    lines = _good_lines(recorded)
    lines[0] = _with(lines[0], lambda g: edit(g["contracts"][0]))
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:", needle)


def test_seed_may_be_left_out(recorded: Path, tmp_path: Path) -> None:
    """The format makes the seed optional: absent is fine, null is not (above)."""
    lines = _good_lines(recorded)
    lines[0] = _with(lines[0], lambda g: g.pop("seed"))
    res = invoke("replay", str(_write(tmp_path / "ok.jsonl", lines)))
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("old, new, key", [
    (b'"seed": 11', b'"seed": 11, "seed": 11', "seed"),
    (b'"seed": 11', b'"seed": 11, "seed": 12', "seed"),
    (b'"points": [', b'"points": [0, 0, 0, 0], "points": [', "points"),
    (b'"leader": ', b'"leader": 0, "leader": ', "leader"),
])
def test_duplicate_keys_are_refused(recorded: Path, tmp_path: Path, old: bytes, new: bytes,
                                    key: str) -> None:
    lines = _good_lines(recorded)
    lines[1] = json.dumps(json.loads(lines[1])).encode().replace(old, new, 1)
    assert new in lines[1]
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:2:",
                 f'duplicate key "{key}"')


def test_parse_record_refuses_duplicate_keys() -> None:
    with pytest.raises(RecordFormatError, match='duplicate key "format"'):
        parse_record('{"format": 1, "format": 2}')


@pytest.mark.parametrize("bad", [b"\xff", b'{"format": "\xe9"}', b"\xc3"])
def test_non_utf8_line_is_named(recorded: Path, tmp_path: Path, bad: bytes) -> None:
    lines = _good_lines(recorded)
    lines.insert(1, bad)
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:2:", "not UTF-8")


def test_empty_file(tmp_path: Path) -> None:
    for name, data in [("empty.jsonl", b""), ("blank.jsonl", b"\n \n\r\n")]:
        (tmp_path / name).write_bytes(data)
        replay_fails(tmp_path / name, f"{name}: no game records")


def test_trailing_blank_lines_and_crlf_are_fine(recorded: Path, tmp_path: Path) -> None:
    lines = _good_lines(recorded)
    for name, data in [("a.jsonl", b"\n".join(lines) + b"\n\n\n"),
                       ("b.jsonl", b"\r\n".join(lines) + b"\r\n"),
                       ("c.jsonl", b"\n".join(lines))]:
        (tmp_path / name).write_bytes(data)
        res = invoke("replay", str(tmp_path / name))
        assert res.exit_code == 0, res.output
        assert f"{len(lines)} games" in res.output


def test_bom_at_start_is_ignored(recorded: Path, tmp_path: Path) -> None:
    lines = _good_lines(recorded)
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")
    res = invoke("replay", str(path))
    assert res.exit_code == 0, res.output


def test_bom_after_the_start_is_a_data_error(recorded: Path, tmp_path: Path) -> None:
    lines = _good_lines(recorded)
    lines[1] = b"\xef\xbb\xbf" + lines[1]
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:2:", "invalid JSON")


def test_very_long_line(recorded: Path, tmp_path: Path) -> None:
    lines = _good_lines(recorded)
    lines[1] = b'{"format": "' + b"x" * 5_000_000 + b'"}'
    msg = replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:2:", "longer than")
    assert len(msg) < 300


def test_long_values_are_cut_short_in_messages(recorded: Path, tmp_path: Path) -> None:
    lines = _good_lines(recorded)
    lines[0] = _with(lines[0], lambda g: g.__setitem__("format", "x" * 100_000))
    msg = replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:", "format: expected")
    assert len(msg) < 300
    lines[0] = _with(_good_lines(recorded)[0], lambda g: g.__setitem__("x" * 100_000, 1))
    msg = replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:", "unexpected field")
    assert len(msg) < 300


@pytest.mark.parametrize("text, needle", [
    ('"seed": ' + "9" * 5000, "invalid JSON"),
    ('"a\\nb": 1', "unexpected field"),
    ('"\\ud800": 1', "unexpected field"),
])
def test_odd_values_give_one_line(recorded: Path, tmp_path: Path, text: str,
                                  needle: str) -> None:
    lines = _good_lines(recorded)
    lines[0] = json.dumps(json.loads(lines[0])).encode().replace(b'"seed": 11', text.encode(), 1)
    assert text.encode() in lines[0]
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:", needle)


def test_hostile_line_with_game_option(recorded: Path, tmp_path: Path) -> None:
    """--game reads the lines the same way: a bad line before the game is a data error."""
    lines = _good_lines(recorded)
    gid = json.loads(lines[2])["game_id"]
    lines[1] = b"[" * 100_000
    res = invoke("replay", str(_write(tmp_path / "bad.jsonl", lines)), "--game", str(gid))
    assert res.exit_code == 1 and "bad.jsonl:2:" in res.output, res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_lone_surrogate_strategy_is_refused(recorded: Path, tmp_path: Path) -> None:
    """A JSON escape can spell a lone surrogate, which the play-by-play could not print."""
    lines = _good_lines(recorded)
    lines[0] = _with(lines[0], lambda g: g["strategies"].__setitem__(0, "\ud800"))
    replay_fails(_write(tmp_path / "bad.jsonl", lines), "bad.jsonl:1:",
                 "strategies[0]: not valid Unicode text")
