"""The web table (``trixsim serve``) through Starlette's test client: whole games with
people and bots over WebSockets, refusals, seat tokens, reconnection, the last-trick
limit, the stand-in bot, the saved record, and what each seat is (never) sent."""

from __future__ import annotations

import itertools
import json
import random
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from trixsim.cli import cli  # noqa: E402
from trixsim.games.trix.cards import cards_of  # noqa: E402
from trixsim.games.trix.events import ContractEnd  # noqa: E402
from trixsim.games.trix.types import PASS  # noqa: E402
from trixsim.serve.app import Limits, create_app  # noqa: E402
from trixsim.serve.hub import Hub  # noqa: E402
from trixsim.serve.tables import GameTable  # noqa: E402

Msg = dict[str, Any]
SEED = 4_611_686_018_427_400_017
"""The first table's seed (the next tables count up): long enough that finding it in a
message means it leaked."""


# -- helpers ------------------------------------------------------------------------------

_CLIENTS: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Any:
    yield
    while _CLIENTS:
        _CLIENTS.pop().__exit__(None, None, None)


def make(tmp_path: Path, bot_after: float | None = None,
         keep: Path | None = None, limits: Limits | None = None) -> tuple[Hub, TestClient]:
    """A hub and a test client whose connections all share one event loop, as they do in
    a running server (without it, each WebSocket would get an event loop of its own)."""
    hub = Hub(bot_after=bot_after, records=tmp_path / "records", seeds=itertools.count(SEED),
              keep=keep, game="trix")
    client = TestClient(create_app(hub, limits))
    client.__enter__()
    _CLIENTS.append(client)
    return hub, client


def shut(client: TestClient) -> None:
    """Stop the server of ``client``: every table's last state is on disk after it."""
    _CLIENTS.remove(client)
    client.__exit__(None, None, None)


def create(client: TestClient, name: str = "Ann") -> tuple[str, str]:
    r = client.post("/api/tables", json={"name": name})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["seat"] == 0 and d["link"] == f"/t/{d['table']}"
    return d["table"], d["token"]


def until(ws: Any, kind: str = "state") -> tuple[Msg, list[Msg]]:
    """Messages from ``ws`` up to the first of ``kind``: (it, those before it)."""
    before = []
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m, before
        before.append(m)


def hello(ws: Any, token: str | None) -> Msg:
    ws.send_json({"type": "hello", "token": token})
    return until(ws)[0]


def my_turn(m: Msg) -> bool:
    g = m["game"]
    return g is not None and not g["over"] and g["turn"] == m["you"]


def choose(m: Msg, rng: random.Random) -> int:
    return rng.choice(m["game"]["legal"])


def seat_bots(ws: Any, seats: list[int], spec: str = "heuristic") -> Msg:
    m: Msg = {}
    for s in seats:
        ws.send_json({"type": "bot", "seat": s, "spec": spec})
        m = until(ws)[0]
    return m


def ann_and_bob(a: Any, b: Any, token: str, bots: tuple[str, str]) -> tuple[str, Msg, Msg]:
    """Ann (the host, tab ``a``) and Bob (tab ``b``, seat 1) with bots in seats 2 and 3:
    (Bob's token, Ann's and Bob's first state of the game)."""
    hello(a, token)
    hello(b, None)
    b.send_json({"type": "sit", "seat": 1, "name": "Bob"})
    bob = until(b, "seated")[0]["token"]
    until(b), until(a)
    a.send_json({"type": "bot", "seat": 2, "spec": bots[0]})
    until(a), until(b)
    a.send_json({"type": "bot", "seat": 3, "spec": bots[1]})
    return bob, until(a)[0], until(b)[0]


def play_out(ws: Any, m: Msg, rng: random.Random, limit: int = 2000) -> Msg:
    """Play the seat of ``ws`` (alone among bots) to the end of the game."""
    for _ in range(limit):
        if m["game"]["over"]:
            return m
        assert my_turn(m)
        ws.send_json({"type": "act", "action": choose(m, rng)})
        m, before = until(ws)
        assert not [b for b in before if b["type"] == "error"], before
    raise AssertionError("the game did not end")


