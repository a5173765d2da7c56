"""trump7 at the web table in a real browser (Debian's Chromium, Playwright): whole games
of trump7-bid and trump7 played by click, drag and tap on a desktop and a phone, with
bids through the picker, the last trick, a reload, and a two-browser table with cards
chosen in advance; the lobby lists a table that asked to be listed. Screenshots go where
``TRIXSIM_SCREENSHOTS`` says (the README's come from ``reports/table/``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from test_serve_browser import (  # noqa: E402
    DESKTOP,
    PHONE,
    Served,
    browser,
    drag,
    join,
    moved,
    page_state,
    pytestmark,
    seat_bot,
    served,
    shots,
)

from trixsim.serve.tables import PERSON, GameTable  # noqa: E402

__all__ = ["browser", "pytestmark", "served", "shots"]  # fixtures and marks used here

KEYS = ["over", "turn", "decision", "hand", "trick", "tricks", "hand_sizes", "points",
        "bids", "stock_left", "turned_holder"]
"""What must agree between the page and the server before a test step goes on."""


def in_step(page: Any, table: GameTable, seat: int, timeout: float = 15.0) -> dict[str, Any]:
    """Wait until the page shows what the server would send ``seat`` now; its state."""
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
    """Wait until the server waits for a person (or the game is over)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        g = table.game
        assert g is not None
        info = table.seats[g.turn]
        resting = g.over or (info.kind == PERSON and not table.standing_in(g.turn) and (
            info.preselect is None or g.decision != 0))
        now = (len(g.history), g.turn, g.decision, g.over)
        if resting and now == last:
            return
        last = now if resting else None
        time.sleep(0.05)
    raise AssertionError("the server never came to rest")


def create_table(page: Any, url: str, name: str, game: str, listed: bool = False) -> None:
    page.goto(f"{url}/?pause=0")
    page.wait_for_selector("#lobby:not([hidden])")
    page.fill("#create-name", name)
    page.select_option("#create-game", game)
    if listed:
        page.check("#create-listed")
    page.click("#create-btn")
    page.wait_for_selector("#waiting:not([hidden])")


