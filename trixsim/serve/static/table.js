// The web table: draws the state the server sends and sends the player's choices.
// The server decides everything; this page only shows a seat's view and asks for moves.
// The generic part (lobby, seats, connection, tap or drag, cards chosen in advance, the
// finished trick shown for a moment) is here; Trix's renderer is trix.js (the default), and
// another game's renderer (trump7.js) registers in window.TABLE_RENDERERS under its game's
// name. Both are loaded before this file.
"use strict";

// game name -> { cards, sortHand, drawGame, drawSeat, canChoose }
const RENDERERS = window.TABLE_RENDERERS || {};

const params = new URLSearchParams(location.search);
const PAUSE = params.has("pause") ? Number(params.get("pause")) : 1300;

const $ = (sel) => document.querySelector(sel);
const tableId = (location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/) || [])[1] || null;
const tokenKey = tableId ? `trixsim.seat.${tableId}` : null;

let ws = null;
let state = null;          // the latest state drawn
let queue = [];            // messages waiting for an animation to end
let busy = false;          // showing a finished trick
let shown = null;          // the state whose finished trick is shown
let pending = null;        // a card tapped while a finished trick is shown: played or chosen after
let fatal = false;
let retry = 500;
let specsFor = null;       // the game whose strategies the bot picker offers
let levels = [];           // that game's difficulty levels: {name, spec, about}, weakest first

// the renderer of the game being shown (Trix's unless the state names another game)
function renderer(msg = state) {
  const name = msg && msg.game_name;
  return (name && RENDERERS[name]) || null;
}

// ---- cards -------------------------------------------------------------------------

function cards() { const r = renderer(); return r ? r.cards : TRIX_CARDS; }  // trix.js
function cardName(c) { return cards().rank(c) + cards().suit(c); }
function isRed(c) { return cards().red(c); }

function cardEl(c, extra = "") {
  const k = cards();
  const el = document.createElement("div");
  el.className = `card ${k.red(c) ? "red" : "black"} ${extra}`.trim();
  el.dataset.card = String(c);
  el.setAttribute("aria-label", cardName(c));
  el.innerHTML = `<span class="r">${k.rank(c)}</span><span class="s">${k.suit(c)}</span>`;
  return el;
}

function backEl(label) {
  const el = document.createElement("div");
  el.className = "card back";
  if (label !== undefined) el.textContent = label;
  return el;
}

// hand order: ♥ ♣ ♦ ♠ (colours alternate), strongest first (another game: its own order)
function sortHand(hand, g) {
  const r = renderer();
  if (r) return r.sortHand(hand, g);
  return [...hand].sort((a, b) => (a >> 3) - (b >> 3) || (b & 7) - (a & 7));
}

// ---- connection --------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  ws.onopen = () => {
    retry = 500;
    $("#conn").hidden = true;
    send({ type: "hello", token: localStorage.getItem(tokenKey) });
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (fatal) return;
    $("#conn").hidden = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function receive(msg) {
  if (msg.type === "error") {
    toast(msg.message, true);
    if (msg.fatal) { fatal = true; showOnly("lobby"); }
    return;
  }
  if (msg.type === "notice") { toast(msg.message); return; }
  if (msg.type === "seated") {
    localStorage.setItem(tokenKey, msg.token);
    return;
  }
  if (msg.type === "last") { showLastTrick(msg); return; }
  if (msg.type === "state") { queue.push(msg); pump(); }
}

// states are drawn in order; a finished trick stays on the table for a moment first
function pump() {
  if (busy) return;
  while (queue.length) {
    const msg = queue.shift();
    const tricks = (msg.events || []).filter((e) => e.kind === "trick");
    if (PAUSE > 0 && tricks.length && msg.game && queue.length === 0) {
      busy = true;
      showTricks(msg, tricks, 0);
      return;
    }
    draw(msg);
  }
}

