"""trump7 at the web table through Starlette's test client: whole games of trump7 and
trump7-bid over WebSockets, every message checked against the hidden hands and the
stock (the WebSocket spy), the lobby, refusals, choices in advance, the last trick, the
record, and a table kept across a server restart."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from trixsim.cli import cli  # noqa: E402
from trixsim.games.trump7.cards import cards_of  # noqa: E402
from trixsim.loading import StrategyLoadError  # noqa: E402
from trixsim.serve.app import create_app  # noqa: E402
from trixsim.serve.hub import Hub  # noqa: E402
from trixsim.serve.tables import GameTable  # noqa: E402

Msg = dict[str, Any]
SEED = 4_611_686_018_427_400_017

ALLOWED_KEYS = {
    "type", "table", "game_name", "you", "host", "phase", "seats", "seat", "kind", "name",
    "online", "standin", "sub", "game", "events", "over", "turn", "decision", "bidding",
    "dealer", "eldest", "trump", "turned", "turned_holder", "stock_left", "hand", "legal",
    "stakes", "trick", "leader", "cards", "card", "trick_no", "tricks", "honours",
    "honour_cards", "bids", "bid", "points", "hand_sizes", "looks_left", "preselect", "log",
    "winner", "first", "saved", "message", "token", "text",
}
"""Every key a trump7 message may hold: a new one must be added here on purpose."""
CARD_KEYS = ("card", "cards", "hand", "turned", "honour_cards")
"""Keys whose values are cards (``legal`` too, in the play decision)."""

_CLIENTS: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Any:
    yield
    while _CLIENTS:
        _CLIENTS.pop().__exit__(None, None, None)


def make(tmp_path: Path, keep: Path | None = None) -> tuple[Hub, TestClient]:
    hub = Hub(records=tmp_path / "records", seeds=itertools.count(SEED), keep=keep, game="trix")
    client = TestClient(create_app(hub))
    client.__enter__()
    _CLIENTS.append(client)
    return hub, client


def create(client: TestClient, game: str, listed: bool = False,
           name: str = "Ann") -> tuple[str, str]:
    r = client.post("/api/tables", json={"name": name, "game": game, "listed": listed})
    assert r.status_code == 200, r.text
    return r.json()["table"], r.json()["token"]


def until(ws: Any, kind: str = "state") -> tuple[Msg, list[Msg]]:
    before = []
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m, before
        before.append(m)


def hello(ws: Any, token: str | None) -> Msg:
    ws.send_json({"type": "hello", "token": token})
    return until(ws)[0]


def _cards(x: Any, key: str | None = None, decision: str | None = None) -> set[int]:
    """Every card a message names (under the card keys, and ``legal`` in play)."""
    if isinstance(x, dict):
        d = x.get("decision", decision)
        out: set[int] = set()
        for k, v in x.items():
            out |= _cards(v, k, d)
        return out
    if isinstance(x, list):
        return set().union(*(_cards(v, key, decision) for v in x)) if x else set()
    if isinstance(x, int) and not isinstance(x, bool) and x >= 0 and (
            key in CARD_KEYS or (key == "legal" and decision == "play")):
        return {x}
    return set()


def _keys(x: Any) -> set[str]:
    if isinstance(x, dict):
        out = set(x) - {k for k in x if k.isdigit()}  # "stakes" is keyed by bid
        for v in x.values():
            out |= _keys(v)
        return out
    if isinstance(x, list):
        return set().union(*(_keys(v) for v in x)) if x else set()
    return set()


class Spy:
    """Every message a trump7 table builds for a seat, with what was hidden from it then:
    the other hands, and the stock not yet drawn (its order too) but the turned card."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[int | None, Msg, set[int], set[int], int, list[int]]] = []
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
        hands = [set(cards_of(int(g.state.hands[0, s]))) if g else set() for s in range(4)]
        others = set().union(*(h for s, h in enumerate(hands) if s != seat))
        if g is not None:  # the turned card is public all along, in the stock or a hand
            others.discard(int(g.state.turned[0]))
        stock: list[int] = []
        if g is not None:
            drawn = int(g.state.stock_n[0])
            stock = [int(c) for c in g.state.stock[0][drawn:]]
            turned = int(g.state.turned[0])
            stock = [c for c in stock if c != turned]
        own = hands[seat] if seat is not None else set()
        self.seen.append((seat, json.loads(json.dumps(msg)), others, own, t.seed, stock))

    def check(self) -> int:
        """Assert no message told a seat a hidden card or the stock's order."""
        for seat, msg, others, own, seed, stock in self.seen:
            text = json.dumps(msg)
            assert str(seed) not in text
            assert _keys(msg) <= ALLOWED_KEYS, _keys(msg) - ALLOWED_KEYS
            named = _cards(msg)
            assert not named & others, (seat, named & others, msg)
            assert not named & set(stock), (seat, named & set(stock), msg)
            for k in range(len(stock) - 1):  # no run of the stock in its order, as numbers
                assert json.dumps(stock[k:k + 2])[1:-1] not in text.replace(" ", "")
            g = msg.get("game")
            if seat is None:
                assert g is None and not msg.get("events")
                continue
            if g is not None:
                assert set(g["hand"]) == own
                if g["turn"] != seat:
                    assert g["legal"] == [] and g["stakes"] == {}
        return len(self.seen)