def hand_order_ok(page: Any, g: dict[str, Any]) -> None:
    """The hand is drawn by suit, trumps last and apart, strongest first in a suit."""
    drawn = [int(x) for x in page.eval_on_selector_all(
        "#hand .card", "els => els.map((e) => e.dataset.card)")]
    assert sorted(drawn) == sorted(g["hand"])
    key = [(4 if c // 13 == g["trump"] else c // 13, -(c % 13)) for c in drawn]
    assert key == sorted(key), drawn
    trumps = [c for c in drawn if c // 13 == g["trump"]]
    if trumps and len(trumps) < len(drawn):
        first = page.locator(f"#hand .card[data-card='{trumps[0]}']")
        assert "apart" in (first.get_attribute("class") or "")


def play_alone(page: Any, served: Served, shots: Callable[[Any, str], None], prefix: str,
               touch: bool) -> dict[str, int]:
    """Seat 0 plays its game to the end against the bots: bids by the picker, cards by
    click and drag (or by tap), looks at the last trick twice, reloads once."""
    table = served.table()
    st = in_step(page, table, 0)
    counts = {"bids": 0, "drags": 0, "taps": 0, "looked": 0, "reloaded": 0, "steps": 0}
    shot: set[str] = set()
    for step in range(200):
        g = st["game"]
        if g["over"]:
            break
        counts["steps"] += 1
        assert g["turn"] == 0 and table.game is not None
        history = len(table.game.history)
        if g["decision"] == "bid":
            buttons = page.locator("#bids button.bid-btn")
            assert buttons.count() == 14
            page.hover("#bids button.bid-btn[data-bid='2']") if not touch else None
            assert "Bid" in page.inner_text("#prompt .stake")
            if "bid" not in shot:
                shots(page, f"{prefix}-trump7-bid")
                shot.add("bid")
            btn = page.locator("#bids button.bid-btn[data-bid='2']")
            btn.tap() if touch else btn.click()
            counts["bids"] += 1
        else:
            hand_order_ok(page, g)
            if g["trick_no"] >= 2 and g["looks_left"] == 2 and counts["looked"] == 0:
                for left in (1, 0):
                    page.click("#last-btn")
                    page.wait_for_selector("#overlay:not([hidden])")
                    assert f"{left} look" in page.inner_text("#overlay-body")
                    assert page.locator("#overlay-body .card").count() == 4
                    page.click("#overlay-close")
                    page.wait_for_function(f"() => state.game.looks_left === {left}")
                assert page.locator("#last-btn").is_disabled()
                counts["looked"] += 1
            playable = page.locator("#hand .card.playable")
            assert playable.count() == len(g["legal"]), g
            if "play" not in shot and len(g["trick"]["cards"]) >= 2 and g["stock_left"] > 0:
                shots(page, f"{prefix}-trump7-play")
                shot.add("play")
            card = int(playable.first.get_attribute("data-card"))
            if step == 1:  # the card leaves the hand in the same tick, before any answer
                gone = page.evaluate(
                    "(c) => { choose(c); return !document.querySelector("
                    "`#hand .card[data-card=\"${c}\"]`); }", card)
                assert gone
            elif touch:
                playable.first.tap()
                counts["taps"] += 1
            elif step % 3 == 0:
                drag(page, playable.first)
                counts["drags"] += 1
            else:
                playable.first.click()
            page.wait_for_function(
                f"() => !document.querySelector('#hand .card[data-card=\"{card}\"]')",
                timeout=3000)
        moved(table, history)
        if step == 5 and counts["reloaded"] == 0:
            page.wait_for_timeout(100)
            before = in_step(page, table, 0)
            page.reload()
            st = in_step(page, table, 0)
            assert st["game"]["hand"] == before["game"]["hand"]
            counts["reloaded"] += 1
            continue
        st = in_step(page, table, 0)
    assert st["game"]["over"], "the game did not end"
    page.wait_for_selector("#prompt >> text=Game over")
    shots(page, f"{prefix}-trump7-over")
    return counts


def replay_ok(served: Served) -> None:
    from click.testing import CliRunner

    from trixsim.cli import cli

    (record,) = served.hub.records.glob("*.jsonl")
    res = CliRunner().invoke(cli, ["replay", str(record)])
    assert res.exit_code == 0 and "all consistent" in res.output, res.output


def test_a_trump7_bid_game_by_click_and_drag_on_a_desktop(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:
    ctx = browser.new_context(**DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, served.url, "Ann", "trump7-bid", listed=True)
    table = served.table()
    assert table.game_name == "trump7-bid" and table.listed
    lobby = ctx.new_page()  # the lobby lists the table while it has open seats
    lobby.goto(served.url + "/?pause=0")
    lobby.wait_for_selector(f"#open-tables li[data-table='{table.id}']")
    text = lobby.inner_text(f"#open-tables li[data-table='{table.id}']")
    assert "trump7-bid" in text and "3 free seats" in text
    shots(lobby, "desktop-lobby")
    lobby.close()
    seat_bot(page, 1, "heuristic")
    seat_bot(page, 2, "random")
    page.locator("#seat-list li[data-seat='3'] button.bot-btn").click()  # default spec
    counts = play_alone(page, served, shots, "desktop", touch=False)
    assert counts["bids"] == 1 and counts["drags"] >= 3 and counts["looked"] == 1
    assert counts["reloaded"] == 1 and counts["steps"] == 14
    st = page_state(page)
    names = [page.inner_text(f".seat-box[data-pos='{p}'] .name") for p in range(4)]
    assert names[0].startswith("You") and names[1].startswith("right")
    assert names[2].startswith("across") and names[3].startswith("left")
    assert st["game"]["bids"][0] == 2 and all(b >= 0 for b in st["game"]["bids"])
    assert not errors, errors
    replay_ok(served)
    ctx.close()


def test_a_trump7_game_by_tap_on_a_phone(browser: Any, served: Served,
                                          shots: Callable[[Any, str], None]) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create_table(page, served.url, "Ann", "trump7")
    for s in (1, 2, 3):
        seat_bot(page, s, "heuristic")
    counts = play_alone(page, served, shots, "phone", touch=True)
    assert counts["taps"] == 12 and counts["bids"] == 0  # and one by choose() at once
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the phone page is {width} px wide"
    assert not errors, errors
    replay_ok(served)
    ctx.close()


def test_two_people_play_trump7_bid_from_two_browsers(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:
    host_ctx = browser.new_context(**DESKTOP)
    guest_ctx = browser.new_context(**PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors: list[str] = []
    for p in (host, guest):
        p.on("pageerror", lambda e: errors.append(str(e)))
    create_table(host, served.url, "Ann", "trump7-bid")
    link = host.input_value("#share-link")
    table = served.table()
    join(guest, link, "Bob", 2, touch=True)
    host.wait_for_function("() => state.seats[2].kind === 'human'")
    seat_bot(host, 1, "heuristic")
    seat_bot(host, 3, "random")
    pages = {0: host, 2: guest}
    chosen_played = 0
    shot = False
    while True:
        g = table.game
        assert g is not None
        at_rest(table)
        if g.over:
            break
        turn = g.turn
        st = in_step(pages[turn], table, turn)
        other = 2 - turn
        ost = in_step(pages[other], table, other)
        og = ost["game"]
        chosen = None
        if g.decision == 0 and og["hand"] and og["preselect"] is None:
            card = chosen = og["hand"][-1]
            loc = pages[other].locator(f"#hand .card[data-card='{card}']")
            loc.tap() if other == 2 else loc.click()
            pages[other].wait_for_selector(f"#hand .card.chosen[data-card='{card}']")
            if not shot and other == 2:
                shots(guest, "phone-trump7-chosen-in-advance")
                shot = True
        page = pages[turn]
        before = len(g.history)
        if st["game"]["decision"] == "bid" and turn == 2:
            shots(guest, "phone-trump7-bid")
        if st["game"]["decision"] == "bid":
            loc = page.locator("#bids button.bid-btn[data-bid='1']")
        else:
            loc = page.locator("#hand .card.playable").first
        loc.tap() if turn == 2 else loc.click()
        moved(table, before)
        after = in_step(pages[other], table, other)
        if chosen is not None and after["game"]["preselect"] is None:
            chosen_played += chosen not in after["game"]["hand"]
    final = in_step(host, table, 0)
    assert final["game"]["over"] and final["game"]["bids"][0] == 1
    assert final["game"]["bids"][2] == 1
    assert chosen_played >= 3, chosen_played
    assert not errors, errors
    replay_ok(served)
    host_ctx.close()
    guest_ctx.close()
