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
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from trixsim.serve.app import create_app  # noqa: E402
from trixsim.serve.bots import BotList  # noqa: E402
from trixsim.serve.tables import Hub  # noqa: E402

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
    hub = Hub(records=tmp_path / "records", seeds=itertools.count(SEED), **kw)
    client = TestClient(create_app(hub))
    client.__enter__()
    _CLIENTS.append(client)
    return hub, client


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
    _, client = make(tmp_path, bots=BotList([f"{bot}:Mine"]))
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
    hub = Hub(records=tmp_path / "records", keep=keep)
    assert time.monotonic() - t0 < 5
    assert not hub.tables and len(hub.problems) == 1
    assert (keep / "abcdefghijkl.json").exists()
