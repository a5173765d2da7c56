"""The ``trixsim-record/1`` envelope: any game's records, replayed through its rules alone;
``record``/``replay`` with ``--game``; Trix's transcripts still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trixsim import records
from trixsim.cli import cli
from trixsim.games import get_game
from trixsim.loading import load_seats


@pytest.mark.parametrize(("game", "specs"), [
    ("trump7", "heuristic,random,heuristic,random"),
    ("trump7-bid", "heuristic,random,random,random"),
    ("trix", "heuristic,random,random,random"),
])
def test_records_replay_through_the_rules_alone(game: str, specs: str) -> None:
    rules = get_game(game)
    recs = records.record_games(rules, load_seats(specs, game), 3, range(5, 9),
                                specs.split(","))
    for r in recs:
        back = records.parse_record(r.to_json())
        assert back == r and back.game == game
        assert records.replay(back) == len(r.actions) > 0
    lines = records.play_by_play(recs[0])
    assert lines[0].startswith(f"{game} game 5, seed 3")


def _one(game: str = "trump7") -> records.Record:
    rules = get_game(game)
    return records.record_games(rules, load_seats("random", game), 1, [7], ["random"] * 4)[0]


def test_a_tampered_record_is_refused_in_one_line() -> None:
    rec = _one()
    d, s, a = rec.actions[3]
    bad = records.parse_record(rec.to_json())
    bad.actions[3] = (d, s, (a + 1) % 52)
    with pytest.raises(records.ReplayError, match=r"^game 7: action 4, .* is illegal"):
        records.replay(bad)
    short = records.parse_record(rec.to_json())
    short.actions = short.actions[:-1]
    with pytest.raises(records.ReplayError, match="before the game is over"):
        records.replay(short)
    wrong = records.parse_record(rec.to_json())
    wrong.final_scores = [x + 1 for x in wrong.final_scores]
    with pytest.raises(records.ReplayError, match="final_scores replay to"):
        records.replay(wrong)
    trix = _one("trix")
    trix.chance["first_picker"] = (trix.chance["first_picker"] + 1) % 4
    with pytest.raises(records.ReplayError, match="first_picker is .* from the seed"):
        records.replay(trix)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("game"), "game must be"),
    (lambda d: d.update(format="x"), "format must be"),
    (lambda d: d.update(seed=-1), "seed must be an integer"),
    (lambda d: d["actions"].append([0, 9]), r"actions\[.*\] must be \[decision, seat"),
    (lambda d: d.update(game="chess"), None),
])
def test_malformed_records_name_their_field(change: object, message: str | None) -> None:
    d = json.loads(_one().to_json())
    change(d)  # type: ignore[operator]
    if message is None:  # well formed, but no such game: the replay says so
        with pytest.raises(records.ReplayError, match="unknown game 'chess'"):
            records.replay(records.parse_record(d))
        return
    with pytest.raises(records.RecordFormatError, match=message):
        records.parse_record(d)


def test_record_and_replay_commands_play_any_game(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t7.jsonl"
    res = runner.invoke(cli, ["record", "--game", "trump7-bid", "-n", "5", "-s", "heuristic",
                              "-o", str(out)])
    assert res.exit_code == 0, res.output
    first = json.loads(out.read_text().splitlines()[0])
    assert first["format"] == "trixsim-record/1" and first["game"] == "trump7-bid"
    res = runner.invoke(cli, ["replay", str(out)])
    assert res.exit_code == 0 and "5 games, 280 actions checked, all consistent" in res.output
    res = runner.invoke(cli, ["replay", str(out), "--game-id", "2"])
    assert res.exit_code == 0 and "trump7-bid game 2" in res.output and "bid" in res.output
    res = runner.invoke(cli, ["replay", str(out), "--game", "trix"])
    assert res.exit_code == 1 and "the record plays trump7-bid, not trix" in res.output
    res = runner.invoke(cli, ["record", "--game", "trump7", "--format", "transcript",
                              "-o", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2 and "trump7 has no records of its own" in res.output


def test_record_games_writes_each_game_in_its_own_format_else_the_envelope() -> None:
    """The library call behind ``record``: by default a game's own format where it has one
    (Trix's transcripts), else the envelope; asking a game for an own format it lacks is
    a one-line ValueError."""
    import io

    from trixsim.commands.record import TRANSCRIPT, record_games

    for game, fmt in (("trix", "trixsim-transcript/1"), ("trump7", records.FORMAT)):
        buf = io.StringIO()
        assert record_games(buf, load_seats("random", game), 3, 0, 2, game) == 2
        assert [json.loads(line)["format"] for line in buf.getvalue().splitlines()] == [fmt] * 2
    with pytest.raises(ValueError, match="trump7 has no records of its own"):
        record_games(io.StringIO(), load_seats("random", "trump7"), 3, 0, 1, "trump7",
                     TRANSCRIPT)


def test_trix_writes_transcripts_and_envelopes_and_reads_both(tmp_path: Path) -> None:
    runner = CliRunner()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert runner.invoke(cli, ["record", "-n", "2", "-o", str(a)]).exit_code == 0
    assert json.loads(a.read_text().splitlines()[0])["format"] == "trixsim-transcript/1"
    assert runner.invoke(cli, ["record", "-n", "2", "--format", "record", "-o",
                               str(b)]).exit_code == 0
    both = tmp_path / "both.jsonl"
    both.write_text(a.read_text() + b.read_text())
    res = runner.invoke(cli, ["replay", str(both)])
    assert res.exit_code == 0, res.output
    assert "4 games" in res.output and "contracts" in res.output and "actions" in res.output
    # the option's older spelling: --game ID
    res = runner.invoke(cli, ["replay", str(a), "--game", "1"])
    assert res.exit_code == 0 and "game 1" in res.output


def test_replay_of_a_trump7_run_matches_its_tables(tmp_path: Path) -> None:
    runner = CliRunner()
    run = tmp_path / "run"
    res = runner.invoke(cli, ["run", "--game", "trump7", "-n", "20", "-j", "1", "-q", "-s",
                              "heuristic,random,random,random", "-o", str(run)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["replay", "--run", str(run), "--game-id", "7"])
    assert res.exit_code == 0, res.output
    assert "trump7 game 7" in res.output
    assert "matches the run's tables: the game row, every column" in res.output
    res = runner.invoke(cli, ["replay", "--run", str(run), "--game-id", "7", "--game", "trix"])
    assert res.exit_code == 2 and "the run plays trump7, not trix" in res.output