def replay_ok(path: Path) -> None:
    res = CliRunner().invoke(cli, ["replay", str(path)])
    assert res.exit_code == 0 and "all consistent" in res.output, res.output


@pytest.mark.parametrize("game", ["trump7", "trump7-bid"])
def test_one_person_and_three_bots_play_trump7(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               game: str) -> None:
    spy = Spy(monkeypatch)
    hub, client = make(tmp_path)
    tid, token = create(client, game)
    rng = random.Random(3)
    looked = chosen = 0
    with client.websocket_connect(f"/ws/{tid}") as ws:
        m = hello(ws, token)
        assert m["game_name"] == game and m["phase"] == "waiting"
        for s in (1, 2, 3):
            ws.send_json({"type": "bot", "seat": s, "spec": "heuristic"})
            m = until(ws)[0]
        assert m["phase"] == "playing"
        for _ in range(200):
            g = m["game"]
            if g["over"]:
                break
            assert g["turn"] == 0
            if g["decision"] == "bid":
                assert sorted(int(b) for b in g["stakes"]) == list(range(14))
                assert "made: 6 for the 3 tricks" in g["stakes"]["3"]
            if g["trick_no"] >= 1 and looked < 3:
                ws.send_json({"type": "last"})
                last, _ = until(ws, "last") if looked < 2 else until(ws, "error")
                if looked < 2:
                    assert len(last["trick"]["cards"]) == 4
                    assert re.fullmatch(r"Trick \d+: (you|right|across|left) .* → "
                                        r"(You take|(Right|Across|Left) takes) it\.",
                                        last["text"]), last["text"]
                else:
                    assert "already looked at the last trick 2 times in this game" \
                        in last["message"]
                looked += 1
                m = until(ws)[0] if looked <= 2 else m
            ws.send_json({"type": "act", "action": rng.choice(g["legal"])})
            m, before = until(ws)
            assert not [b for b in before if b["type"] == "error"], before
        assert m["game"]["over"] and m["game"]["saved"]
    assert m["game"]["log"][-1].startswith("Loser")
    (record,) = (tmp_path / "records").glob("*.jsonl")
    rec = json.loads(record.read_text())
    assert rec["format"] == "trixsim-record/1" and rec["game"] == game
    assert rec["strategies"] == ["human", "heuristic", "heuristic", "heuristic"]
    replay_ok(record)
    assert spy.check() > 14
    assert looked == 3 and chosen == 0


def test_two_people_choose_cards_in_advance_and_nothing_leaks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    hub, client = make(tmp_path)
    tid, token = create(client, "trump7-bid")
    rng = random.Random(5)
    played_in_advance = 0
    with client.websocket_connect(f"/ws/{tid}") as a, \
            client.websocket_connect(f"/ws/{tid}") as b:
        hello(a, token)
        hello(b, None)
        b.send_json({"type": "sit", "seat": 2, "name": "Bob"})
        until(b, "seated")
        until(b), until(a)
        for s in (1, 3):
            a.send_json({"type": "bot", "seat": s, "spec": "random"})
            m = {0: until(a)[0], 2: until(b)[0]}
        tabs = {0: a, 2: b}
        for _ in range(400):
            if m[0]["game"]["over"]:
                break
            turn = m[0]["game"]["turn"]
            other = 2 - turn
            og = m[other]["game"]
            if m[turn]["game"]["decision"] == "play" and og["preselect"] is None and og["hand"]:
                card = og["hand"][0]
                tabs[other].send_json({"type": "preselect", "card": card})
                m[other] = until(tabs[other])[0]
                assert m[other]["game"]["preselect"] == card
            tabs[turn].send_json({"type": "act",
                                  "action": rng.choice(m[turn]["game"]["legal"])})
            for s in tabs:
                m[s] = until(tabs[s])[0]
                while m[s]["game"]["turn"] not in tabs and not m[s]["game"]["over"]:
                    m[s] = until(tabs[s])[0]
            if og["preselect"] is None and m[other]["game"]["preselect"] is None:
                played_in_advance += 1
        assert m[0]["game"]["over"]
    assert played_in_advance > 3
    assert spy.check() > 40