function showTricks(msg, tricks, k) {
  if (k >= tricks.length) {
    busy = false;
    shown = null;
    draw(msg);
    pump();
    if (!busy) takePending();
    return;
  }
  const t = tricks[k];
  shown = msg;
  drawInterim(msg, t);
  drawCenterTrick(msg.you, t.cards.map((c, i) => ({ seat: (t.leader + i) % 4, card: c })),
    t.winner);
  document.body.dataset.showing = "trick";
  setTimeout(() => { delete document.body.dataset.showing; showTricks(msg, tricks, k + 1); },
    PAUSE);
}

// ---- drawing -----------------------------------------------------------------------

function showOnly(section) {
  for (const id of ["lobby", "waiting", "game"]) $(`#${id}`).hidden = id !== section;
  $("#side").hidden = section !== "game" || !document.body.classList.contains("side-open")
    && window.innerWidth < 900;
  document.body.dataset.phase = section === "game" ? (state ? state.phase : "playing") : section;
}

// where each seat sits as the viewer sees the table (the boxes of index.html: data-pos)
const PLACES = ["you", "right", "across", "left"];

function seatName(s, you) {
  if (!state) return `Seat ${s}`;
  const info = state.seats[s];
  const name = info.kind === "open" ? "open" : info.name;
  if (s === you) return info.sub !== null && state.game ? `You (for ${name})` : `You (${name})`;
  return you === null || you === undefined ? name : `${PLACES[pos(s, you)]} · ${name}`;
}

// a seat's short name in the contract history: "you", "left", ...
function place(s, you) {
  return you === null || you === undefined ? `S${s}` : PLACES[pos(s, you)];
}

function pos(seat, you) { return (seat - (you ?? 0) + 4) % 4; }

function draw(msg) {
  state = msg;
  $(".brand").textContent = msg.game_name || "Trix";
  document.body.dataset.phase = msg.phase;
  if (msg.phase === "waiting" || msg.game === null) drawWaiting(msg);
  else drawGame(msg);
}

function drawWaiting(msg) {
  showOnly("waiting");
  document.body.dataset.phase = msg.phase;
  $("#share-link").value = `${location.origin}/t/${msg.table}`;
  const list = $("#seat-list");
  list.replaceChildren();
  const seated = msg.you !== null;
  const gameName = msg.game_name || "trix";
  $("#waiting").dataset.game = gameName;
  $("#waiting-game").textContent = gameName === "trix" ? "" : `Game: ${gameName}`;
  if (specsFor !== gameName) { specsFor = gameName; loadSpecs(); }
  for (const info of msg.seats) {
    const li = document.createElement("li");
    li.dataset.seat = String(info.seat);
    const label = document.createElement("span");
    label.className = "who";
    label.textContent = info.kind === "open" ? "open seat"
      : `${info.name}${info.kind === "bot" ? " (bot)" : ""}${info.seat === msg.you ? " — you" : ""}`;
    const where = seated && info.seat !== msg.you ? ` (${PLACES[pos(info.seat, msg.you)]})` : "";
    li.append(`Seat ${info.seat}${where}: `, label);
    if (info.kind === "open" && !seated && msg.phase === "waiting") {
      li.append(button("Sit here", () => send({ type: "sit", seat: info.seat,
        name: ($("#sit-name").value || localStorage.getItem("trixsim.name") || "") }), "sit-btn"));
    }
    if (!seated && msg.phase === "playing" && canSitIn(info)) {
      li.append(button(`Sit in for ${info.name}`, () => send({ type: "sit", seat: info.seat,
        name: ($("#sit-name").value || localStorage.getItem("trixsim.name") || "") }),
      "sit-btn sit-in-btn"));
    }
    if (info.kind === "human" && msg.phase === "playing") {
      label.textContent += info.online ? "" : info.sub !== null ? ` (away; ${info.sub} sits in)`
        : " (away)";
    }
    if (info.kind === "open" && msg.host) {
      const input = document.createElement("input");
      input.className = "spec";
      input.setAttribute("list", "specs");
      input.value = "heuristic";
      input.setAttribute("aria-label", `strategy for seat ${info.seat}`);
      if (levels.length) li.append(levelPicker(input, info.seat));
      li.append(input, button("Seat a bot", () => send({ type: "bot", seat: info.seat,
        spec: input.value }), "bot-btn"));
    }
    if (info.kind === "bot" && msg.host) {
      li.append(button("Remove", () => send({ type: "unseat", seat: info.seat }), "unseat-btn"));
    }
    list.append(li);
  }
  const playing = msg.phase === "playing";
  $("#waiting").querySelector("h2").textContent = playing ? "The game is on"
    : msg.phase === "over" ? "The game is over" : "Waiting for four players";
  $("#join-name").hidden = seated || msg.phase === "over"
    || (playing && !msg.seats.some(canSitIn));
  $("#waiting-hint").textContent = playing
    ? (msg.seats.some(canSitIn)
      ? "You may sit in for a player who is away; they get the seat back when they return."
      : "Every player is at the table. Keep this page open: a seat may free up.")
    : msg.phase === "over" ? "This table's game has ended."
    : msg.host ? "You are the host: seat bots in the open seats, or wait for friends to join by the link."
    : seated ? "Waiting for the other seats to fill." : "Pick an open seat.";
  $("#contract-info").textContent = playing ? "game in progress" : "waiting for players";
}

