"""The web table in a real browser: Debian's Chromium driven by Playwright against a
``trixsim serve`` server running in this process.

One person and three bots play a whole game through the page (create, seat bots, pick,
declare, play by click and by drag, reload to reconnect, the last-trick limit), and two
people play at one table from two browsers (join by the link, choose cards in advance).
Screenshots of each phase, on a desktop and a phone-sized screen, go to the folder named
by ``TRIXSIM_SCREENSHOTS`` (the README's come from ``reports/table/``), else to the
test's temporary folder. Skipped when Chromium or Playwright is missing.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from trixsim.games.trix.cards import KING_OF_HEARTS  # noqa: E402
from trixsim.games.trix.types import DECLARE, GENERAL, PICK, PLACE, PLAY, RAY  # noqa: E402
from trixsim.serve.app import create_app  # noqa: E402
from trixsim.serve.hub import Hub  # noqa: E402
from trixsim.serve.tables import PERSON, GameTable  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.optional,  # skips where no Chromium exists (.ci/run installs it)
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is not installed "
                       "(apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


class Served:
    """A server in a thread of this process, with its hub at hand for the checks."""

    def __init__(self, records: Path, keep: Path | None = None, port: int = 0) -> None:
        import uvicorn

        self.hub = Hub(records=records, seeds=itertools.count(4_611_686_018_427_000_101),
                       keep=keep, game="trix")
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(self.hub), log_level="warning",
                                                    ws="websockets-sansio", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                return
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def table(self) -> GameTable:
        (t,) = self.hub.tables.values()
        return t


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path / "records")
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture()
def shots(tmp_path: Path) -> Callable[[Any, str], None]:
    folder = Path(os.environ.get("TRIXSIM_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> None:
        page.screenshot(path=str(folder / f"{name}.png"))

    return shot


def page_state(page: Any) -> dict[str, Any]:
    """The state the page drew last (its script's ``state``)."""
    return page.evaluate("() => state")


KEYS = ["over", "turn", "contract_no", "contract", "decision", "declared", "hand", "trick",
        "layout", "passed", "tricks", "hand_sizes", "totals"]
"""What must agree between the page and the server before a test step goes on."""


def in_step(page: Any, table: GameTable, seat: int, timeout: float = 15.0) -> dict[str, Any]:
    """Wait until the page shows what the server would send ``seat`` now, with the server
    at rest (a person to act, or the game over); returns the page's state."""
    from trixsim.serve.wire import game_view

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = table.game
        if g is not None:
            view = game_view(g, seat, 0, None)
            want = {k: view[k] for k in KEYS}
            try:
                page.wait_for_function(
                    "(w) => state && state.game && !busy && Object.keys(w).every("
                    "(k) => JSON.stringify(state.game[k]) === JSON.stringify(w[k]))",
                    arg=want, timeout=1500)
                return page_state(page)
            except sync_api.TimeoutError:
                continue
        time.sleep(0.05)
    raise AssertionError(f"the page never showed the server's state: {page_state(page)}")


def at_rest(table: GameTable, timeout: float = 15.0) -> None:
    """Wait until the server waits for a person: the game over, or a person to act who
    has no card chosen in advance (bots, stand-ins and chosen cards play at once, in the
    server's worker thread, so one reading can catch the table between two of them)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        g = table.game
        assert g is not None
        info = table.seats[g.turn]
        resting = g.over or (info.kind == PERSON and not table.standing_in(g.turn) and (
            info.preselect is None or g.decision not in (PLAY, PLACE)))
        now = (len(g.history), g.turn, g.decision, g.over)
        if resting and now == last:
            return
        last = now if resting else None
        time.sleep(0.05)
    raise AssertionError("the server never came to rest")


def moved(table: GameTable, before: int, timeout: float = 10.0) -> None:
    """Wait until the server has applied an action: its history grew past ``before``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert table.game is not None
        if len(table.game.history) > before:
            return
        time.sleep(0.01)
    raise AssertionError("the server never received the action")


def drag(page: Any, card: Any) -> None:
    """Drag a card of the hand onto the middle of the table with the mouse."""
    box = card.bounding_box()
    felt = page.locator("#felt").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(box["x"] + (felt["x"] + felt["width"] / 2 - box["x"]) * k / 5,
                        box["y"] + (felt["y"] + felt["height"] / 2 - box["y"]) * k / 5)
    page.mouse.up()


def create_table(page: Any, url: str, name: str) -> None:
    page.goto(f"{url}/?pause=0")
    page.fill("#create-name", name)
    page.click("#create-btn")
    page.wait_for_selector("#waiting:not([hidden])")


def seat_bot(page: Any, seat: int, spec: str) -> None:
    row = page.locator(f"#seat-list li[data-seat='{seat}']")
    row.locator("input.spec").fill(spec)
    row.locator("button.bot-btn").click()
    page.wait_for_function(f"() => state.seats[{seat}].kind === 'bot'")


def join(page: Any, link: str, name: str, seat: int, touch: bool = False) -> None:
    """Open a table's link and take the open seat ``seat`` under ``name``."""
    page.goto(link + "?pause=0")
    page.wait_for_selector("#waiting:not([hidden])")
    page.fill("#sit-name", name)
    button = page.locator(f"#seat-list li[data-seat='{seat}'] button.sit-btn")
    button.tap() if touch else button.click()


def test_one_person_and_three_bots_play_a_whole_game_in_the_browser(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.url + "/")
    page.wait_for_selector("#lobby:not([hidden])")
    shots(page, "desktop-1-lobby")
    create_table(page, served.url, "Ann")
    seat_bot(page, 1, "heuristic")
    shots(page, "desktop-2-waiting")
    seat_bot(page, 2, "pimc:worlds=4")
    page.locator("#seat-list li[data-seat='3'] button.bot-btn").click()  # default spec
    table = served.table()
    assert f"/t/{table.id}" in page.url
    st = in_step(page, table, 0)
    seen: set[str] = set()  # decisions met
    shot: set[str] = set()  # screenshots taken
    reloaded = looked = declared = dragged = 0
    for step in range(3000):
        g = st["game"]
        if g["over"]:
            break
        assert g["turn"] == 0
        assert table.game is not None
        history = len(table.game.history)
        if g["decision"] == "pick":
            if "pick" not in shot and g["history"]:
                shots(page, "desktop-3-pick")
                shot.add("pick")
            buttons = page.locator("#pick button.contract")
            enabled = page.locator("#pick button.contract:not([disabled])")
            assert enabled.count() == len(g["legal"]), (g, page.inner_html("#prompt"))
            assert buttons.count() == len(g["left"][0])
            # with the K♥ in hand, ray or general: the declaration question comes next
            ray = [a for a in (RAY, GENERAL) if a in g["legal"]]
            if KING_OF_HEARTS in g["hand"] and ray:
                page.click(f"#pick button.contract[data-contract='{ray[0]}']")
            else:
                enabled.first.click()
        elif g["decision"] == "declare":
            if "declare" not in shot:
                shots(page, "desktop-4-declare")
                shot.add("declare")
            page.click(".declare-yes" if declared % 2 == 0 else ".declare-no")
            declared += 1
        else:
            if g["contract"] != 6 and g["trick_no"] >= 1 and g["looks_left"] == 2 \
                    and looked < 2:
                for left in (1, 0):
                    page.click("#last-btn")
                    page.wait_for_selector("#overlay:not([hidden])")
                    assert f"{left} look" in page.inner_text("#overlay-body")
                    assert page.locator("#overlay-body .card").count() == 4
                    if looked == 0 and left == 1:
                        shots(page, "desktop-6-last-trick")
                    page.click("#overlay-close")
                    page.wait_for_function(f"() => state.game.looks_left === {left}")
                assert page.locator("#last-btn").is_disabled()
                looked += 1
            name = "trix" if g["contract"] == 6 else "play"
            if name not in shot and (name == "trix" or len(g["trick"]["cards"]) >= 2):
                shots(page, f"desktop-5-{name}")
                shot.add(name)
            seen.add(name)
            playable = page.locator("#hand .card.playable")
            assert not errors, errors
            assert playable.count() == len([a for a in g["legal"] if a < 32]), g
            assert page.locator("#hand .card").count() == len(g["hand"])
            if step % 3 == 0:
                drag(page, playable.first)
                dragged += 1
            else:
                playable.first.click()
        seen.add(g["decision"])
        moved(table, history)
        if step in (15, 60) and reloaded < 2:  # come back: the same seat, the whole view
            page.wait_for_timeout(100)
            before = in_step(page, table, 0)
            page.reload()
            st = in_step(page, table, 0)
            assert st["you"] == 0 and st["game"]["hand"] == before["game"]["hand"]
            assert st["game"]["history"] == before["game"]["history"]
            reloaded += 1
            continue
        st = in_step(page, table, 0)
    assert st["game"]["over"], "the game did not end"
    page.wait_for_selector("#prompt >> text=Game over")
    shots(page, "desktop-7-over")
    assert reloaded == 2 and looked == 2 and dragged > 5 and declared > 0
    assert {"pick", "play", "declare", "trix"} <= seen
    assert not errors, errors
    (record,) = served.hub.records.glob("*.jsonl")
    from click.testing import CliRunner

    from trixsim.cli import cli

    res = CliRunner().invoke(cli, ["replay", str(record)])
    assert res.exit_code == 0 and "all consistent" in res.output, res.output
    ctx.close()


def test_two_people_at_one_table_from_two_browsers(browser: Any, served: Served,
                                                   shots: Callable[[Any, str], None]) -> None:
    host_ctx = browser.new_context(**DESKTOP)
    guest_ctx = browser.new_context(**PHONE)  # another browser: its own storage
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for p in (host, guest):
        p.on("pageerror", lambda e: errors.append(str(e)))
    create_table(host, served.url, "Ann")
    link = host.input_value("#share-link")
    table = served.table()
    join(guest, link, "Bob", 1, touch=True)
    host.wait_for_function("() => state.seats[1].kind === 'human'")
    assert host.locator("#seat-list li[data-seat='1']").inner_text().count("Bob") == 1
    assert guest.locator("button.bot-btn").count() == 0  # only the host seats bots
    shots(guest, "phone-1-waiting")
    seat_bot(host, 2, "heuristic")
    seat_bot(host, 3, "random")
    pages = {0: host, 1: guest}
    chosen_played = notices = 0
    shot_phone = set()
    while True:
        g = table.game
        assert g is not None
        at_rest(table)  # else ``turn`` may be a seat the chosen cards are passing through
        if g.over or g.view(0).contract_no[0] >= 3:
            break
        turn = g.turn
        st = in_step(pages[turn], table, turn)
        other = 1 - turn
        ost = in_step(pages[other], table, other)
        og = ost["game"]
        pick = g.decision == PICK
        chosen = None  # a card the other person chooses in advance now
        if (not pick and g.decision != DECLARE and og["contract"] >= 0 and og["hand"]
                and og["preselect"] is None):  # a second tap would take the choice back
            card = chosen = og["hand"][0]
            loc = pages[other].locator(f"#hand .card[data-card='{card}']")
            loc.tap() if other == 1 else loc.click()
            pages[other].wait_for_selector(f"#hand .card.chosen[data-card='{card}']")
            if "chosen" not in shot_phone and other == 1:
                shots(guest, "phone-3-chosen-in-advance")
                shot_phone.add("chosen")
        if "play" not in shot_phone and turn == 1 and not pick and og["contract"] != 6:
            shots(guest, "phone-2-play")
            shot_phone.add("play")
        page = pages[turn]
        before = len(g.history)
        if st["game"]["decision"] == "pick":
            page.locator("#pick button.contract:not([disabled])").first.click()
        elif st["game"]["decision"] == "declare":
            page.click(".declare-no")
        else:
            loc = page.locator("#hand .card.playable").first
            loc.tap() if turn == 1 else loc.click()
        moved(table, before)
        after = in_step(pages[other], table, other)
        if chosen is not None and after["game"]["preselect"] is None:
            played = chosen not in after["game"]["hand"]
            chosen_played += played
            if not played:
                notices += 1
    assert chosen_played > 3, (chosen_played, notices)
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def simple_move(page: Any, table: GameTable) -> None:
    """Seat 0 takes the first choice the page offers (no declaration) once the page shows
    its turn; returns when the server has it."""
    st = in_step(page, table, 0)
    before = len(table.game.history)
    if st["game"]["decision"] == "pick":
        page.locator("#pick button.contract:not([disabled])").first.click()
    elif st["game"]["decision"] == "declare":
        page.click(".declare-no")
    else:
        page.locator("#hand .card.playable").first.click()
    moved(table, before)


def test_the_page_carries_on_after_the_server_restarts(browser: Any, tmp_path: Path,
                                                       shots: Callable[[Any, str], None]
                                                       ) -> None:
    """Stop the server mid-game and start a new one on the same port and folder: the open
    page says it is reconnecting, then shows the same game and plays on."""
    keep = tmp_path / "records" / "unfinished"
    first = Served(tmp_path / "records", keep=keep)
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        create_table(page, first.url, "Ann")
        for s in (1, 2, 3):
            seat_bot(page, s, "heuristic")
        table = first.table()
        for _ in range(12):  # a pick, then cards
            simple_move(page, table)
        view = in_step(page, table, 0)["game"]
    finally:
        first.stop()
    page.wait_for_selector("#conn:not([hidden])")
    shots(page, "desktop-8-reconnecting")
    second = Served(tmp_path / "records", keep=keep, port=first.port)
    try:
        again = second.table()
        assert again.id == table.id and again.game.actions == table.game.actions
        page.wait_for_selector("#conn", state="hidden", timeout=20000)
        assert in_step(page, again, 0)["game"] == view
        simple_move(page, again)
        assert not errors, errors
    finally:
        second.stop()
        ctx.close()


def test_a_friend_sits_in_for_an_away_player_in_the_browser(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:
    """Bob closes his tab; Carol opens the link, sits in for him and sees his hand; when
    Bob opens the link again Carol is told he is back and watches unseated."""
    host_ctx = browser.new_context(**DESKTOP)
    bob_ctx = browser.new_context(**PHONE)
    carol_ctx = browser.new_context(**DESKTOP)
    host = host_ctx.new_page()
    errors: list[str] = []
    create_table(host, served.url, "Ann")
    link = host.input_value("#share-link")
    table = served.table()
    table.sit_in_after = 0  # (the grace period is tested in test_serve_hostile)
    bob = bob_ctx.new_page()
    join(bob, link, "Bob", 1, touch=True)
    host.wait_for_function("() => state.seats[1].kind === 'human'")
    seat_bot(host, 2, "heuristic")
    seat_bot(host, 3, "heuristic")
    bob.wait_for_selector("#game:not([hidden])")
    bob.close()
    host.wait_for_function("() => !state.seats[1].online")
    carol = carol_ctx.new_page()
    for p in (host, carol):
        p.on("pageerror", lambda e: errors.append(str(e)))
    carol.goto(link + "?pause=0")
    carol.wait_for_selector("#seat-list li[data-seat='1'] button.sit-in-btn")
    assert "The game is on" in carol.inner_text("#waiting h2")
    assert carol.locator("button.sit-in-btn").count() == 1  # Ann is here: only Bob's seat
    shots(carol, "desktop-9-sit-in-offer")
    carol.fill("#sit-name", "Carol")
    carol.click("#seat-list li[data-seat='1'] button.sit-in-btn")
    carol.wait_for_selector("#game:not([hidden])")
    carol.wait_for_function("() => state.you === 1 && state.game.hand.length > 0")
    host.wait_for_function("() => state.seats[1].sub === 'Carol'")
    assert "Carol sits in" in host.inner_text("#felt")
    assert carol.locator("#hand .card").count() == len(in_step(carol, table, 1)["game"]["hand"])
    shots(carol, "desktop-10-sitting-in")
    bob = bob_ctx.new_page()  # Bob's browser still has his seat token
    bob.goto(link + "?pause=0")
    bob.wait_for_function("() => state && state.you === 1 && state.game !== null")
    carol.wait_for_selector("#toast:not([hidden])")
    assert "Bob is back" in carol.inner_text("#toast")
    carol.wait_for_selector("#waiting:not([hidden])")
    assert carol.locator("button.sit-in-btn").count() == 0
    shots(carol, "desktop-11-stood-up")
    assert not errors, errors
    for ctx in (host_ctx, bob_ctx, carol_ctx):
        ctx.close()


def test_a_quiet_king_of_hearts_holder_sends_nothing_to_the_other_browser(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:
    """Two people and two bots; whichever person holds the K♥ in ray or general keeps
    quiet. The other person's page receives no WebSocket frame at all for that decision
    (an unchanged state would tell them who holds the K♥); it next hears of the card."""
    host_ctx = browser.new_context(**DESKTOP)
    guest_ctx = browser.new_context(**PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    pages = {0: host, 1: guest}
    frames: dict[int, list[str]] = {0: [], 1: []}
    errors: list[str] = []
    for s, p in pages.items():
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.on("websocket", lambda ws, s=s: ws.on(
            "framereceived", lambda payload, s=s: frames[s].append(str(payload))))
    create_table(host, served.url, "Ann")
    link = host.input_value("#share-link")
    table = served.table()
    join(guest, link, "Bob", 1, touch=True)
    host.wait_for_function("() => state.seats[1].kind === 'human'")
    seat_bot(host, 2, "heuristic")
    seat_bot(host, 3, "heuristic")
    quiet = 0
    for _ in range(2000):
        g = table.game
        assert g is not None
        at_rest(table)
        if g.over or quiet >= 2:
            break
        turn = g.turn
        st = in_step(pages[turn], table, turn)["game"]
        page = pages[turn]
        before = len(g.history)
        if st["decision"] == "declare":
            other = 1 - turn
            in_step(pages[other], table, other)
            page.wait_for_timeout(300)  # anything still on its way to the other page
            heard = len(frames[other])
            if quiet == 0:
                shots(page, "desktop-12-quiet-king" if turn == 0 else "phone-4-quiet-king")
            page.click(".declare-no")
            moved(table, before)
            after = in_step(page, table, turn)["game"]
            assert after["decision"] == "play" and after["turn"] == turn
            page.wait_for_timeout(500)
            assert len(frames[other]) == heard, frames[other][heard:]
            card = after["legal"][0]
            played = len(table.game.history)
            page.locator(f"#hand .card[data-card='{card}']").click()
            moved(table, played)
            deadline = time.monotonic() + 10
            while len(frames[other]) == heard and time.monotonic() < deadline:
                pages[other].wait_for_timeout(50)  # (Playwright hands over events meanwhile)
            first = json.loads(frames[other][heard])
            assert first["type"] == "state"
            assert {"kind": "card", "seat": turn, "card": card}.items() <= \
                first["events"][0].items(), first["events"]
            quiet += 1
            continue
        if st["decision"] == "pick":
            ray = [a for a in (RAY, GENERAL) if a in st["legal"]]
            loc = (page.locator(f"#pick button.contract[data-contract='{ray[0]}']") if ray
                   else page.locator("#pick button.contract:not([disabled])").first)
        else:
            loc = page.locator("#hand .card.playable").first
        loc.tap() if turn == 1 else loc.click()
        moved(table, before)
    assert quiet >= 1, "no person held the K♥ in ray or general"
    assert not errors, errors
    host_ctx.close()
    guest_ctx.close()


def test_the_host_seats_bots_by_level(browser: Any, served: Served,
                                      shots: Callable[[Any, str], None]) -> None:
    """The level picker fills the strategy box, says what the level means, and the seat
    shows the level with the spec it plays."""
    page = browser.new_context(**DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, served.url, "Ann")
    row = page.locator("#seat-list li[data-seat='1']")
    row.locator("select.level").wait_for()
    assert row.locator("select.level option").all_inner_texts() == [
        "level…", "easy", "medium", "hard", "expert"]
    row.locator("select.level").select_option("expert")
    assert row.locator("input.spec").input_value() == "expert"
    assert "learned model" in row.locator(".level-hint").inner_text()
    shots(page, "level-picker")
    row.locator("button.bot-btn").click()
    page.wait_for_function("() => state.seats[1].kind === 'bot'")
    assert page_state(page)["seats"][1]["name"] == "expert"
    assert served.table().seats[1].spec == "expert"
    assert not errors
