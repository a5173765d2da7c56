// Trix's renderer for the web table (table.js is the generic part): the contract, the
// picker, the K♥ declaration, the trix stacks, totals, the contracts left and the history.
// Loaded before table.js; its functions use table.js's helpers ($, cardEl, seatName, ...)
// when they are called.
"use strict";

const RANKS = ["7", "8", "9", "J", "Q", "K", "10", "A"];
const SUITS = ["♥", "♣", "♦", "♠"];
const CONTRACTS = ["dineri", "damet", "pli", "farcha", "ray", "general", "trix"];
const PASS = 32;

const TRIX_CARDS = {
  rank: (c) => RANKS[c & 7],
  suit: (c) => SUITS[c >> 3],
  red: (c) => (c >> 3) === 0 || (c >> 3) === 2,
};

function trixDrawGame(msg) {
  const g = msg.game, you = msg.you;
  const myTurn = g.turn === you && !g.over;
  document.body.dataset.turn = myTurn ? "me" : "other";
  document.body.dataset.decision = myTurn ? g.decision : "wait";
  // header
  let info = `Contract ${g.contract_no + 1}/28 · `;
  if (g.contract < 0) info += `${seatName(g.picker, you)} picking`;
  else info += `${CONTRACTS[g.contract]} (picked by ${seatName(g.picker, you)}, pick ${g.pick})`;
  if (g.declared >= 0) info += ` · K♥ declared by ${seatName(g.declared, you)}`;
  if (g.over) info = "Game over";
  $("#contract-info").textContent = info;
  // seats
  for (const box of document.querySelectorAll(".seat-box")) {
    const s = (Number(box.dataset.pos) + you) % 4;
    drawSeat(box, s, msg);
  }
  // centre
  if (g.contract === 6) drawLayout(g.layout);
  else if (g.trick) drawCenterTrick(you, g.trick.cards, -1);
  else $("#center").replaceChildren();
  drawPrompt(msg);
  drawHand(msg);
  const lastBtn = $("#last-btn");
  lastBtn.textContent = `Last trick (${g.looks_left} left)`;
  lastBtn.hidden = g.contract === 6;  // trix has no tricks
  lastBtn.disabled = g.over || g.contract < 0 || g.contract === 6 || g.trick_no === 0
    || g.looks_left <= 0;
  $("#pre-note").textContent = g.preselect !== null && g.preselect !== undefined
    ? `Chosen in advance: ${cardName(g.preselect)} (tap it again to cancel)` : "";
  drawSide(msg);
}

function drawSeat(box, s, msg) {
  const g = msg.game, info = msg.seats[s];
  box.replaceChildren();
  box.dataset.seat = String(s);
  box.classList.toggle("turn", g.turn === s && !g.over);
  box.classList.toggle("away", !info.online && info.sub === null);  // a friend plays there
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
  if (g.picker === s) tag("picker", "picker");
  if (g.declared === s) tag("K♥ declared", "declared");
  if (g.passed.includes(s)) tag("passed", "passed");
  box.append(tags);
  const stats = document.createElement("div");
  stats.className = "stats";
  if (g.contract === 6) {
    stats.append(backEl(String(g.hand_sizes[s])));
    stats.append(" cards left");
  } else {
    const pile = backEl(String(g.tricks[s]));
    pile.classList.add("pile");
    pile.title = "tricks won (face down)";
    stats.append(pile, ` trick${g.tricks[s] === 1 ? "" : "s"} · ${g.hand_sizes[s]} in hand`);
  }
  if (g.points && g.contract >= 0 && g.contract !== 6) {
    const so = document.createElement("span");
    so.className = "so-far";
    so.title = "points taken so far in this contract";
    so.textContent = `${g.points[s]} so far`;
    stats.append(" · ", so);
  }
  box.append(stats);
}

// the four trix stacks, each drawn from its ace down to its 7 around the jack
function drawLayout(layout) {
  const c = $("#center");
  c.replaceChildren();
  c.className = "layout";
  for (let s = 0; s < 4; s++) {
    const col = document.createElement("div");
    col.className = "stack";
    col.dataset.suit = String(s);
    const placed = layout.filter((x) => (x >> 3) === s).sort((a, b) => (b & 7) - (a & 7));
    if (!placed.length) {
      const empty = document.createElement("div");
      empty.className = `card empty ${isRed(s * 8) ? "red" : "black"}`;
      empty.textContent = `J${SUITS[s]}`;
      col.append(empty);
    }
    for (const x of placed) col.append(cardEl(x));
    c.append(col);
  }
}