// a person's seat that a friend may take while they are away
function canSitIn(info) { return info.kind === "human" && !info.online && info.sub === null; }

function button(text, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

function drawGame(msg) {
  showOnly("game");
  const r = renderer(msg);
  if (r) r.drawGame(msg);
  else trixDrawGame(msg);
}

function drawCenterTrick(you, cards, winner) {
  const c = $("#center");
  c.replaceChildren();
  c.className = "trick";
  for (const { seat, card } of cards) {
    const el = cardEl(card, `slot p${pos(seat, you)}`);
    if (seat === winner) el.classList.add("winner");
    c.append(el);
  }
}

function para(text, cls = "") {
  const el = document.createElement("p");
  el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

function drawHand(msg, interim = false) {
  const g = msg.game, h = $("#hand");
  h.replaceChildren();
  const myTurn = !interim && g.turn === msg.you && !g.over
    && (g.decision === "play" || g.decision === "place");
  const chosen = interim && pending !== null ? pending : g.preselect;
  h.dataset.count = String(g.hand.length);
  for (const c of sortHand(g.hand, g)) {
    const el = cardEl(c);
    if (myTurn) el.classList.add(g.legal.includes(c) ? "playable" : "dim");
    if (chosen === c) el.classList.add("chosen");
    attachPointer(el, c);
    h.append(el);
  }
}

// while a finished trick is shown: the hand as it is now (the card played is gone), nothing
// playable and no "Your turn"; a tap then is kept for when the trick is cleared
function drawInterim(msg, t) {
  const you = msg.you;
  document.body.dataset.turn = "other";
  document.body.dataset.decision = "wait";
  for (const box of document.querySelectorAll(".seat-box")) {
    const r = renderer(msg);
    if (r) r.drawSeat(box, (Number(box.dataset.pos) + you) % 4, msg);
    else drawSeat(box, (Number(box.dataset.pos) + you) % 4, msg);
    box.classList.remove("turn");
  }
  if (t.contract_no === msg.game.contract_no) drawHand(msg, true);
  else $("#hand").replaceChildren();  // the contract's last trick: the next deal comes after
  const name = seatName(t.winner, you);
  const who = t.winner === you ? "You take"
    : `${name.charAt(0).toUpperCase()}${name.slice(1)} takes`;
  $("#prompt").replaceChildren(para(`${who} trick ${t.trick + 1}.`
    + " A card you tap now is played (or chosen) when the trick is cleared."));
  $("#pre-note").textContent = pending !== null
    ? `Chosen for after this trick: ${cardName(pending)} (tap it again to cancel)` : "";
}

// play (or choose in advance) the card tapped while a finished trick was shown
function takePending() {
  const c = pending;
  pending = null;
  if (c === null || !state || !state.game || !state.game.hand.includes(c)) return;
  choose(c);
}

// ---- playing: tap, drag onto the table, or choose in advance --------------------------

function choose(c) {
  if (!state || !state.game) return;
  if (busy) {  // a finished trick is shown: keep the tap for when it is cleared
    if (!shown || !shown.game.hand.includes(c)) return;
    pending = pending === c ? null : c;
    for (const el of document.querySelectorAll("#hand .card")) {
      el.classList.toggle("chosen", Number(el.dataset.card) === pending);
    }
    $("#pre-note").textContent = pending !== null
      ? `Chosen for after this trick: ${cardName(pending)} (tap it again to cancel)` : "";
    return;
  }
  const g = state.game;
  const myTurn = g.turn === state.you && (g.decision === "play" || g.decision === "place");
  const r = renderer();
  if (myTurn) {
    if (!g.legal.includes(c)) { toast(`${cardName(c)} is not allowed now.`, true); return; }
    send({ type: "act", action: c });
    playedNow(c);
  } else if ((r ? r.canChoose(g, state.you) : g.contract >= 0) && !g.over) {
    send({ type: "preselect", card: g.preselect === c ? null : c });
  }
}

// the card played leaves the hand at once (the server's next state confirms it)
function playedNow(c) {
  const el = document.querySelector(`#hand .card[data-card="${c}"]`);
  if (el) el.remove();
  for (const x of document.querySelectorAll("#hand .card")) {
    x.classList.remove("playable");
    x.classList.add("dim");
  }
  $("#hand").dataset.count = String(document.querySelectorAll("#hand .card").length);
}

function attachPointer(el, c) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - x0, e.clientY - y0) > 8) {
        ghost = el.cloneNode(true);
        ghost.classList.add("ghost");
        document.body.append(ghost);
        el.classList.add("lifted");
      }
      if (ghost) {
        ghost.style.left = `${e.clientX - ghost.offsetWidth / 2}px`;
        ghost.style.top = `${e.clientY - ghost.offsetHeight / 2}px`;
        $("#felt").classList.toggle("drop", overFelt(e));
      }
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      $("#felt").classList.remove("drop");
      el.classList.remove("lifted");
      if (ghost) {
        ghost.remove();
        if (e.type === "pointerup" && overFelt(e)) choose(c);
      } else if (e.type === "pointerup") {
        choose(c);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  });
}