def test_refusals_at_a_trump7_table(tmp_path: Path) -> None:
    hub, client = make(tmp_path)
    r = client.post("/api/tables", json={"name": "Ann", "game": "trump8"})
    assert r.status_code == 400 and "trump7" in r.json()["error"]
    r = client.post("/api/tables", json={"name": "Ann", "game": "trump7", "listed": "yes"})
    assert r.status_code == 400
    tid, token = create(client, "trump7-bid")
    assert "heuristic" in client.get("/api/strategies?game=trump7-bid").json()["strategies"]
    assert client.get("/api/strategies?game=../etc").status_code == 404
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        ws.send_json({"type": "bot", "seat": 1, "spec": "/tmp/evil.py"})
        assert "seats only these bots" in until(ws, "error")[0]["message"]
        for s in (1, 2, 3):
            ws.send_json({"type": "bot", "seat": s, "spec": "heuristic"})
            m = until(ws)[0]
        while m["game"]["turn"] != 0 or m["game"]["decision"] != "bid":
            m = until(ws)[0]
        for bad, why in ((14, "a bid is a number of tricks from 0 to 13"),
                         (True, "an action is a number"), ("3", "an action is a number")):
            ws.send_json({"type": "act", "action": bad})
            assert why in until(ws, "error")[0]["message"]
        ws.send_json({"type": "preselect", "card": 52})
        assert "a card is a number 0-51" in until(ws, "error")[0]["message"]
        ws.send_json({"type": "preselect", "card": m["game"]["hand"][0]})
        assert "bid first" in until(ws, "error")[0]["message"]
        not_mine = next(c for c in range(52) if c not in m["game"]["hand"])
        ws.send_json({"type": "act", "action": 2})
        m = until(ws)[0]
        ws.send_json({"type": "preselect", "card": not_mine})
        assert "not in your hand" in until(ws, "error")[0]["message"]


def test_the_lobby_lists_only_tables_that_asked_with_open_seats(tmp_path: Path) -> None:
    hub, client = make(tmp_path)
    listed, token = create(client, "trump7", listed=True)
    create(client, "trix")  # not listed
    r = client.get("/api/lobby")
    assert r.json() == {"tables": [{"table": listed, "game": "trump7", "free": [1, 2, 3]}]}
    assert "Ann" not in r.text and str(SEED) not in r.text
    assert "trump7-bid" in client.get("/api/games").json()["games"]
    with client.websocket_connect(f"/ws/{listed}") as ws:
        hello(ws, token)
        for s in (1, 2, 3):
            ws.send_json({"type": "bot", "seat": s, "spec": "random"})
            until(ws)
    assert client.get("/api/lobby").json() == {"tables": []}  # full: no longer listed


def test_a_trump7_table_is_kept_across_a_restart(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    hub, client = make(tmp_path, keep=keep)
    tid, token = create(client, "trump7-bid", listed=True)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        for s in (1, 2, 3):
            ws.send_json({"type": "bot", "seat": s, "spec": "heuristic"})
            m = until(ws)[0]
        ws.send_json({"type": "act", "action": m["game"]["legal"][0]})
        m = until(ws)[0]
    before = hub.get(tid).game.actions
    _CLIENTS.remove(client)
    client.__exit__(None, None, None)
    saved = json.loads((keep / f"{tid}.json").read_text())
    assert saved["game"] == "trump7-bid" and saved["listed"] is True
    hub2, client2 = make(tmp_path, keep=keep)
    t = hub2.get(tid)
    assert not hub2.problems and t.game_name == "trump7-bid"
    assert t.game.actions == before and t.game.game.name == "trump7-bid"
    with client2.websocket_connect(f"/ws/{tid}") as ws:
        m = hello(ws, token)
        assert m["you"] == 0 and m["game"]["hand"] == hub.get(tid).state(0)["game"]["hand"]


def test_a_trix_only_stand_in_gives_trump7_tables_the_heuristic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hub = Hub(records=tmp_path / "r", stand_in="heuristic-nodeclare", game="trix")
    table, _ = hub.create("Ann", game="trump7")
    assert table.stand_in.name == "heuristic" and hub.stand_in.name == "heuristic-nodeclare"
    assert "does not play trump7" in capsys.readouterr().err
    assert hub.bots_for("trump7").names() == ["heuristic", "pimc", "random"]


def test_a_server_whose_first_game_is_trump7_makes_trump7_tables_unasked(
        tmp_path: Path) -> None:
    """The game a table plays when its creator names none is the server's (the command
    line gives it), not Trix's: a hub made for trump7 makes trump7 tables, offers
    trump7's bots, and checks its stand-in against trump7."""
    hub = Hub(records=tmp_path / "records", seeds=itertools.count(SEED), game="trump7")
    client = TestClient(create_app(hub))
    client.__enter__()
    _CLIENTS.append(client)
    r = client.post("/api/tables", json={"name": "Ann"})
    assert r.status_code == 200, r.text
    assert hub.tables[r.json()["table"]].game_name == "trump7"
    names = client.get("/api/strategies").json()["strategies"]
    assert names == hub.bots_for("trump7").names() and "heuristic" in names
    assert hub.stand_in.game == "trump7"
    with pytest.raises(StrategyLoadError):
        Hub(records=tmp_path / "r2", stand_in="heuristic-nodeclare", game="trump7")
