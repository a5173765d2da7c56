// trump7's renderer for the web table (table.js is the generic part and Trix's renderer).
// It draws a trump7 seat's view as the server builds it (trixsim/games/trump7/view.py):
// the hand by suit with trumps apart, the turned trump card under the stock and its count,
// the trick, each seat's tricks, honours, bid and points, who drew the turned card, the
// bids with a picker that shows the score at stake. Cards: suit * 13 + rank, rank 0 = 2.
// It is loaded before table.js and uses its helpers ($, cardEl, seatName, ...) when drawing.
"use strict";

const T7_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const T7_SUITS = ["♣", "♦", "♥", "♠"];
const T7_SUIT_WORDS = ["clubs", "diamonds", "hearts", "spades"];

const T7 = {
  cards: {
    rank: (c) => T7_RANKS[c % 13],
    suit: (c) => T7_SUITS[Math.floor(c / 13)],
    red: (c) => Math.floor(c / 13) === 1 || Math.floor(c / 13) === 2,
  },

  // plain suits ♣ ♦ ♥ ♠ first, trumps last (apart); strongest first in each suit
  sortHand(hand, g) {
    const key = (c) => {
      const s = Math.floor(c / 13);
      return (s === g.trump ? 4 : s) * 13 + (12 - (c % 13));
    };
    return [...hand].sort((a, b) => key(a) - key(b));
  },

  canChoose(g, you) { return !(g.turn === you && g.decision === "bid"); },

  drawGame(msg) {
    const g = msg.game, you = msg.you;
    const myTurn = g.turn === you && !g.over;
    document.body.dataset.turn = myTurn ? "me" : "other";
    document.body.dataset.decision = myTurn ? g.decision : "wait";
    document.body.dataset.game = "trump7";
    let info = `trumps ${T7_SUITS[g.trump]} · trick ${Math.min(g.trick_no + 1, 13)}/13`
      + ` · stock ${g.stock_left}`;
    if (g.over) info = "game over";
    $("#contract-info").textContent = info;
    for (const box of document.querySelectorAll(".seat-box")) {
      T7.drawSeat(box, (Number(box.dataset.pos) + you) % 4, msg);
    }
    T7.drawCenter(msg);
    T7.drawPrompt(msg);
    T7.drawHand(msg);
    const lastBtn = $("#last-btn");
    lastBtn.hidden = false;
    lastBtn.textContent = `Last trick (${g.looks_left} left)`;
    lastBtn.disabled = g.over || g.trick_no === 0 || g.looks_left <= 0;
    $("#pre-note").textContent = g.preselect !== null && g.preselect !== undefined
      ? `Chosen in advance: ${cardName(g.preselect)} (tap it again to cancel)` : "";
    T7.drawSide(msg);
  },

  drawHand(msg) {
    const g = msg.game, h = $("#hand");
    h.replaceChildren();
    h.dataset.count = String(g.hand.length);
    const myTurn = g.turn === msg.you && !g.over && g.decision === "play";
    let lastSuit = null;
    for (const c of T7.sortHand(g.hand, g)) {
      const suit = Math.floor(c / 13);
      const el = cardEl(c);
      if (suit === g.trump) el.classList.add("trump");
      if (suit === g.trump && lastSuit !== null && lastSuit !== g.trump) el.classList.add("apart");
      lastSuit = suit;
      if (myTurn) el.classList.add(g.legal.includes(c) ? "playable" : "dim");
      if (g.preselect === c) el.classList.add("chosen");
      attachPointer(el, c);
      h.append(el);
    }
  },

  drawSeat(box, s, msg) {
    const g = msg.game, info = msg.seats[s];
    box.replaceChildren();
    box.dataset.seat = String(s);
    box.classList.toggle("turn", g.turn === s && !g.over);
    box.classList.toggle("away", !info.online && info.sub === null);
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = seatName(s, msg.you);
    box.append(name);
    const tags = document.createElement("div");
    tags.className = "tags";
    const tag = (text, cls) => {
      const t = document.createElement("span");
      t.className = `tag ${cls}`;
      t.textContent = text;
      tags.append(t);
    };
    if (info.kind === "bot") tag("bot", "bot");
    if (!info.online) {
      tag(info.sub !== null ? `${info.sub} sits in` : info.standin ? "away · bot plays" : "away",
        "away");
    }
    if (g.dealer === s) tag("dealer", "picker");
    if (g.turned_holder === s) tag(`drew ${cardName(g.turned)}`, "declared");
    if (g.bidding) tag(g.bids[s] >= 0 ? `bid ${g.bids[s]}` : "bid ?", "bid");
    box.append(tags);
    const stats = document.createElement("div");
    stats.className = "stats";
    const pile = backEl(String(g.tricks[s]));
    pile.classList.add("pile");
    pile.title = "tricks won";
    const item = (text, cls) => {
      const el = document.createElement("span");
      el.className = cls;
      el.textContent = text;
      return el;
    };
    stats.classList.add("t7");
    stats.append(pile, item(`trick${g.tricks[s] === 1 ? "" : "s"}`, "word"),
      item(`${g.hand_sizes[s]} in hand`, "word"),
      item(`${g.points[s]} pt${Math.abs(g.points[s]) === 1 ? "" : "s"}`, "pts"));
    box.append(stats);
    if (g.honour_cards[s].length) {
      const hon = document.createElement("div");
      hon.className = "honours";
      hon.title = "trump honours won (ace 5, jack 4, queen 3)";
      for (const c of g.honour_cards[s]) hon.append(cardEl(c, "mini"));
      hon.append(` +${g.honours[s]}`);
      box.append(hon);
    }
  },

  // the trick in the centre; the stock, the turned card under it, in the felt's corner
  drawCenter(msg) {
    const g = msg.game;
    drawCenterTrick(msg.you, g.trick.cards, -1);
    const old = document.getElementById("stock");
    if (old) old.remove();
    const stock = document.createElement("div");
    stock.className = "stock";
    stock.id = "stock";
    if (g.stock_left > 0) {
      const turned = cardEl(g.turned, "turned");
      turned.title = `the turned card: trumps are ${T7_SUIT_WORDS[g.trump]}`;
      stock.append(turned, backEl(String(g.stock_left)));
      stock.title = `${g.stock_left} cards in the stock, the turned card last`;
    } else {
      const t = document.createElement("div");
      t.className = "trump-badge";
      t.textContent = `trumps ${T7_SUITS[g.trump]}`;
      if (T7.cards.red(g.trump * 13)) t.classList.add("red");
      stock.append(t);
    }
    $("#felt").append(stock);
  },

  drawPrompt(msg) {
    const g = msg.game, you = msg.you, p = $("#prompt");
    p.replaceChildren();
    if (g.over) {
      const hi = Math.max(...g.points), lo = Math.min(...g.points);
      const who = (v) => g.points.map((t, s) => (t === v ? seatName(s, you) : null))
        .filter(Boolean).join(", ");
      p.append(para(hi === lo ? `Game over: all four have ${hi} points, a tie.`
        : `Game over. Most points (${hi}): ${who(hi)}. Fewest (${lo}): ${who(lo)}.`));
      if (g.saved) p.append(para("The game is saved as a record on the server."));
      return;
    }
    if (g.turn !== you) {
      const what = g.decision === "bid" ? "to bid" : "to play";
      p.append(para(`Waiting for ${seatName(g.turn, you)} ${what}.`
        + (g.preselect === null ? " You may choose your next card now." : "")));
      return;
    }
    if (g.decision === "bid") {
      p.append(para("Your bid: how many tricks will you win? Made: 2 points per trick bid, "
        + "1 per extra trick; short: -2 per trick missing."));
      const row = document.createElement("div");
      row.id = "bids";
      const stake = para("", "hint stake");
      for (const b of g.legal) {
        const btn = button("", () => send({ type: "act", action: b }), "bid-btn");
        btn.dataset.bid = String(b);
        btn.innerHTML = `<b>${b}</b><small>+${2 * b}</small>`;
        btn.title = g.stakes[String(b)] || "";
        const show = () => { stake.textContent = `Bid ${b}: ${g.stakes[String(b)] || ""}.`; };
        btn.addEventListener("mouseenter", show);
        btn.addEventListener("focus", show);
        row.append(btn);
      }
      stake.textContent = `Bid 1: ${g.stakes["1"] || ""}.`;
      p.append(row, stake);
      return;
    }
    p.append(para(g.trick.cards.length === 0 ? "Your lead: tap a card or drag it onto the table."
      : `Your turn: follow ${T7_SUIT_WORDS[Math.floor(g.trick.cards[0].card / 13)]} if you can `
        + "(tap a card or drag it onto the table)."));
  },

  drawSide(msg) {
    const g = msg.game, you = msg.you;
    $("#side-totals-title").textContent = "Points";
    const totals = $("#totals");
    totals.replaceChildren();
    const head = document.createElement("tr");
    head.innerHTML = "<th></th><th class='num'>tricks</th><th class='num'>honours</th>"
      + (g.bidding ? "<th class='num'>bid</th>" : "") + "<th class='num'>points</th>";
    totals.append(head);
    for (let s = 0; s < 4; s++) {
      const tr = document.createElement("tr");
      const cells = [g.tricks[s], g.honours[s], ...(g.bidding ? [g.bids[s] >= 0 ? g.bids[s] : "?"]
        : []), g.points[s]];
      tr.innerHTML = "<th></th>" + cells.map(() => "<td class='num'></td>").join("");
      tr.children[0].textContent = seatName(s, you);
      cells.forEach((v, k) => { tr.children[1 + k].textContent = String(v); });
      totals.append(tr);
    }
    $("#side-history-title").textContent = "The turned card";
    const hist = $("#history");
    hist.replaceChildren();
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.textContent = `${cardName(g.turned)}: trumps are ${T7_SUIT_WORDS[g.trump]}; `
      + (g.turned_holder >= 0 ? `drawn by ${seatName(g.turned_holder, you)}.`
        : `under the stock (${g.stock_left} cards left).`);
    tr.append(td);
    hist.append(tr);
    const log = $("#log");
    log.replaceChildren(...g.log.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    log.scrollTop = log.scrollHeight;
  },
};

window.TABLE_RENDERERS = window.TABLE_RENDERERS || {};
window.TABLE_RENDERERS.trump7 = T7;
window.TABLE_RENDERERS["trump7-bid"] = T7;