function overFelt(e) {
  const r = $("#felt").getBoundingClientRect();
  return e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
}

// ---- the rest ----------------------------------------------------------------------

function showLastTrick(msg) {
  const body = $("#overlay-body");
  const where = renderer() ? "game" : "contract";
  body.replaceChildren(para(`Last trick (trick ${msg.trick.trick + 1}) — ${msg.looks_left} `
    + `look${msg.looks_left === 1 ? "" : "s"} left in this ${where}`));
  const row = document.createElement("div");
  row.className = "last-row";
  msg.trick.cards.forEach((c, i) => {
    const seat = (msg.trick.leader + i) % 4;
    const cell = document.createElement("div");
    cell.className = "last-cell";
    const el = cardEl(c);
    if (seat === msg.trick.winner) el.classList.add("winner");
    cell.append(el, para(seatName(seat, state ? state.you : null), "who"));
    row.append(cell);
  });
  body.append(row, para(msg.text, "hint"));
  $("#overlay").hidden = false;
}

let toastTimer = null;
function toast(text, bad = false) {
  const t = $("#toast");
  t.textContent = text;
  t.className = bad ? "bad" : "";
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

async function createTable(ev) {
  ev.preventDefault();
  const name = $("#create-name").value.trim();
  localStorage.setItem("trixsim.name", name);
  const game = $("#create-game").value || "trix";
  const listed = $("#create-listed").checked;
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, game, listed }) });
  const data = await r.json();
  if (!r.ok) { toast(data.error || "could not create a table", true); return; }
  localStorage.setItem(`trixsim.seat.${data.table}`, data.token);
  location.href = data.link + location.search;  // keeps options such as ?pause=0
}