function drawPrompt(msg) {
  const g = msg.game, you = msg.you, p = $("#prompt");
  p.replaceChildren();
  if (g.over) {
    const low = Math.min(...g.totals), high = Math.max(...g.totals);
    const who = (v) => g.totals.map((t, s) => (t === v ? seatName(s, you) : null))
      .filter(Boolean).join(", ");
    p.append(para(`Game over. Winner${g.totals.filter((t) => t === low).length > 1 ? "s" : ""}`
      + ` (lowest total ${low}): ${who(low)}. Highest (${high}): ${who(high)}.`));
    if (g.saved) p.append(para("The game is saved as a record on the server."));
    return;
  }
  if (g.turn !== you) {
    const what = g.decision === "pick" ? "to pick a contract" : g.contract === 6
      ? "to place a card" : "to play";
    p.append(para(`Waiting for ${seatName(g.turn, you)} ${what}.`
      + (g.contract >= 0 && g.preselect === null ? " You may choose your next card now." : "")));
    return;
  }
  if (g.decision === "pick") {
    p.append(para(`Your pick ${g.pick} of 7: your points count ${g.pick === 7 ? "four times"
      : "double"} (trix is never multiplied). Pick a contract:`));
    const row = document.createElement("div");
    row.id = "pick";
    for (const a of g.left[you]) {
      const b = button(CONTRACTS[a], () => send({ type: "act", action: a }), "contract");
      b.dataset.contract = String(a);
      if (!g.legal.includes(a)) { b.disabled = true; b.title = g.why[String(a)] || ""; }
      row.append(b);
    }
    p.append(row);
    for (const [a, why] of Object.entries(g.why)) {
      p.append(para(`Not ${CONTRACTS[Number(a)]}: ${why}.`, "hint"));
    }
  } else if (g.decision === "declare") {
    p.append(para("You hold the K♥. Declared, it is worth 200 to whoever takes it; "
      + "you lose 50 if someone else does."));
    const row = document.createElement("div");
    row.append(button("Declare K♥", () => send({ type: "act", action: 1 }), "declare-yes"),
      button("Keep quiet", () => send({ type: "act", action: 0 }), "declare-no"));
    p.append(row);
  } else {
    p.append(para(g.contract === 6 ? "Your turn: place a card (tap it or drag it to the table)."
      : "Your turn: tap a card or drag it onto the table."));
  }
}

function drawSide(msg) {
  const g = msg.game, you = msg.you;
  const totals = $("#totals");
  totals.replaceChildren();
  for (let s = 0; s < 4; s++) {
    const tr = document.createElement("tr");
    const left = g.left[s].map((a) => CONTRACTS[a]).join(", ") || "none";
    tr.innerHTML = "<th></th><td class='num'></td><td class='left'></td>";
    tr.children[0].textContent = seatName(s, you);
    tr.children[1].textContent = String(g.totals[s]);
    tr.children[2].textContent = left;
    totals.append(tr);
  }
  const hist = $("#history");
  hist.replaceChildren();
  const head = document.createElement("tr");
  head.innerHTML = "<th>#</th><th>contract</th>" + [0, 1, 2, 3].map(() => "<th></th>").join("");
  [0, 1, 2, 3].forEach((s) => { head.children[2 + s].textContent = place(s, you); });
  hist.append(head);
  for (const h of g.history) {
    const tr = document.createElement("tr");
    tr.innerHTML = "<td></td><td></td>" + h.points.map(() => "<td class='num'></td>").join("");
    tr.children[0].textContent = String(h.no);
    tr.children[1].textContent = `${CONTRACTS[h.contract] || "?"} (${place(h.picker, you)})`;
    h.points.forEach((v, s) => { tr.children[2 + s].textContent = v > 0 ? `+${v}` : String(v); });
    hist.append(tr);
  }
  const log = $("#log");
  log.replaceChildren(...g.log.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  log.scrollTop = log.scrollHeight;
}