def act(tabs: dict[int, Any], m: dict[int, Msg], turn: int, action: int) -> None:
    """The seat ``turn`` takes ``action``; read the new states into ``m``. A quiet K♥
    holder's decision changes no other seat's view, so only the holder hears back."""
    quiet = m[turn]["game"]["decision"] == "declare" and action == 0
    tabs[turn].send_json({"type": "act", "action": action})
    for s in tabs:
        if s == turn or not quiet:
            m[s] = until(tabs[s])[0]


def wait_away(table: GameTable, seat: int) -> None:
    """Wait until the server has noticed that ``seat``'s connection closed."""
    for _ in range(250):
        if table.seats[seat].away_since is not None:
            return
        time.sleep(0.02)
    raise AssertionError("the closed connection was not noticed")


def replay_ok(path: Path) -> None:
    res = CliRunner().invoke(cli, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert "all consistent" in res.output


# -- what each seat is sent -----------------------------------------------------------------

ALLOWED_KEYS = {
    "type", "table", "game_name", "you", "host", "phase", "seats", "seat", "kind", "name",
    "online", "standin", "sub", "game", "events", "over", "contract_no", "picker", "pick",
    "contract", "declared", "turn", "decision", "hand", "legal", "why", "trick", "leader", "cards",
    "card", "tricks", "trick_no", "hand_sizes", "layout", "passed", "totals", "left",
    "history", "no", "points", "looks_left", "preselect", "log", "winner", "place", "saved",
    "message", "token", "text",
}


class Spy:
    """Records every message a table builds for a seat, with what was hidden then."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[int | None, Msg, list[set[int]], int, int]] = []
        spy = self
        real_state, real_last = GameTable.state, GameTable.last_trick

        def state(self: GameTable, seat: int | None, events: bool = True) -> Msg:
            msg = real_state(self, seat, events)
            spy.note(self, seat, msg)
            return msg

        def last_trick(self: GameTable, seat: int | None) -> Msg:
            msg = real_last(self, seat)
            spy.note(self, seat, msg)
            return msg

        monkeypatch.setattr(GameTable, "state", state)
        monkeypatch.setattr(GameTable, "last_trick", last_trick)

    def note(self, t: GameTable, seat: int | None, msg: Msg) -> None:
        g = t.game
        hands = [set(cards_of(int(g.view(s).hand[0]))) if g else set() for s in range(4)]
        number = int(g.view(0).contract_no[0]) if g else -1
        self.seen.append((seat, json.loads(json.dumps(msg)), hands, t.seed, number))

    def check(self) -> int:
        """Assert no message told a seat anything hidden from it; returns how many."""
        for seat, msg, hands, seed, number in self.seen:
            text = json.dumps(msg)
            assert str(seed) not in text
            assert _keys(msg) <= ALLOWED_KEYS, _keys(msg) - ALLOWED_KEYS
            hidden = set().union(*(h for s, h in enumerate(hands) if s != seat))
            g = msg.get("game")
            if seat is None:
                assert g is None and not msg.get("events")
                continue
            if g is not None:
                assert set(g["hand"]) == hands[seat]
                if g["decision"] in ("play", "place") and g["turn"] == seat:
                    assert set(g["legal"]) <= hands[seat] | {PASS}
                if g["turn"] != seat:
                    assert g["decision"] != "declare", "a waiting seat learnt who holds K♥"
                    assert g["legal"] == [] and g["why"] == {}
                shown = {c["card"] for c in (g["trick"] or {"cards": []})["cards"]}
                assert not (shown | set(g["layout"])) & hidden
            for e in msg.get("events", []) + ([msg["trick"]] if msg["type"] == "last" else []):
                cards = set(e.get("cards", [])) | ({e["card"]} if "card" in e else set())
                if e.get("contract_no") == number:
                    assert not cards & hidden, (seat, e)
        return len(self.seen)


def _keys(x: Any) -> set[str]:
    if isinstance(x, dict):
        out = set(x) - {k for k in x if k.isdigit()}  # "why" is keyed by contract id
        for v in x.values():
            out |= _keys(v)
        return out
    if isinstance(x, list):
        return set().union(*(_keys(v) for v in x)) if x else set()
    return set()


# -- tests --------------------------------------------------------------------------------

def test_page_and_static_files_are_served(tmp_path: Path) -> None:
    _, client = make(tmp_path)
    for path in ("/", "/t/anything", "/static/table.js", "/static/table.css"):
        r = client.get(path)
        assert r.status_code == 200, path
    assert "<script src=\"/static/table.js\">" in client.get("/").text
    assert "heuristic" in client.get("/api/strategies").json()["strategies"]


def test_one_person_and_three_bots_play_a_whole_game(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    hub, client = make(tmp_path)
    tid, token = create(client)
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        m = hello(ws, token)
        assert m["you"] == 0 and m["host"] and m["phase"] == "waiting"
        m = seat_bots(ws, [1, 2, 3])
        assert m["phase"] == "playing" and my_turn(m)
        final = play_out(ws, m, rng)
    assert final["phase"] == "over" and final["game"]["saved"]
    assert final["game"]["log"][-1].startswith("Loser")
    ends = [e for e in hub.get(tid).game.history if isinstance(e, ContractEnd)]
    assert [h["totals"] for h in final["game"]["history"]] == [list(e.totals) for e in ends]
    files = list((tmp_path / "records").glob("*.jsonl"))
    assert len(files) == 1
    rec = json.loads(files[0].read_text())
    assert rec["strategies"] == ["human", "heuristic", "heuristic", "heuristic"]
    replay_ok(files[0])
    assert spy.check() > 20


def test_two_people_play_with_choices_in_advance(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    hub, client = make(tmp_path)
    tid, token = create(client)
    rng = random.Random(7)
    auto = notices = 0
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, token)
        m = hello(b, None)
        assert m["you"] is None and m["game"] is None
        b.send_json({"type": "sit", "seat": 1, "name": "Bob <script>"})
        seated, _ = until(b, "seated")
        assert seated["seat"] == 1 and len(seated["token"]) >= 32
        mb = until(b)[0]
        ma = until(a)[0]
        assert ma["seats"][1]["name"] == "Bob script"
        b.send_json({"type": "bot", "seat": 2, "spec": "heuristic"})
        assert "host" in until(b, "error")[0]["message"]
        a.send_json({"type": "bot", "seat": 2, "spec": "random"})
        until(a), until(b)
        a.send_json({"type": "bot", "seat": 3, "spec": "heuristic"})
        ma, mb = until(a)[0], until(b)[0]
        tabs = {0: a, 1: b}
        latest = {0: ma, 1: mb}
        for _ in range(3000):
            if ma["game"]["over"]:
                break
            turn = ma["game"]["turn"]
            other = 1 - turn
            og = latest[other]["game"]
            chosen = None
            if og["contract"] >= 0 and latest[turn]["game"]["decision"] in ("play", "place") \
                    and og["hand"] and rng.random() < 0.7:
                chosen = rng.choice(og["hand"])
                tabs[other].send_json({"type": "preselect", "card": chosen})
                if chosen != og["preselect"]:  # (choosing it again changes nothing)
                    latest[other] = until(tabs[other])[0]
                assert latest[other]["game"]["preselect"] == chosen
            action = choose(latest[turn], rng)
            tabs[turn].send_json({"type": "act", "action": action})
            # a quiet K♥ holder's decision changes no one else's view: they get nothing
            quiet = latest[turn]["game"]["decision"] == "declare" and action == 0
            told_seats = (turn,) if quiet else (0, 1)
            got = {s: until(tabs[s]) for s in told_seats}
            errs = [x for s in told_seats for x in got[s][1] if x["type"] == "error"]
            assert not errs, (errs, turn, latest[turn]["game"]["decision"])
            latest.update({s: got[s][0] for s in told_seats})
            ma = latest[0]
            if chosen is not None:
                played = [e for e in latest[other]["events"]
                          if e.get("seat") == other and e.get("card") == chosen]
                told = [x for x in got[other][1] if x["type"] == "notice"]
                auto += bool(played)
                notices += bool(told)
                assert not (played and told)
                for x in told:  # cards named as people read them (9♦), not as records do
                    assert not re.search(r"\b(10|[789JQKA])[HCDS]\b", x["message"]), x
                if not played and not told:  # still chosen, or its contract ended
                    assert latest[other]["game"]["preselect"] in (chosen, None)
        assert ma["game"]["over"] and latest[1]["game"]["over"]
    assert auto > 5 and notices > 0
    replay_ok(next((tmp_path / "records").glob("*.jsonl")))
    assert spy.check() > 100


def test_bad_messages_get_an_error_and_the_table_goes_on(tmp_path: Path) -> None:
    _, client = make(tmp_path)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "act", "action": 3})
        assert "hello" in until(ws, "error")[0]["message"]
        m = hello(ws, token)
        seat_bots(ws, [1, 2])
        ws.send_json({"type": "act", "action": 0})
        assert "not started" in until(ws, "error")[0]["message"]
        ws.send_json({"type": "bot", "seat": 3, "spec": "no-such-strategy"})
        assert until(ws, "error")[0]["message"]
        m = seat_bots(ws, [3])
        assert my_turn(m)
        illegal = next(a for a in range(33) if a not in m["game"]["legal"])
        bad: list[Any] = [
            "not json", "[1, 2]", "{}", '{"type": 5}', '{"type": "fly"}',
            json.dumps({"type": "act", "action": illegal}),
            json.dumps({"type": "act", "action": "3"}),
            json.dumps({"type": "act", "action": True}),
            json.dumps({"type": "act", "action": 10**30}),
            json.dumps({"type": "act", "action": -1}),
            json.dumps({"type": "sit", "seat": 2}),
            json.dumps({"type": "bot", "seat": 9, "spec": "random"}),
            json.dumps({"type": "preselect", "card": 99}),
            json.dumps({"type": "hello", "token": token}),
            "[" * 5000, "x" * 10000,
        ]
        for text in bad:
            ws.send_text(text)
            err = until(ws, "error")[0]["message"]
            assert "\n" not in err and len(err) < 300 and "Traceback" not in err, err
        ws.send_bytes(b"\x00\x01")
        assert until(ws, "error")[0]["message"]
        ws.send_json({"type": "act", "action": m["game"]["legal"][0]})
        assert until(ws)[0]["type"] == "state"
    with client.websocket_connect("/ws/nope") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["fatal"]


def test_seat_tokens_are_random_and_act_only_for_their_own_seat(tmp_path: Path) -> None:
    hub, client = make(tmp_path)
    tid, token = create(client)
    tid2, token2 = create(client)
    assert tid != tid2 and token != token2 and len(token) >= 32
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, token)
        m = hello(b, token2)  # another table's token gives no seat here
        assert m["you"] is None and m["game"] is None
        m = seat_bots(a, [2, 3])
        until(b)
        b.send_json({"type": "act", "action": 0})
        assert "seat" in until(b, "error")[0]["message"]
        b.send_json({"type": "sit", "seat": 0})
        assert "taken" in until(b, "error")[0]["message"]
        b.send_json({"type": "sit", "seat": 1})
        token_b = until(b, "seated")[0]["token"]
        mb = until(b)[0]
        ma = until(a)[0]
        assert hub.get(tid).seat_of(token_b) == 1 and hub.get(tid2).seat_of(token_b) is None
        waiting, acting = (b, a) if ma["game"]["turn"] == 0 else (a, b)
        latest = ma if acting is a else mb
        if latest["game"]["turn"] in (0, 1):
            waiting.send_json({"type": "act", "action": latest["game"]["legal"][0]
                               if latest["game"]["legal"] else 0})
            assert "not your turn" in until(waiting, "error")[0]["message"]
    with client.websocket_connect(f"/ws/{tid}") as c:
        m = hello(c, "x" * 32)
        assert m["you"] is None
        c.send_json({"type": "sit", "seat": 2})  # a bot's seat is not free once started
        assert "played by a bot" in until(c, "error")[0]["message"]


def test_reconnecting_restores_the_whole_view(tmp_path: Path) -> None:
    hub, client = make(tmp_path)
    tid, token = create(client)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1, 2, 3])
        for _ in range(40):
            ws.send_json({"type": "act", "action": choose(m, rng)})
            m = until(ws)[0]
    table = hub.get(tid)
    wait_away(table, 0)
    assert table.seats[0].online == 0
    time.sleep(0.2)
    assert table.game.turn == 0 and not table.game.over  # the game waits for its person
    with client.websocket_connect(f"/ws/{tid}") as ws:
        back = hello(ws, token)
        assert back["you"] == 0 and back["events"] == []
        assert back["game"] == m["game"]
        ws.send_json({"type": "act", "action": choose(back, rng)})
        assert until(ws)[0]["game"]["contract_no"] >= back["game"]["contract_no"]


def test_the_last_trick_may_be_seen_twice_per_contract(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    _, client = make(tmp_path)
    tid, token = create(client)
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1, 2, 3])
        checked = 0
        while checked < 2 and not m["game"]["over"]:
            g = m["game"]
            if g["contract"] not in (-1, 6) and g["trick_no"] == 0 and g["looks_left"] == 2:
                ws.send_json({"type": "last"})
                assert "no trick" in until(ws, "error")[0]["message"]
            if g["contract"] not in (-1, 6) and g["trick_no"] >= 1 and g["looks_left"] == 2:
                for left in (1, 0):
                    ws.send_json({"type": "last"})
                    last, _ = until(ws, "last")
                    assert last["looks_left"] == left and len(last["trick"]["cards"]) == 4
                    assert until(ws)[0]["game"]["looks_left"] == left
                ws.send_json({"type": "last"})
                assert "2 times" in until(ws, "error")[0]["message"]
                number = g["contract_no"]
                while m["game"]["contract_no"] == number and not m["game"]["over"]:
                    ws.send_json({"type": "act", "action": choose(m, rng)})
                    m = until(ws)[0]
                assert m["game"]["looks_left"] == 2
                checked += 1
                continue
            if g["contract"] == 6 and g["turn"] == 0:
                ws.send_json({"type": "last"})
                assert "no tricks" in until(ws, "error")[0]["message"]
            ws.send_json({"type": "act", "action": choose(m, rng)})
            m = until(ws)[0]
        assert checked == 2
    spy.check()


def test_a_stand_in_plays_for_an_away_person_after_bot_after(tmp_path: Path) -> None:
    hub, client = make(tmp_path, bot_after=0.2)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1, 2, 3])
        assert my_turn(m)
    table = hub.get(tid)
    for _ in range(300):  # the record is written just after the last card
        if table.game.over and table.record_path is not None:
            break
        time.sleep(0.05)
    assert table.game.over and table.record_path is not None
    replay_ok(table.record_path)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        back = hello(ws, token)
        assert back["phase"] == "over" and back["game"]["over"]


def test_a_returning_person_takes_the_seat_back_from_the_stand_in(tmp_path: Path) -> None:
    clock = [100.0]  # the table's clock only: the event loop keeps real time
    hub, client = make(tmp_path, bot_after=30)
    tid, token = create(client)
    table = hub.get(tid)
    table.clock = lambda: clock[0]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1, 2, 3])
    wait_away(table, 0)
    assert not table.standing_in(0)
    clock[0] += 31
    assert table.standing_in(0) and table.wake_in() == 0
    with client.websocket_connect(f"/ws/{tid}") as ws:
        back = hello(ws, token)
        assert not table.standing_in(0) and back["seats"][0]["online"]
        assert my_turn(back), (back["game"], back["seats"])
        assert back["game"]["contract_no"] >= m["game"]["contract_no"]


def test_serve_command_rejects_bad_options_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    (tmp_path / "f").write_text("a file")
    records = ["--records", str(tmp_path / "r")]
    for args in (["--port", "70000"], ["--bot-after", "-3"], ["--port", "x"],
                 ["--records", str(tmp_path / "f")], [*records, "--stand-in", "nope"],
                 [*records, "--port", str(busy.getsockname()[1])]):
        res = runner.invoke(cli, ["serve", *args])
        assert res.exit_code == 2, (args, res.output)
        lines = [x for x in res.output.splitlines() if x.strip()]
        assert lines[-1].startswith("Error:") and "Traceback" not in res.output, res.output
    busy.close()


def test_unfinished_tables_survive_a_restart(tmp_path: Path) -> None:
    """A server stopped mid-game and started again on the same folder has the table back:
    same link, same seat tokens, the same view for each person (chosen card and last-trick
    looks included); the game goes on to its record, and then its file goes."""
    keep = tmp_path / "records" / "unfinished"
    hub, client = make(tmp_path, keep=keep)
    tid, token = create(client)
    rng = random.Random(11)
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as b:
        bob, ma, mb = ann_and_bob(a, b, token, ("random", "heuristic"))
        m = {0: ma, 1: mb}
        tabs = {0: a, 1: b}
        looked = chosen = False
        for _ in range(400):
            turn = m[0]["game"]["turn"]
            g = m[turn]["game"]
            if not looked and g["contract"] not in (-1, 6) and g["trick_no"] >= 1:
                tabs[turn].send_json({"type": "last"})
                until(tabs[turn], "last")
                m[turn] = until(tabs[turn])[0]  # (only the looker's view changed)
                looked = True
            if looked and g["contract"] not in (-1, 6) and g["decision"] == "play" \
                    and m[0]["game"]["contract_no"] >= 2:
                other = 1 - turn
                card = m[other]["game"]["hand"][0]
                tabs[other].send_json({"type": "preselect", "card": card})
                m[other] = until(tabs[other])[0]
                chosen = m[other]["game"]["preselect"] == card
                break
            act(tabs, m, turn, choose(m[turn], rng))
        assert looked and chosen
    shut(client)  # the server stops: its tables' last state is written
    table = hub.get(tid)
    before = {s: table.state(s, events=False)["game"] for s in (0, 1)}
    actions = list(table.game.actions)
    path = keep / f"{tid}.json"
    assert path.stat().st_mode & 0o777 == 0o600  # seat tokens inside
    assert token in path.read_text() and bob in path.read_text()

    # a new server on the same folder
    hub2, client2 = make(tmp_path, keep=keep)
    assert hub2.problems == [] and list(hub2.tables) == [tid]
    again = hub2.get(tid)
    assert again.game.actions == actions and again.game.history == table.game.history
    with client2.websocket_connect(f"/ws/{tid}") as a, \
            client2.websocket_connect(f"/ws/{tid}") as b:
        m = {0: hello(a, token), 1: hello(b, bob)}
        m[0] = until(a)[0]  # Bob's return is news to Ann
        assert m[0]["you"] == 0 and m[1]["you"] == 1
        for s in (0, 1):
            assert m[s]["game"] == before[s]
        tabs = {0: a, 1: b}
        for _ in range(3000):
            if m[0]["game"]["over"]:
                break
            turn = m[0]["game"]["turn"]
            act(tabs, m, turn, choose(m[turn], rng))
        assert m[0]["game"]["over"] and m[0]["game"]["saved"]
        for _ in range(200):  # a finished game's file goes at once, off the event loop
            if not path.exists():
                break
            time.sleep(0.02)
    assert not path.exists()
    (record,) = (tmp_path / "records").glob("table-*.jsonl")
    replay_ok(record)


def test_a_damaged_kept_table_is_reported_and_left_alone(tmp_path: Path) -> None:
    keep = tmp_path / "unfinished"
    hub, client = make(tmp_path, keep=keep)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        seat_bots(ws, [1, 2, 3])
    shut(client)
    good = json.loads((keep / f"{tid}.json").read_text())
    cheat = dict(good, id="cheat", actions=[*good["actions"], 31, 31])
    (keep / "cheat.json").write_text(json.dumps(cheat))
    (keep / "cut.json").write_text(json.dumps(good)[:50])
    (keep / "moved.json").write_text(json.dumps(good))
    files = {f.name: f.read_bytes() for f in keep.iterdir()}
    hub2 = Hub(records=tmp_path / "records", keep=keep, game="trix")
    assert list(hub2.tables) == [tid]
    assert len(hub2.problems) == 3
    assert any("cheat.json: action" in p and "not allowed" in p for p in hub2.problems), \
        hub2.problems
    assert any("moved.json: holds table" in p for p in hub2.problems)
    assert {f.name: f.read_bytes() for f in keep.iterdir()} == files


def test_a_finished_game_without_its_record_stays_kept_until_written(tmp_path: Path) -> None:
    """When the record cannot be written (here: --records names a file), the kept table
    is the only copy of the game: it stays, and the next server writes the record."""
    keep = tmp_path / "unfinished"
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    hub = Hub(records=blocked, keep=keep, game="trix")
    table, _ = hub.create("Ann")
    for s in (1, 2, 3):
        table.put_bot(0, s, "random")
    rng = random.Random(2)
    table.advance()
    while not table.game.over:
        table.act(0, rng.choice(table.game.legal_actions()))
        table.advance()
        hub.save(table)
    assert table.record_error is not None and (keep / f"{table.id}.json").exists()
    hub2 = Hub(records=tmp_path / "records", keep=keep, game="trix")
    assert hub2.problems == [] and not (keep / f"{table.id}.json").exists()
    (record,) = (tmp_path / "records").glob("table-*.jsonl")
    replay_ok(record)


def test_a_friend_sits_in_for_an_away_player_until_they_return(tmp_path: Path) -> None:
    """"Anyone missing can be replaced by a friend ... and a player who drops out gets
    their seat back when they return": with Bob away, Carol takes his seat by the link and
    plays his turns (no stand-in bot plays meanwhile); when Bob comes back Carol stands up
    (told why; her token no longer acts) and Bob carries on with the whole view. No friend
    may take a seat whose player is at the table, nor a second friend a seat taken."""
    clock = [100.0]  # the table's clock only: the event loop keeps real time
    hub, client = make(tmp_path, bot_after=30)
    tid, token = create(client)
    table = hub.get(tid)
    table.clock = lambda: clock[0]
    table.sit_in_after = 0  # (the grace period is tested in test_serve_hostile)
    rng = random.Random(4)
    with client.websocket_connect(f"/ws/{tid}") as a:
        with client.websocket_connect(f"/ws/{tid}") as b:
            bob, _, _ = ann_and_bob(a, b, token, ("heuristic", "heuristic"))
            with client.websocket_connect(f"/ws/{tid}") as c:  # Bob is here: no sitting in
                assert hello(c, None)["seats"][1]["sub"] is None
                c.send_json({"type": "sit", "seat": 1, "name": "Carol"})
                assert "Bob is at the table" in until(c, "error")[0]["message"]
        wait_away(table, 1)
        m = {0: until(a)[0]}  # Bob left
        assert not m[0]["seats"][1]["online"]
        with client.websocket_connect(f"/ws/{tid}") as c:
            seen = hello(c, None)
            assert seen["you"] is None and seen["game"] is None
            c.send_json({"type": "sit", "seat": 0, "name": "Mallory"})
            assert "Ann is at the table" in until(c, "error")[0]["message"]
            c.send_json({"type": "sit", "seat": None, "name": "Carol"})
            carol = until(c, "seated")[0]
            assert carol["seat"] == 1 and carol["token"] not in (token, bob)
            m[1] = until(c)[0]
            m[0] = until(a)[0]
            assert m[1]["you"] == 1 and m[1]["game"]["hand"]  # Bob's hand, for Carol
            assert m[0]["seats"][1]["sub"] == "Carol" and m[1]["seats"][1]["sub"] == "Carol"
            clock[0] += 31  # long past --bot-after: still no stand-in while Carol plays
            assert not table.standing_in(1) and table.wake_in() is None
            with client.websocket_connect(f"/ws/{tid}") as d:
                hello(d, None)
                d.send_json({"type": "sit", "seat": 1, "name": "Dave"})
                assert "Carol already sits in for Bob" in until(d, "error")[0]["message"]
            tabs = {0: a, 1: c}
            carol_moves = 0
            while carol_moves < 3 and not m[0]["game"]["over"]:
                turn = m[0]["game"]["turn"]
                act(tabs, m, turn, choose(m[turn], rng))
                carol_moves += turn == 1
            assert carol_moves == 3
            actions = len(table.game.actions)
            with client.websocket_connect(f"/ws/{tid}") as b:  # Bob is back
                back = hello(b, bob)
                assert back["you"] == 1
                assert back["game"] == table.state(1, events=False)["game"]
                told, _ = until(c, "notice")
                assert "Bob is back" in told["message"]
                after = until(c)[0]
                assert after["you"] is None and after["game"] is None
                assert after["seats"][1]["sub"] is None and after["seats"][1]["online"]
                c.send_json({"type": "act", "action": m[1]["game"]["hand"][0]})
                assert "take a seat first" in until(c, "error")[0]["message"]
                assert len(table.game.actions) == actions
    assert table.holder(carol["token"]) == (None, False)
    assert table.holder(bob) == (1, False)


def test_table_files_are_written_off_the_loop_coalesced_and_on_shutdown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst of moves costs a write or two, not one per move; no-op messages cost none;
    the writes happen in a worker thread; the server's shutdown writes the last state."""
    import asyncio

    from trixsim.serve import store as store_module

    on_loop: list[bool] = []  # for each write: whether it ran on an event loop's thread
    real = store_module.write_atomic

    def spy(*args: Any, **kw: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real(*args, **kw)

    monkeypatch.setattr(store_module, "write_atomic", spy)
    keep = tmp_path / "unfinished"
    hub, client = make(tmp_path, keep=keep, limits=Limits(keep_every=30.0))
    tid, token = create(client)
    path = keep / f"{tid}.json"
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        m = seat_bots(ws, [1, 2, 3], "random")
        for _ in range(50):  # a card chosen "again" (none): changes nothing
            ws.send_json({"type": "preselect", "card": None})
        rng = random.Random(5)
        moves = 0
        while moves < 30 and not m["game"]["over"]:
            ws.send_json({"type": "act", "action": choose(m, rng)})
            m = until(ws)[0]
            moves += 1
        assert moves == 30
        table = hub.get(tid)
        written = hub.store.writes
        assert 1 <= written <= 2, written  # the new table, then at most one more flush
        assert on_loop and not any(on_loop)
        assert json.loads(path.read_text())["actions"] != list(table.game.actions)
    shut(client)  # shutdown: what is pending is written
    assert json.loads(path.read_text())["actions"] == list(table.game.actions)
    assert hub.store.writes == written + 1 and not any(on_loop)