// the lobby: the open tables of this server that chose to be listed
async function loadLobby() {
  try {
    const r = await fetch("/api/lobby");
    const data = await r.json();
    const list = $("#open-tables");
    list.replaceChildren(...data.tables.map((t) => {
      const li = document.createElement("li");
      li.dataset.table = t.table;
      const a = document.createElement("a");
      a.href = `/t/${t.table}${location.search}`;
      a.textContent = `${t.game} — ${t.free.length} free seat${t.free.length === 1 ? "" : "s"}`
        + ` (${t.free.map((s) => `seat ${s}`).join(", ")})`;
      li.append(a);
      return li;
    }));
    $("#no-tables").hidden = data.tables.length > 0;
  } catch (e) { /* the list is only a convenience */ }
}

async function loadGames() {
  try {
    const r = await fetch("/api/games");
    const data = await r.json();
    const sel = $("#create-game");
    const keep = sel.value;
    sel.replaceChildren(...data.games.map((g) => {
      const o = document.createElement("option");
      o.value = g;
      o.textContent = g;
      return o;
    }));
    if (data.games.includes(keep)) sel.value = keep;
  } catch (e) { /* trix stays offered */ }
}

// a choice of the game's levels that fills the strategy box beside it (which still takes
// any strategy the server seats)
function levelPicker(input, seat) {
  const pick = document.createElement("select");
  pick.className = "level";
  pick.setAttribute("aria-label", `level for seat ${seat}`);
  const first = document.createElement("option");
  first.value = "";
  first.textContent = "level…";
  pick.append(first, ...levels.map((l) => {
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = l.name;
    o.title = `${l.about} (${l.spec})`;
    return o;
  }));
  const hint = document.createElement("span");
  hint.className = "level-hint";
  pick.addEventListener("change", () => {
    const l = levels.find((x) => x.name === pick.value);
    if (l) input.value = l.name;
    hint.textContent = l ? `${l.about} (${l.spec})` : "";
  });
  const box = document.createElement("span");
  box.className = "level-box";
  box.append(pick, hint);
  return box;
}

async function loadSpecs() {
  try {
    const game = state && state.game_name ? state.game_name : "trix";
    const r = await fetch(`/api/strategies?game=${encodeURIComponent(game)}`);
    const data = await r.json();
    levels = data.levels || [];
    $("#specs").replaceChildren(...levels.map((l) => {
      const o = document.createElement("option");
      o.value = l.name;
      o.label = `${l.name}: ${l.about} (${l.spec})`;
      return o;
    }), ...data.strategies.map((s) => {
      const o = document.createElement("option");
      o.value = s;
      return o;
    }));
    if (state && state.phase === "waiting") drawWaiting(state);  // the seats gain level pickers
  } catch (e) { /* the list is only a convenience */ }
}

function start() {
  $("#overlay-close").addEventListener("click", () => { $("#overlay").hidden = true; });
  $("#last-btn").addEventListener("click", () => send({ type: "last" }));
  $("#copy-btn").addEventListener("click", () => {
    $("#share-link").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("#share-link").value).catch(() => {});
    toast("Link copied.");
  });
  $("#side-btn").addEventListener("click", () => {
    document.body.classList.toggle("side-open");
    if (state) showOnly(state.game ? "game" : "waiting");
  });
  $("#create-form").addEventListener("submit", createTable);
  $("#create-name").value = localStorage.getItem("trixsim.name") || "";
  $("#sit-name").value = localStorage.getItem("trixsim.name") || "";
  window.addEventListener("resize", () => { if (state && state.game) showOnly("game"); });
  if (!tableId) {
    showOnly("lobby");
    loadGames();
    loadLobby();
    setInterval(loadLobby, 5000);
    return;
  }
  connect();
}

start();
