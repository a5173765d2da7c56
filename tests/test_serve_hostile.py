"""The web table against a hostile client: every attack of the security review, over the
Starlette test client (loopback only, bounded in count and time).

Each test reproduces one finding: a web client naming files or modules as bot strategies,
a bot setting that would think for hours, a quiet K♥ holder revealed by a message, a
seat taken over by a second tab, unbounded messages and tables, damaged saved tables,
missing headers and foreign origins."""

from __future__ import annotations

import itertools
import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from trixsim.serve.app import create_app  # noqa: E402
from trixsim.serve.bots import BotList  # noqa: E402
from trixsim.serve.hub import Hub  # noqa: E402

Msg = dict[str, Any]
SEED = 4_611_686_018_427_400_017

_CLIENTS: list[TestClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Any:
    yield
    while _CLIENTS:
        _CLIENTS.pop().__exit__(None, None, None)


def make(tmp_path: Path, **kw: Any) -> tuple[Hub, TestClient]:
    """A hub and a test client sharing one event loop (as in a running server)."""
    hub = Hub(records=tmp_path / "records", seeds=itertools.count(SEED), **kw, game="trix")
    client = TestClient(create_app(hub))
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


def ask_bot(ws: Any, spec: str, seat: int = 1) -> Msg:
    """The host asks for a bot; the server's answer (an error or the new state)."""
    ws.send_json({"type": "bot", "seat": seat, "spec": spec})
    m = ws.receive_json()
    assert m["type"] in ("error", "state"), m
    return m


# -- 1. bots come from the operator's list ----------------------------------------------

def test_web_client_cannot_name_files_modules_or_parameter_files(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    planted = tmp_path / "evil.py"
    planted.write_text(
        "from pathlib import Path\n"
        f"Path({str(marker)!r}).write_text('x')\n"
        "from trixsim.strategy import Strategy\n"
        "class Evil(Strategy):\n    name = 'evil'\n")
    toml = tmp_path / "p.toml"
    toml.write_text("strategy = 'heuristic'\n[params]\ndeclare_margin = 1.0\n")
    _, client = make(tmp_path)
    tid, token = create(client)
    hostile = [str(planted), f"{planted}:Evil", "unittest.__main__:X", "os:system",
               "heuristic@/etc/passwd", f"heuristic@{toml}", "heuristic@/no/such/file",
               str(toml), "heuristic@/dev/zero", "../../etc/passwd", "heuristic:x=1@/dev/zero",
               "trixsim.strategy:Strategy", "HEURISTIC", "x" * 300]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        answers = {}
        for spec in hostile:
            t0 = time.monotonic()
            m = ask_bot(ws, spec)
            assert time.monotonic() - t0 < 5, spec  # /dev/zero is never read
            assert m["type"] == "error", spec
            answers[spec] = m["message"]
    assert not marker.exists()
    # the same words whatever the spec names: nothing about paths, keys or modules
    assert len(set(answers.values())) == 1, answers
    said = next(iter(answers.values()))
    assert "heuristic" in said and "pimc" in said
    for secret in ("not found", "passwd", "root", "unittest", "import", str(tmp_path)):
        assert secret not in said


def test_parameters_are_checked_against_declared_limits(tmp_path: Path) -> None:
    _, client = make(tmp_path)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        for spec in ("pimc:worlds=600000", "pimc:worlds=257", "pimc:worlds=0",
                     "heuristic:declare_margin=nan", "heuristic:declare_margin=inf",
                     "pimc:worlds=8,worlds=9", "pimc:nope=1", "pimc:worlds=many"):
            m = ask_bot(ws, spec)
            assert m["type"] == "error", spec
            assert len(m["message"].splitlines()) == 1
        assert "256" in ask_bot(ws, "pimc:worlds=600000")["message"]
        m = ask_bot(ws, "pimc:worlds=256")
        assert m["type"] == "state" and m["seats"][1]["name"] == "pimc:worlds=256"
        m = ask_bot(ws, "heuristic:declare_margin=-5,lead_guard=3", seat=2)
        assert m["type"] == "state" and m["seats"][2]["kind"] == "bot"


def test_the_operator_widens_the_list_with_exact_specs(tmp_path: Path) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text("from trixsim.strategy import Strategy\n"
                   "class Mine(Strategy):\n    name = 'mine'\n")
    _, client = make(tmp_path, bots=BotList([f"{bot}:Mine"], game="trix"))
    assert f"{bot}:Mine" in client.get("/api/strategies").json()["strategies"]
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        assert ask_bot(ws, f"{bot}:Mine")["type"] == "state"
        assert ask_bot(ws, f"{bot}", seat=2)["type"] == "error"  # only the exact text


def test_a_saved_table_cannot_seat_a_bot_the_server_does_not_seat(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    keep.mkdir()
    d = {"format": "trixsim-table/1", "id": "abcdefghijkl", "seed": 5,
         "seats": [{"kind": "human", "name": "Ann", "token": "t" * 32, "spec": None,
                    "preselect": None},
                   {"kind": "bot", "name": "x", "token": None, "spec": "heuristic@/dev/zero",
                    "preselect": None}] + [{"kind": "open", "name": "", "token": None,
                                             "spec": None, "preselect": None}] * 2,
         "actions": None, "looks": []}
    (keep / "abcdefghijkl.json").write_text(json.dumps(d))
    t0 = time.monotonic()
    hub = Hub(records=tmp_path / "records", keep=keep, game="trix")
    assert time.monotonic() - t0 < 5
    assert not hub.tables and len(hub.problems) == 1
    assert (keep / "abcdefghijkl.json").exists()


# -- 2. bots think off the event loop, within a time limit --------------------------------

def test_a_bot_past_its_time_limit_plays_the_fallback_and_delays_only_its_table(
        tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import time\nfrom trixsim.strategy import Strategy\n"
                    "class Slow(Strategy):\n    name = 'slow'\n    policy = None\n"
                    "    def play(self, obs):\n        time.sleep(1.0)\n"
                    "        return super().play(obs)\n"
                    "    pick = declare = place = play\n")
    from trixsim.serve.app import Limits
    hub = Hub(records=tmp_path / "records", seeds=itertools.count(SEED),
              bots=BotList([f"{slow}:Slow"], game="trix"), game="trix")
    client = TestClient(create_app(hub, Limits(think=0.2)))
    client.__enter__()
    _CLIENTS.append(client)
    slow_tid, slow_token = create(client)
    fast_tid, fast_token = create(client, "Bea")
    with client.websocket_connect(f"/ws/{slow_tid}") as a, \
            client.websocket_connect(f"/ws/{fast_tid}") as b:
        hello(a, slow_token)
        hello(b, fast_token)
        for s in (1, 2):
            ask_bot(a, f"{slow}:Slow", s)
        for s in (1, 2, 3):
            ask_bot(b, "heuristic", s)
        t0 = time.monotonic()
        a.send_json({"type": "bot", "seat": 3, "spec": f"{slow}:Slow"})
        fast = hello_again = None
        # meanwhile the other table answers at once
        b.send_json({"type": "last"})
        fast = b.receive_json()
        hello_again = time.monotonic() - t0
        m, before = until(a)
        assert fast["type"] in ("error", "last") and hello_again < 0.5, hello_again
        notices = [x["message"] for x in before if x["type"] == "notice"]
        game = m["game"]
        if game["turn"] != 0:  # the slow bots were asked (a first pick may be Ann's)
            assert notices and "took longer than 0.2 s" in notices[0], before
            assert "heuristic" in notices[0]
        assert time.monotonic() - t0 < 15


# -- 3. only what changed, and sitting in ------------------------------------------------

def four_people(stack: ExitStack, client: TestClient, tid: str, token: str
                ) -> tuple[list[Any], list[Msg]]:
    """Ann (the host) and three more people seated at ``tid``: their tabs and states."""
    ws = [stack.enter_context(client.websocket_connect(f"/ws/{tid}")) for _ in range(4)]
    m = [hello(ws[0], token)]
    for s in (1, 2, 3):
        m.append(hello(ws[s], None))
        ws[s].send_json({"type": "sit", "seat": s, "name": f"P{s}"})
        until(ws[s], "seated")
        for k in range(s + 1):  # everyone sees the new seat
            m[k] = until(ws[k])[0]
    return ws, m


def test_a_quiet_king_of_hearts_holder_sends_nothing_to_the_other_seats(
        tmp_path: Path) -> None:
    """The K♥ holder keeps quiet: the other seats get no message at all (before, each got
    a state identical to its previous one, which told them who holds the K♥); the next
    message they get is the holder's card."""
    import random
    _, client = make(tmp_path)
    tid, token = create(client)
    stack = ExitStack()
    ws, m = four_people(stack, client, tid, token)
    rng = random.Random(3)
    quiet = 0
    for _ in range(1500):
        if m[0]["game"]["over"] or quiet >= 2:
            break
        turn = m[0]["game"]["turn"]
        g = m[turn]["game"]
        if g["decision"] == "declare":
            ws[turn].send_json({"type": "act", "action": 0})
            m[turn] = until(ws[turn])[0]
            assert m[turn]["game"]["decision"] == "play"
            card = rng.choice(m[turn]["game"]["legal"])
            ws[turn].send_json({"type": "act", "action": card})
            for s in range(4):
                m[s], before = until(ws[s])
                assert not before
                if s != turn:  # the first thing they hear of is the card
                    assert {"kind": "card", "seat": turn, "card": card} .items() <= \
                        m[s]["events"][0].items(), m[s]["events"]
            quiet += 1
            continue
        ws[turn].send_json({"type": "act", "action": rng.choice(g["legal"])})
        for s in range(4):
            m[s] = until(ws[s])[0]
    stack.close()
    assert quiet >= 1


def test_sitting_in_waits_for_a_grace_period_and_the_table_is_told(tmp_path: Path) -> None:
    """0.3 s after Bob's connection dropped, a second tab could sit in for him and get his
    hand; now the seat's player must have been away --sit-in-after seconds, and everyone
    is told who sat in. A tab already seated cannot sit in for another seat."""
    _, client = make(tmp_path, sit_in_after=0.6)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as a:
        hello(a, token)
        with client.websocket_connect(f"/ws/{tid}") as b:
            hello(b, None)
            b.send_json({"type": "sit", "seat": 1, "name": "Bob"})
            until(b, "seated")
            for s in (2, 3):
                ask_bot(a, "heuristic", s)
            until(a)
        left = time.monotonic()
        with client.websocket_connect(f"/ws/{tid}") as c:
            hello(c, None)
            c.send_json({"type": "sit", "seat": 1, "name": "Mallory"})
            m = until(c, "error")[0]
            assert "away for less than 0.6 s" in m["message"]
            time.sleep(max(0.0, 0.7 - (time.monotonic() - left)))
            c.send_json({"type": "sit", "seat": 1, "name": "Carol"})
            until(c, "seated")
            told, _ = until(a, "notice")
            assert told["message"] == "Carol sits in for Bob (seat 1)."
        a.send_json({"type": "sit", "seat": 1, "name": "Ann again"})
        assert "already have a seat" in until(a, "error")[0]["message"]


# -- 4. bounded resources; 6. headers and origins -------------------------------------------

def test_bodies_nesting_and_table_creation_are_bounded(tmp_path: Path) -> None:
    hub, client = make(tmp_path)
    r = client.post("/api/tables", content=b"[" * 100_000)  # was a 500 with a traceback
    assert r.status_code == 413
    r = client.post("/api/tables", content=b"[" * 1500 + b"]" * 1500)
    assert r.status_code == 400
    r = client.post("/api/tables", content=b"x" * (1 << 20))  # was accepted whole
    assert r.status_code == 413
    codes = [client.post("/api/tables", json={"name": "A"}).status_code for _ in range(12)]
    assert codes.count(200) == 7 and codes[-1] == 429  # 10 a minute, the bad ones included


def test_a_game_in_progress_is_never_evicted(tmp_path: Path) -> None:
    hub, _ = make(tmp_path)
    hub.MAX_TABLES = 3
    tables = []
    for _ in range(3):
        table, _ = hub.create("Ann")
        for s in (1, 2, 3):
            table.put_bot(0, s, "random")
        tables.append(table)
    from trixsim.serve.tables import Refused
    with pytest.raises(Refused, match="too many tables"):
        hub.create("Eve")
    assert all(hub.get(t.id) is t for t in tables)


def test_headers_host_and_origin(tmp_path: Path) -> None:
    hub = Hub(records=tmp_path / "records", game="trix")
    from trixsim.serve.app import host_names
    client = TestClient(create_app(hub, hosts=host_names("127.0.0.1")),
                        base_url="http://127.0.0.1:8000")
    client.__enter__()
    _CLIENTS.append(client)
    r = client.get("/")
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "<script>" not in r.text and "style=" not in r.text  # nothing inline
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400
    assert client.get("/static/../tables.py").status_code == 404
    tid, _ = create(client)
    with client.websocket_connect(f"/ws/{tid}", headers={"origin": "http://127.0.0.1:8000",
                                                        "host": "127.0.0.1:8000"}) as ws:
        assert hello(ws, None)["type"] == "state"
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect) as info, \
            client.websocket_connect(f"/ws/{tid}", headers={"origin": "http://evil.example",
                                                       "host": "127.0.0.1:8000"}):
        pass
    assert info.value.code == 4403


# -- 5. restore checks everything ------------------------------------------------------------

def test_damaged_table_files_are_refused_in_one_line_and_left_alone(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    hub, client = make(tmp_path, keep=keep)
    tid, token = create(client)
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, token)
        for s in (1, 2, 3):
            ask_bot(ws, "heuristic", s)
    shut(client)
    good = json.loads((keep / f"{tid}.json").read_text())
    hand = hub.get(tid).state(0)["game"]["hand"]
    other = next(c for c in range(32) if c not in hand)
    bad = {
        "seed": dict(good, id="seed", seed=2**64),  # stopped the server from starting
        "name": dict(good, id="name", seats=[dict(good["seats"][0], name="<b>x</b>"),
                                             *good["seats"][1:]]),
        "token": dict(good, id="token", seats=[dict(good["seats"][0], token="a b" * 10),
                                               *good["seats"][1:]]),
        "chosen": dict(good, id="chosen", seats=[dict(good["seats"][0], preselect=other),
                                                 *good["seats"][1:]]),
        "looks": dict(good, id="looks", looks=[[0, 0, 10**9]]),
    }
    for name, d in bad.items():
        (keep / f"{name}.json").write_text(json.dumps(d))
    with open(keep / "huge.json", "w") as f:  # was read whole (a 300 MB file)
        f.write('{"format": "trixsim-table/1", "pad": "' + "x" * (1 << 20) + '"}')
    files = {f.name: f.read_bytes() for f in keep.iterdir()}
    hub2 = Hub(records=tmp_path / "records", keep=keep, game="trix")
    assert list(hub2.tables) == [tid]
    assert len(hub2.problems) == len(bad) + 1, hub2.problems
    assert all(len(p.splitlines()) == 1 for p in hub2.problems)
    assert {f.name: f.read_bytes() for f in keep.iterdir()} == files
