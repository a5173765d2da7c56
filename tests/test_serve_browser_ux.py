"""The web table as a person sees it, in Chromium: a finished trick shown for a moment
(the card played already gone, nothing playable, a tap kept for afterwards), seats named
by where they sit, and no "Last trick" button in trix. Skipped where Chromium is missing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from test_serve_browser import (  # noqa: E402
    DESKTOP,
    Served,
    at_rest,
    browser,  # noqa: F401  (a fixture)
    in_step,
    moved,
    pytestmark,  # noqa: F401  (slow, optional, skipped without Chromium)
    seat_bot,
    served,  # noqa: F401  (a fixture)
    shots,  # noqa: F401  (a fixture)
)

from trixsim.games.trix.types import PLAY, PLI, TRIX  # noqa: E402
from trixsim.serve.wire import game_view  # noqa: E402

PAUSE_MS = 4000
"""How long the page shows a finished trick in the first test: long enough for the checks
on a loaded machine."""


def open_table(chromium: Any, server: Served, pause: int) -> tuple[Any, Any, list[str]]:
    """A desktop page at a new table with three "heuristic" bots; returns it, its context
    and the list its script errors go to."""
    ctx = chromium.new_context(**DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/?pause={pause}")
    page.fill("#create-name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#waiting:not([hidden])")
    for s in (1, 2, 3):
        seat_bot(page, s, "heuristic")
    return ctx, page, errors


def until(page: Any, table: Any, stop: Callable[[dict[str, Any]], bool],
          prefer: int) -> dict[str, Any]:
    """Play seat 0 simply (pick ``prefer`` when allowed, keep quiet about the K♥, play the
    first playable card) until ``stop`` holds for the page's state; returns that state."""
    for _ in range(400):
        st = in_step(page, table, 0)
        g = st["game"]
        assert not g["over"], "the game ended first"
        if stop(st):
            return st
        before = len(table.game.history)
        if g["decision"] == "pick":
            best = page.locator(f"#pick button.contract[data-contract='{prefer}']"
                                ":not([disabled])")
            (best if best.count() else
             page.locator("#pick button.contract:not([disabled])")).first.click()
        elif g["decision"] == "declare":
            page.click(".declare-no")
        else:
            page.locator("#hand .card.playable").first.click()
        moved(table, before)
    raise AssertionError("never reached the state wanted")


def test_a_finished_trick_shows_the_hand_without_the_card_and_keeps_a_tap(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:  # noqa: F811
    ctx, page, errors = open_table(browser, served, PAUSE_MS)
    table = served.table()
    st = until(page, table, lambda st: st["game"]["decision"] == "play", PLI)
    card = st["game"]["legal"][0]
    before = len(table.game.history)
    page.click(f"#hand .card.playable[data-card='{card}']")
    page.wait_for_function("() => document.body.dataset.showing === 'trick'", timeout=10000)
    seen = page.evaluate("""() => ({
        busy,
        hand: [...document.querySelectorAll('#hand .card')].map((e) => Number(e.dataset.card)),
        playable: document.querySelectorAll('#hand .card.playable').length,
        prompt: document.querySelector('#prompt').innerText,
        turn: document.body.dataset.turn })""")
    shots(page, "desktop-12-trick-shown")
    assert seen["busy"], seen
    assert card not in seen["hand"] and len(seen["hand"]) == len(st["game"]["hand"]) - 1, seen
    assert seen["playable"] == 0, seen
    assert "Your turn" not in seen["prompt"] and seen["turn"] == "other", seen
    # a tap while the trick is shown is kept, then played (or chosen) once it is cleared
    moved(table, before)
    at_rest(table)
    g = table.game
    mine = game_view(g, 0, 0, None)
    my_turn = g.turn == 0 and g.decision == PLAY
    nxt = mine["legal"][0] if my_turn else mine["hand"][0]
    after = len(g.history)
    page.click(f"#hand .card[data-card='{nxt}']")
    kept = page.evaluate(f"""() => ({{ busy, pending,
        chosen: document.querySelector("#hand .card[data-card='{nxt}']")
          .classList.contains('chosen'),
        note: document.querySelector('#pre-note').innerText }})""")
    assert kept["busy"], "the trick was cleared before the tap: the test machine is too slow"
    assert kept["pending"] == nxt and kept["chosen"] and "after this trick" in kept["note"], kept
    page.wait_for_function("() => !busy", timeout=PAUSE_MS * 3)
    if my_turn:
        moved(table, after)
        assert nxt not in game_view(table.game, 0, 0, None)["hand"]
    else:
        page.wait_for_function(f"() => state.game.preselect === {nxt} "
                               f"|| !state.game.hand.includes({nxt})", timeout=10000)
    assert not errors, errors
    ctx.close()


def test_seats_are_named_by_where_they_sit(
        browser: Any, served: Served, shots: Callable[[Any, str], None]) -> None:  # noqa: F811
    ctx, page, errors = open_table(browser, served, 0)
    table = served.table()
    in_step(page, table, 0)
    names = {page.locator(f".seat-box[data-pos='{p}'] .name").inner_text() for p in (1, 2, 3)}
    assert names == {"right · heuristic", "across · heuristic", "left · heuristic"}, names
    assert page.locator(".seat-box[data-pos='0'] .name").inner_text() == "You (Ann)"
    totals = page.locator("#totals th").all_inner_texts()
    assert len(set(totals)) == 4 and "left · heuristic" in totals, totals
    st = until(page, table, lambda st: len(st["game"]["log"]) >= 6, PLI)  # bots have acted
    assert not [line for line in st["game"]["log"] if re.search(r"\b[Ss]eat \d", line)], \
        st["game"]["log"]
    assert not [line for line in page.locator("#log li").all_inner_texts()
                if re.search(r"\b[Ss]eat \d", line)]
    shots(page, "desktop-13-seat-names")
    assert not errors, errors
    ctx.close()


def test_no_last_trick_button_in_trix(browser: Any, served: Served) -> None:  # noqa: F811
    ctx, page, errors = open_table(browser, served, 0)
    table = served.table()
    until(page, table, lambda st: st["game"]["decision"] == "play", TRIX)
    assert page.locator("#last-btn").is_visible()  # in a contract of tricks
    until(page, table, lambda st: st["game"]["contract"] == TRIX, TRIX)
    assert not page.locator("#last-btn").is_visible()  # trix has no tricks
    assert not errors, errors
    ctx.close()
