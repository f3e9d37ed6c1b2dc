// The table page: draws the live state pushed by the server and sends the players' actions.
// Every text a player typed is put on the page with textContent, never as HTML.
"use strict";

let table = null;          // the latest full state from the server
let lastSeq = -1;
let stream = null;
let lastHeard = 0;
let controlId = sessionStorage.getItem("controlId");
let message = null;        // {kind: "error"|"info", text}
const ui = {               // what this page is in the middle of (forms, open panels)
  setup: null, deal: null, manualRoll: null, correction: null, cards: null, rainbow: null,
  payoutStep: 0,
  corners: null, showQr: false, pin: null, cameraOpen: true, setupInfo: null, games: null,
  previewTry: 0,           // a new number opens the camera preview anew
  forceSetup: null,        // the game id on the table when "New game" was pressed: the form shows until another game is on
  starting: false,         // a new game was asked for and not yet answered
  screen: null,            // which screen was drawn last, to scroll to the top when it changes
  noticeKey: null, noticeAt: 0,
};
// Seats take these colours in turn: each far from the ones before it in hue and lightness, so
// blue never sits next to dark blue; white, purple and grey are the game's own dice.
const DEFAULT_COLOURS = ["red", "blue", "green", "yellow", "black", "orange", "pink", "darkblue"];
const MESSAGE_SECONDS = {info: 6, error: 12};  // long enough to read twice, short enough not to linger
const NOTICE_SECONDS = 15;                       // a camera problem stays while the player reacts to it

/** Show a message where the player is looking; it goes away by itself. */
function say(kind, text) {
  message = {kind, text};
  clearTimeout(ui.messageTimer);
  ui.messageTimer = setTimeout(() => { message = null; render(); }, MESSAGE_SECONDS[kind] * 1000);
}

// --- small DOM helpers ------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function button(label, onclick, cls, attrs) {
  return h("button", Object.assign({type: "button", class: cls || "btn", onclick, text: label}, attrs || {}));
}

function swatch(look, big) {
  return h("span", {class: `swatch c-${look.colour} pat-${look.pattern}${big ? " big" : ""}`,
    title: look.name, "aria-hidden": "true"});
}

/** An owner's swatch and name; `look` comes from ownerLook. */
function ownerTag(look) {
  return h("span", {class: "owner"}, swatch(look), h("span", {class: "owner-name", text: look.name}));
}

/** A die as it lies on the table; a player's die carries the player's pattern as their swatch does. */
function dieFace(pips, colour, extra, pattern) {
  const spots = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]}[pips] || [];
  const cells = [];
  for (let i = 0; i < 9; i++) cells.push(h("i", {class: spots.includes(i) ? "pip" : ""}));
  return h("span", {class: `die c-${colour || "white"} pat-${pattern || "solid"} ${extra || ""}`, role: "img", "aria-label": String(pips)}, cells);
}

// --- talking to the server --------------------------------------------------------------------

async function post(url, body) {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body), credentials: "same-origin"});
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), {why: data.why});
  return data;
}

async function act(action, fields) {
  try {
    await post("/api/action", Object.assign({action, base: table ? table.version : "none"}, fields || {}));
    message = null;
    return true;
  } catch (error) {
    say("error", `${t("refused")}: ${whyText(error.why, error.message)}`);
    render();
    return false;
  }
}

function connect() {
  if (stream) stream.close();
  setConnection("connecting");
  const source = new EventSource("/api/events");
  stream = source;
  source.onmessage = (event) => {
    lastHeard = Date.now();
    const msg = JSON.parse(event.data);
    const cameraWas = table && table.camera ? table.camera.state : null;
    const before = table && {version: table.version, game_id: table.game_id, controller: table.controller,
      log: table.game && table.game.log};
    if (msg.type === "full") {
      table = msg.state;
      lastSeq = msg.seq;
    } else if (msg.type === "patch") {
      if (table === null || msg.seq !== lastSeq + 1) { connect(); return; }  // missed a push
      Object.assign(table, msg.changes);
      lastSeq = msg.seq;
    }
    // The camera is back: open the preview anew (it ended, or showed "no camera", while lost).
    if (table.camera && table.camera.state === "ok" && cameraWas !== "ok") ui.previewTry += 1;
    setConnection("live");
    watchChanges(before);
    render();
  };
  source.addEventListener("ping", () => { lastHeard = Date.now(); });
  source.onerror = () => {
    setConnection("reconnecting");
    // A refused stream (the server serves as many as it can) is not retried by the browser.
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => { if (stream === source) connect(); }, retryDelay());
    }
  };
}

/** A few seconds, spread so that refused pages do not all come back at once. */
function retryDelay() {
  return 4000 + Math.random() * 4000;
}

function setConnection(state) {
  const el = document.getElementById("connection");
  if (!el) return;
  el.className = "badge conn-" + state;
  el.textContent = t(state);
}

// A tablet that slept may hold a dead stream without an error: reconnect when it wakes.
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && (Date.now() - lastHeard > 20000 || !stream || stream.readyState === 2)) connect();
  render();
});
setInterval(() => { if (!document.hidden && Date.now() - lastHeard > 40000) connect(); }, 5000);

// --- rendering --------------------------------------------------------------------------------

/** Say on every page what another tablet changed: an undo (naming what it took back), a redo,
 *  or control moving to another tablet. */
function watchChanges(before) {
  if (!before || before.version === undefined) return;
  if (table.pin_required && table.controller && before.controller !== table.controller && table.controller !== controlId) {
    say("info", t(before.controller && before.controller === controlId ? "control_lost" : "control_moved"));
  }
  const game = table.game;
  const notice = table.notice || {};
  if (!game || before.version === table.version || before.game_id !== table.game_id || !before.log) return;
  if (notice.event === "undo") {
    const last = game.log.length ? game.log[game.log.length - 1].step : 0;
    const undone = before.log.filter((e) => e.step > last && e.what !== "payout");
    if (undone.length) say("info", t("undone", {what: undone.map((e) => logText(game, e)).join("; ")}));
  } else if (notice.event === "redo") {
    const last = before.log.length ? before.log[before.log.length - 1].step : 0;
    const redone = game.log.filter((e) => e.step > last && e.what !== "payout");
    if (redone.length) say("info", t("redone", {what: redone.map((e) => logText(game, e)).join("; ")}));
  }
}

function canControl() {
  return table && (!table.pin_required || (controlId && table.controller === controlId));
}

function render() {
  if (!table) return;
  setLanguage(localStorage.getItem("lang") || table.language || "en");
  const focus = document.activeElement && document.activeElement.dataset.key;
  const root = document.getElementById("app");
  const screen = screenName();
  root.replaceChildren(topBar(), banner(), mainArea(screen));
  if (ui.sheet) { const sheet = sheetPanel(); if (sheet) root.append(sheet); }
  if (ui.menu) root.append(menuPanel());
  if (ui.showQr) root.append(qrDialog());
  if (ui.pin !== null) root.append(pinDialog());
  if (focus) {
    const el = root.querySelector(`[data-key="${focus}"]`);
    if (el) { el.focus(); if (el.setSelectionRange && el.value) el.setSelectionRange(el.value.length, el.value.length); }
  }
  setConnection(stream && stream.readyState === 1 ? "live" : "reconnecting");
  document.body.dataset.version = table.version;
  document.body.dataset.screen = screen;
  // A new screen starts at its top, where its heading says what it is.
  const key = `${screen}:${table.game_id}:${table.game ? table.game.round : 0}`;
  if (ui.screen !== null && ui.screen !== key) window.scrollTo(0, 0);
  ui.screen = key;
}

/** Which screen the page shows now: setup, payout, over, deal or play. */
function screenName() {
  const game = table.game;
  if (!game || (ui.forceSetup !== null && ui.forceSetup === table.game_id)) return "setup";
  if ((game.phase === "deal" || game.phase === "over") && game.payouts.length > payoutSeen()) return "payout";
  if (game.phase === "over") return "over";
  return game.phase === "deal" ? "deal" : "play";
}

function topBar() {
  const game = table.game;
  const status = game ? [h("span", {class: "round", text: t("round", game)}), phaseLine(game)] : [h("span", {text: t("new_game")})];
  const cam = table.camera || {state: "off"};
  const camText = t("cam_" + (cam.state === "ok" ? "ok" : cam.state === "lost" ? "lost" : cam.state === "starting" ? "starting" : "off"));
  // Small buttons with a sign and, where there is room, a word: a phone keeps one line for them.
  const small = (sign, word, onclick, attrs) => h("button", Object.assign({type: "button", class: "btn slim", onclick,
    title: word, "aria-label": word}, attrs), h("span", {"aria-hidden": "true", text: sign}), h("span", {class: "wide-only", text: word}));
  return h("header", {class: "top"},
    h("h1", {text: t("title")}),
    h("div", {class: "status"}, status),
    h("span", {class: "badges"},
      h("span", {id: "connection", class: "badge"}),
      h("span", {class: `badge cam-${cam.state}`, title: cam.message || "", text: camText})),
    h("span", {class: "top-buttons"},
      game ? small("↶", t("undo"), () => act("undo"), {disabled: !table.can_undo || !canControl() || null, "data-testid": "undo"}) : null,
      game ? small("↷", t("redo"), () => act("redo"), {disabled: !table.can_redo || !canControl() || null, "data-testid": "redo"}) : null,
      table.pin_required ? (canControl() ? h("span", {class: "badge control", text: t("controlling")})
        : button(t("take_control"), () => { ui.pin = ""; render(); }, "btn primary slim", {"data-testid": "control"})) : null,
      button(LANG === "de" ? "EN" : "DE", () => { localStorage.setItem("lang", LANG === "de" ? "en" : "de"); render(); }, "btn slim",
        {"data-testid": "language", title: t("language"), "aria-label": t("language")}),
      small("☰", t("menu"), () => { ui.menu = !ui.menu; render(); }, {"data-testid": "menu", "aria-expanded": ui.menu ? "true" : "false"})),
  );
}

function phaseLine(game) {
  const player = game.players[game.current] && ownerLook(game, game.current);
  const name = player ? player.name : "";
  const text = t("phase_" + game.phase, {name});
  const withOwner = ["roll", "choose", "cards", "tile"].includes(game.phase) && player;
  return h("span", {class: "phase", "data-testid": "phase"}, withOwner ? swatch(player, true) : null, h("strong", {text}));
}

function banner() {
  const notices = [];
  // What the last tap did shows where the player is looking, however far down the page they tapped.
  if (message) notices.push(h("div", {class: `banner toast ${message.kind}`, role: "alert", "data-testid": "message"}, message.text,
    button("×", () => { message = null; render(); }, "btn close")));
  if (table.camera && table.camera.state === "lost") {
    notices.push(h("div", {class: "banner warn", role: "status", text: `${t("cam_lost")} (${table.camera.message || ""})`}));
  }
  // Someone entered a wrong PIN: every page says so until the right PIN is entered.
  notices.push(botBanner());  // the computer's last move, for the real table to mirror (seats.js)
  if (table.pin_alert) notices.push(h("div", {class: "banner warn", role: "status", "data-testid": "pin-alert",
    text: t("pin_alert", {n: table.pin_alert.wrong, client: table.pin_alert.client})}));
  const noticeKey = JSON.stringify(table.notice);
  if (noticeKey !== ui.noticeKey) {
    ui.noticeKey = noticeKey;
    ui.noticeAt = Date.now();
    setTimeout(render, NOTICE_SECONDS * 1000 + 50);
  }
  if (table.notice && table.notice.problem && Date.now() - ui.noticeAt < NOTICE_SECONDS * 1000) {
    notices.push(h("div", {class: "banner warn", "data-testid": "notice", text: `${t("camera")}: ${table.notice.problem}`}));
  }
  return h("div", {class: "banners"}, notices);
}

function mainArea(screen) {
  const game = table.game;
  if (screen === "setup") {
    return h("main", {class: "setup-screen"}, setupPanel(), historyPanel(), cameraPanel(),
      game ? button(t("continue"), () => { ui.forceSetup = null; render(); }, "btn big") : null);
  }
  const lastPayout = game.payouts.length;
  if (screen === "payout") {
    return h("main", {class: "payout-screen"}, payoutPanel(game, game.payouts[lastPayout - 1]));
  }
  if (ui.tableMode) return tableModeView(game);
  if (screen === "over") return h("main", {class: "over-screen"}, gameOverPanel(game), historyPanel());
  return h("main", {class: "play"},
    h("section", {class: "board", "aria-label": "casinos"}, game.casinos.map((c) => casinoCard(game, c))),
    h("section", {class: "side"}, actionPanel(game), cameraPanel(), standingsPanel(game)));
}

// --- table mode: a tablet lying in the middle of the table ------------------------------------

/** Whose turn it is and each casino's leader and ties, large enough to read from every seat;
 *  the turn is written twice, once upside down for the far side of the table. */
function tableModeView(game) {
  const player = game.players[game.current] && ownerLook(game, game.current);
  const turn = () => h("div", {class: "tm-turn"}, player && !["deal", "payout", "over", "rainbow"].includes(game.phase) ? swatch(player, true) : null,
    h("strong", {text: game.phase === "over" && game.result
      ? t(game.result.winners.length > 1 ? "winners" : "winner", {names: game.result.seats.map((n) => ownerLook(game, n).name).join(" & ")})
      : t("phase_" + game.phase, {name: player ? player.name : ""})}));
  return h("main", {class: "table-mode", "data-testid": "table-mode"},
    h("div", {class: "tm-far"}, turn()),
    h("div", {class: "tm-casinos"}, game.casinos.map((c) => {
      const lead = c.leader !== null && c.leader !== undefined ? c.owners.find((o) => o.owner === c.leader) : null;
      const leader = lead && ownerLook(game, c.leader);
      return h("div", {class: "tm-casino", "data-testid": `tm-casino-${c.number}`},
        h("div", {class: "tm-head"}, c.slot ? h("strong", {text: t("slot_machine")}) : dieFace(c.number, "white"),
          h("span", {class: "tm-money", text: c.notes.map(note).join(" + ")})),
        lead ? h("div", {class: "tm-lead"}, swatch(leader, true), h("span", {text: `${leader.name} × ${countText(lead.dice, lead.biggies, game)}`}))
          : h("div", {class: "tm-none", text: c.owners.length ? "—" : t("no_dice")}),
        c.tied.map((group) => h("div", {class: "tm-tie", text: `${t("tied")}: ${group.map((o) => ownerLook(game, o).name).join(" = ")}`})));
    })),
    h("div", {class: "tm-near"}, turn()),
    button(t("table_exit"), () => { ui.tableMode = false; render(); }, "btn big", {"data-testid": "table-exit"}));
}

// --- casinos ----------------------------------------------------------------------------------

function casinoCard(game, casino) {
  const tied = new Set(casino.tied.flat());
  const title = casino.slot ? t("slot_machine") : t("casino", {n: casino.number});
  const rows = casino.owners.map((o) => h("li", {class: `owner-row${casino.leader === o.owner ? " leader" : ""}${tied.has(o.owner) ? " tied" : ""}`},
    ownerTag(ownerLook(game, o.owner)),
    h("span", {class: "count", text: `× ${countText(o.dice, o.biggies, game)}`}),
    casino.leader === o.owner ? h("span", {class: "tag lead", text: t("leads")}) : null,
    tied.has(o.owner) ? h("span", {class: "tag tie", text: t("tied")}) : null));
  return h("article", {class: "casino", "data-testid": `casino-${casino.number}`},
    h("header", {}, casino.slot ? null : dieFace(casino.number, "white", "small"), h("h2", {text: title})),
    h("div", {class: "notes"}, casino.notes.map((n) => h("span", {class: "note", text: note(n)})),
      casino.chip_cards.map((c) => h("span", {class: `chip chip-${c}`, text: c}))),
    casino.tile ? h("div", {class: "tile", text: `${casino.tile.name}${casino.tile.holder_seat != null ? " · " + ownerLook(game, casino.tile.holder_seat).name : ""}${
      casino.tile.closes ? " · " + t("closes", {n: casino.tile.closes}) : ""}`}) : null,
    rows.length ? h("ul", {class: "owners"}, rows) : h("p", {class: "empty", text: t("no_dice")}));
}

// --- the action panel, by phase ---------------------------------------------------------------

function actionPanel(game) {
  const viewer = !canControl();
  const panel = {deal: dealPanel, roll: rollPanel, choose: choosePanel, tile: tilePanel, cards: cardsPanel,
    rainbow: rainbowPanel, payout: payoutReadyPanel}[game.phase];
  return h("section", {class: `actions${viewer ? " viewer" : ""}`, "data-testid": "actions"},
    viewer ? h("p", {class: "viewer-note", text: t("viewer")}) : null,
    panel ? seatsPanel(game, panel) : null);  // a computer seat's turn, and hints (seats.js)
}

function dealPanel(game) {
  const count = game.casinos.length;
  if (!ui.deal || ui.deal.round !== game.round || ui.deal.version !== game.round + ":" + table.game_id) {
    ui.deal = {round: game.round, version: game.round + ":" + table.game_id, casinos: Array.from({length: count}, () => []),
      active: 0, chips: Array(count).fill(""), start: [], tiles: []};
  }
  const deal = ui.deal;
  const full = (notes) => game.notes_per_casino ? notes.length >= game.notes_per_casino
    : notes.reduce((a, n) => a + (n === 0 ? 40000 : n), 0) >= game.minimum;
  const rows = deal.casinos.map((notes, i) => noteRow(
    game.pairs_by_total ? t("pair_n", {n: i + 1}) : (i === 6 ? t("slot_machine") : t("casino", {n: i + 1})),
    notes, deal.active === i, () => { deal.active = i; }, {"data-testid": `deal-row-${i + 1}`},
    game.notes_per_casino ? null : h("small", {text: t("minimum", {m: money(game.minimum)})}),
    game.chip_cards ? chipSelect(deal, i) : null));
  const add = (value) => {
    const notes = deal.casinos[deal.active];
    notes.push(value);
    if (full(notes) && deal.active < count - 1) deal.active += 1;
    render();
  };
  const send = () => {
    const event = {type: "deal", casinos: deal.casinos, chip_cards: game.chip_cards ? deal.chips : [],
      neutral_start: deal.start, tiles: deal.tiles};
    act("event", {event}).then((ok) => { if (ok) ui.deal = null; });
  };
  return h("div", {class: "deal"},
    h("h2", {text: t("deal_title", {round: game.round})}),
    h("p", {text: game.pairs_by_total ? t("deal_pairs_help") : t("deal_help")}),
    rows,
    noteKeypad(game.deck, add),
    game.neutral_start ? startDicePicker(game, deal) : null,
    game.tiles ? tilePicker(game, deal) : null,
    h("div", {class: "row"},
      button(t("deal_confirm"), send, "btn primary big", {"data-testid": "deal-confirm"}),
      button(t("clear"), () => { ui.deal = null; render(); }, "btn"),
      button(t("deal_random"), () => act("simulate"), "btn", {"data-testid": "deal-random"})));
}

function noteRow(label, notes, active, activate, attrs, ...extras) {
  // One casino's notes being laid out: tap the row to fill it, tap a note to take it back.
  return h("div", Object.assign({class: `deal-row${active ? " active" : ""}`, onclick: () => { activate(); render(); }}, attrs || {}),
    h("strong", {text: label}),
    h("span", {class: "deal-notes"}, notes.map((n, k) => button(note(n), (e) => { e.stopPropagation(); notes.splice(k, 1); render(); }, "note"))),
    extras);
}

function noteKeypad(deck, add) {
  return h("div", {class: "keypad notes-pad"}, deck.map((v) => button(note(v), () => add(v), "btn big", {"data-testid": `note-${v}`})));
}

function chipSelect(deal, i) {
  const colours = ["", "pink", "gold", "green", "blue", "silver"];
  return h("select", {onchange: (e) => { deal.chips[i] = e.target.value; }, onclick: (e) => e.stopPropagation(), "aria-label": t("chip_card")},
    colours.map((c) => h("option", {value: c, selected: deal.chips[i] === c || null, text: c || "—"})));
}

function startDicePicker(game, deal) {
  return h("div", {class: "start-dice"}, h("h3", {text: t("start_dice")}),
    h("div", {class: "row"}, deal.start.map((v, k) => button(String(v), () => { deal.start.splice(k, 1); render(); }, "btn"))),
    deal.start.length < game.neutral_start ? h("div", {class: "keypad"}, [1, 2, 3, 4, 5, 6].map((v) =>
      button(String(v), () => { deal.start.push(v); render(); }, "btn big"))) : null);
}

function tilePicker(game, deal) {
  return h("div", {class: "tiles-pick"}, h("h3", {text: t("tiles_pick")}),
    h("div", {class: "row wrap"}, game.tile_faces.map((code) => button(code, () => {
      const k = deal.tiles.indexOf(code);
      if (k >= 0) deal.tiles.splice(k, 1); else if (deal.tiles.length < game.tiles) deal.tiles.push(code);
      render();
    }, deal.tiles.includes(code) ? "btn selected" : "btn"))));
}

function supplyText(player) {
  const parts = [];
  for (const kind of ["regular", "biggy", "neutral", "kickers"]) {
    if (player[kind]) parts.push(`${player[kind]} ${t("kind_" + kind)}`);
  }
  return parts.join(", ");
}

function rollPanel(game) {
  const player = game.players[game.current];
  const look = ownerLook(game, game.current);
  const powerPlays = game.choices.filter((c) => c.event.type === "power_play");
  return h("div", {class: "roll"},
    h("h2", {}, swatch(look, true), ` ${t("phase_roll", {name: look.name})}`),
    h("p", {text: `${t("you_roll")}: ${supplyText(player)}`}),
    table.table_check && !table.table_check.agrees ? checkPanel(game) : null,
    readingPanel(game),
    h("div", {class: "row wrap"},
      table.sim ? button(t("roll_sim"), () => act("sim_throw"), "btn primary big", {"data-testid": "sim-throw"}) : null,
      button(t("roll_hand"), () => { ui.manualRoll = {dice: []}; render(); }, "btn big", {"data-testid": "roll-hand"}),
      button(t("roll_random"), () => act("simulate"), "btn", {"data-testid": "roll-random"})),
    ui.manualRoll ? manualRollPad(player) : null,
    powerPlays.length ? h("div", {class: "row wrap"}, powerPlays.map((c) => button(
      t(c.event.big ? "power_play_big" : "power_play", {n: c.event.number}), () => act("event", {event: c.event}), "btn"))) : null);
}

function readingPanel(game) {
  const reading = table.reading;
  if (!reading || reading.applied) {
    return table.camera && table.camera.state === "ok" ? h("p", {class: "hint", text: t("reading_none")}) : null;
  }
  if (!ui.correction || ui.correction.version !== reading.version) {
    ui.correction = {version: reading.version, dice: reading.dice.map((d) => ({pips: d.pips || 1, kind: d.kind || "regular", problem: d.problem, why: d.why, colour: d.colour}))};
  }
  const kinds = ["regular", "biggy", "neutral", "kickers"];
  return h("div", {class: "reading flagged", "data-testid": "reading"},
    h("h3", {text: t("camera_read")}),
    h("p", {class: "warn", text: t("camera_flagged")}),
    reading.left_out ? h("p", {class: "hint", "data-testid": "reading-left-out", text: leftOutText(reading.left_out)}) : null,
    reading.problems.map((p, i) => h("p", {class: "problem", text: whyText((reading.whys || [])[i], p)})),
    h("ul", {class: "read-dice"}, ui.correction.dice.map((d, i) => h("li", {class: d.problem ? "bad" : ""},
      dieFace(d.pips, d.colour),
      h("select", {"aria-label": "pips", "data-key": `pips-${i}`, onchange: (e) => { d.pips = Number(e.target.value); render(); }},
        [1, 2, 3, 4, 5, 6].map((v) => h("option", {value: v, selected: d.pips === v || null, text: String(v)}))),
      h("select", {"aria-label": "kind", "data-key": `kind-${i}`, onchange: (e) => { d.kind = e.target.value; render(); }},
        kinds.map((k) => h("option", {value: k, selected: d.kind === k || null, text: t("kind_" + k)})),
        h("option", {value: "ignore", selected: d.kind === "ignore" || null, text: "✕"})),
      d.problem ? h("small", {text: whyText(d.why, d.problem)}) : null))),
    button(t("roll_apply"), () => act("roll", {dice: ui.correction.dice.filter((d) => d.kind !== "ignore"),
      kept: ui.correction.dice.map((d) => d.kind !== "ignore")}),
      "btn primary", {"data-testid": "reading-apply"}));
}

function manualRollPad(player) {
  const roll = ui.manualRoll;
  const kinds = ["regular", "biggy", "neutral", "kickers"].filter((k) => player[k]);
  if (!roll.kind || !kinds.includes(roll.kind)) roll.kind = kinds[0];
  const counts = (k) => roll.dice.filter((d) => d.kind === k).length;
  return h("div", {class: "manual-roll", "data-testid": "manual-roll"},
    h("div", {class: "row wrap"}, kinds.map((k) => button(`${t("kind_" + k)} ${counts(k)}/${player[k]}`,
      () => { roll.kind = k; render(); }, roll.kind === k ? "btn selected" : "btn"))),
    h("div", {class: "row wrap"}, roll.dice.map((d, i) => button("", () => { roll.dice.splice(i, 1); render(); }, "btn die-btn"))
      .map((b, i) => { b.append(dieFace(roll.dice[i].pips, roll.dice[i].kind === "neutral" ? "white" : roll.dice[i].kind === "kickers" ? "purple" : player.colour, "", ["neutral", "kickers"].includes(roll.dice[i].kind) ? "solid" : player.pattern)); return b; })),
    h("div", {class: "keypad"}, [1, 2, 3, 4, 5, 6].map((v) => button(String(v), () => {
      if (counts(roll.kind) < player[roll.kind]) roll.dice.push({pips: v, kind: roll.kind});
      const next = kinds.find((k) => counts(k) < player[k]);
      if (next) roll.kind = next;
      render();
    }, "btn big", {"data-testid": `pip-${v}`}))),
    h("div", {class: "row"},
      button(t("roll_apply"), () => act("roll", {dice: roll.dice}).then((ok) => { if (ok) ui.manualRoll = null; }), "btn primary big", {"data-testid": "manual-apply"}),
      button(t("cancel"), () => { ui.manualRoll = null; render(); }, "btn")));
}

function choiceLabel(game, c) {
  const ev = c.label;
  if (ev.type === "skip") return t("skip");
  const roll = game.roll;
  const g = (roll ? roll.groups.find((x) => x.number === ev.number) : null) || {regular: 0, biggy: 0, neutral: 0, kickers: 0};
  const placed = {number: ev.number, dice: g.regular, biggy: g.biggy, neutral: g.neutral, kickers: g.kickers};
  let text = `${placedText(placed)} → ${casinoText(ev.slot ? 7 : ev.number)}`;
  if (g.biggy) text += ` (${t("counts_n", {n: countText(g.regular + 2 * g.biggy, g.biggy, game)})})`;
  for (const k of ev.kicks || []) text += ", " + t("kick", {size: t(k.big ? "kick_biggy" : "kick_die"), name: ownerLook(game, k.owner).name});
  if (ev.chip) text += ", " + t("take_chip", {colour: ev.chip});
  return text;
}

/** How many dice that lay in the arena before the throw the camera's reading left out. */
function leftOutText(leftOut) {
  return leftOut === 1 ? t("left_out_one") : t("left_out_many", {count: leftOut});
}

/** What the camera's applied roll says: read by the camera, and how many dice it left out. */
function cameraApplied(leftOut) {
  return leftOut ? `${t("camera_applied")}; ${leftOutText(leftOut)}` : t("camera_applied");
}

function choosePanel(game) {
  const player = ownerLook(game, game.current);
  const groups = game.roll ? game.roll.groups : [];
  return h("div", {class: "choose"},
    h("h2", {}, swatch(player, true), ` ${t("phase_choose", {name: player.name})}`),
    h("div", {class: "groups"}, groups.map((g) => h("div", {class: "group"},
      h("span", {class: "dice"}, Array.from({length: g.regular}, () => dieFace(g.number, player.colour, "", player.pattern)),
        Array.from({length: g.biggy}, () => dieFace(g.number, player.colour, "biggy", player.pattern)),
        Array.from({length: g.neutral}, () => dieFace(g.number, "white")),
        Array.from({length: g.kickers}, () => dieFace(g.number, "purple")))))),
    table.reading && table.reading.applied ? h("p", {class: "hint", "data-testid": "camera-applied", text: cameraApplied(table.reading.left_out)}) : null,
    h("div", {class: "choices"}, game.choices.map((c, i) => withHint(game, button(choiceLabel(game, c), () => act("event", {event: c.event}).then((ok) => {
      if (ok && table.sim) act("sim_clear");
    }), "btn big choice", {"data-testid": `choice-${i}`}), c))),
    table.sim ? h("div", {class: "row wrap sim"}, groups.map((g) => button(t("take_off", {n: g.number}), () => act("sim_take", {pips: g.number}), "btn", {"data-testid": `take-${g.number}`}))) : null);
}

function tilePanel(game) {
  const pending = game.pending || {};
  const throwing = pending.ask === "extra dice";
  const shown = throwing ? [] : game.choices.slice(0, 48);
  return h("div", {class: "tile-decision"},
    h("h2", {text: t("phase_tile", {name: pending.seat !== undefined ? ownerLook(game, pending.seat).name : ""})}),
    h("p", {text: t("tile_help", {tile: pending.tile, ask: tOr("ask_" + (pending.ask || "").replace(/ /g, "_"), pending.ask)})}),
    throwing ? throwPicker(pending) : null,
    throwing || pending.by_chance ? button(t("tile_random"), () => act("simulate"), "btn", {"data-testid": "tile-random"}) : null,
    h("div", {class: "choices"}, shown.map((c, i) => button(describeChoice(c.event.choice), () => act("event", {event: c.event}), "btn",
      {"data-testid": `tile-choice-${i}`}))));
}

// The two extra dice as they fell, tapped in by hand; Prime Time's winner also marks the dice placed.
function throwPicker(pending) {
  if (!ui.extra || ui.extra.key !== table.version) ui.extra = {key: table.version, dice: [0, 0], place: [false, false]};
  const x = ui.extra;
  const ready = x.dice[0] && x.dice[1];
  const send = () => {
    const choice = {dice: x.dice};
    if (pending.marks_placed) choice.place = x.dice.filter((_, i) => x.place[i]);
    act("event", {event: {type: "tile", casino: pending.casino, choice}});
  };
  return h("div", {class: "extra-dice"},
    [0, 1].map((i) => h("div", {class: "row"}, h("span", {text: t("extra_die", {n: i + 1})}),
      [1, 2, 3, 4, 5, 6].map((n) => button(String(n), () => { x.dice[i] = n; render(); }, x.dice[i] === n ? "btn selected" : "btn",
        {"data-testid": `extra-${i}-${n}`})),
      pending.marks_placed ? h("label", {class: "check"}, h("input", {type: "checkbox", checked: x.place[i] || null,
        "data-testid": `extra-place-${i}`, onchange: (e) => { x.place[i] = e.target.checked; }}), t("extra_place")) : null)),
    button(t("extra_enter"), send, ready ? "btn primary" : "btn", {"data-testid": "extra-enter", disabled: ready ? null : ""}));
}

/** A tile decision in words ("the Biggy from casino 2"), not as data ("Biggy from: 2"). */
function describeChoice(choice) {
  const value = (v) => (v === true ? t("yes") : v === false ? t("no") : typeof v === "number" && v >= 10000 ? money(v)
    : typeof v === "string" ? tOr("tv_" + v, v) : String(v));
  const phrase = ([k, v]) => {
    const list = Array.isArray(v) ? v.map(value).join(", ") : value(v);
    if (typeof v === "boolean" && WORDS.en[`tp_${k}_${v}`]) return t(`tp_${k}_${v}`);
    if (WORDS.en["tp_" + k]) return t("tp_" + k, {v: list});
    return `${tOr("tk_" + k, k)}: ${list}`;
  };
  return Object.entries(choice || {}).map(phrase).join(", ") || t("choice");
}

function cardsPanel(game) {
  const player = ownerLook(game, game.current);
  if (!ui.cards || ui.cards.key !== table.version) ui.cards = {key: table.version, cards: [], number: 1};
  const cards = ui.cards;
  return h("div", {class: "cards"},
    h("h2", {}, swatch(player, true), ` ${t("phase_cards", {name: player.name})}`),
    h("p", {text: t("cards_help")}),
    h("div", {class: "row wrap"}, cards.cards.map((c, i) => button(`${c[0]} · ${t("card_dice", {d: c[1]})}`, () => { cards.cards.splice(i, 1); render(); }, "btn"))),
    h("div", {class: "keypad"}, [1, 2, 3, 4, 5, 6].map((n) => button(String(n), () => { cards.number = n; render(); }, cards.number === n ? "btn big selected" : "btn big"))),
    h("div", {class: "row"}, [1, 2].map((d) => button(`${t("add_card")}: ${cards.number} · ${t("card_dice", {d})}`, () => { cards.cards.push([cards.number, d]); render(); }, "btn"))),
    game.chip_cards ? cardChips(game, cards) : null,
    button(t("cards_confirm"), () => act("event", {event: {type: "cards", cards: cards.cards,
      chips: Object.entries(cards.chips || {}).filter(([, c]) => c).map(([n, c]) => [Number(n), c])}}),
      "btn primary big", {"data-testid": "cards-confirm"}),
    button(t("cards_random"), () => act("simulate"), "btn"));
}

function cardChips(game, cards) {
  // Two or more dice laid at one casino may take one of its chip cards.
  const dice = {};
  for (const [n, d] of cards.cards) dice[n] = (dice[n] || 0) + d;
  cards.chips = cards.chips || {};
  return h("div", {class: "row wrap"}, Object.entries(dice).filter(([n, d]) => d >= 2 && game.casinos[n - 1].chip_cards.length)
    .map(([n]) => h("label", {}, `${t("casino", {n})}: ${t("chip_card")} `,
      h("select", {onchange: (e) => { cards.chips[n] = e.target.value; }},
        ["", ...new Set(game.casinos[n - 1].chip_cards)].map((c) => h("option", {value: c, selected: cards.chips[n] === c || null, text: c || "—"}))))));
}

function rainbowPanel(game) {
  if (!ui.rainbow || ui.rainbow.key !== table.version) {
    ui.rainbow = {key: table.version, draws: game.casinos.map(() => []), active: game.rainbows[0] - 1};
  }
  const r = ui.rainbow;
  const send = () => act("event", {event: {type: "rainbow", draws: r.draws}});
  return h("div", {class: "rainbow"}, h("h2", {text: t("phase_rainbow")}),
    h("p", {text: t("rainbow_help", {list: (game.rainbows || []).join(", ")})}),
    game.rainbows.map((number) => noteRow(t("casino", {n: number}), r.draws[number - 1], r.active === number - 1,
      () => { r.active = number - 1; })),
    noteKeypad(game.deck, (v) => { r.draws[r.active].push(v); render(); }),
    h("div", {class: "row"},
      button(t("deal_confirm"), send, "btn primary big", {"data-testid": "rainbow-confirm"}),
      button(t("rainbow_random"), () => act("simulate"), "btn big", {"data-testid": "rainbow-random"})));
}

function payoutReadyPanel(game) {
  // Slot machine winners choose their note, in rank order; unchosen ranks take the highest left.
  const slot = game.casinos.find((c) => c.slot && c.ranking.length && c.notes.length > 1);
  ui.slotChoices = ui.slotChoices || [];
  const ranks = slot ? slot.ranking.slice(0, slot.notes.length) : [];
  const choices = () => ui.slotChoices.slice(0, ranks.length).filter((n) => n !== undefined && n !== "").map(Number);
  const check = table.table_check;
  const held = check && !check.payout_may_go_on;
  return h("div", {class: "payout-ready"}, h("h2", {text: t("phase_payout")}),
    checkPanel(game),
    ranks.map((owner, i) => h("label", {class: "row"}, `${t("slot_machine")} ${i + 1}. `,
      ownerTag(ownerLook(game, owner)),
      h("select", {onchange: (e) => { ui.slotChoices[i] = e.target.value; }},
        h("option", {value: "", text: "—"}), slot.notes.map((n) => h("option", {value: n, selected: String(ui.slotChoices[i]) === String(n) || null, text: note(n)}))))),
    button(t("pay_out", {round: game.round}), () => act("event", {event: {type: "payout", slot_choices: choices()}})
      .then((ok) => { if (ok) ui.slotChoices = []; }), "btn primary big", {"data-testid": "pay-out", disabled: held || null}));
}

// --- the round-end check of the casinos ------------------------------------------------------

/** What the camera found on the casinos at the round's end: "table checked", or, casino by
 *  casino, the crop of the photo, the counts on the table beside the game's, the differences
 *  and what they change at payout, with the correction or a new look to settle each. */
function checkPanel(game) {
  const check = table.table_check;
  const camera = table.sim || (table.camera && table.camera.state !== "off");
  const again = (label, cls) => button(label, () => act("check_table"), cls || "btn", {"data-testid": "check-table"});
  if (!check) return camera ? h("div", {class: "row wrap"}, again(t("check_table"))) : null;
  if (check.agrees) {
    return h("div", {class: "check-ok row wrap"}, h("p", {class: "checked", "data-testid": "table-checked", text: `✓ ${t("table_checked")}`}),
      again(t("check_again")));
  }
  // Dice not read for sure that change nothing at payout, whatever they are, do not hold it.
  return h("section", {class: check.payout_may_go_on ? "table-check doubt-only" : "table-check", "data-testid": "table-check"},
    h("h3", {text: t(check.payout_may_go_on ? "check_doubt_title" : "check_title")}),
    check.payout_may_go_on
      ? h("p", {class: "checked", "data-testid": "doubt-changes-nothing", text: `✓ ${t("check_doubt_changes_nothing")}`})
      : h("p", {class: "hint", text: t("check_help")}),
    check.photo ? null : h("p", {class: "hint", text: t("check_no_photo")}),
    h("div", {class: "check-casinos"}, check.casinos.filter((c) => !c.agrees).map((c) => checkCasino(game, check, c))),
    h("div", {class: "row wrap"},
      table.sim ? button(t("sim_fix_casinos"), () => act("sim_fix_casinos"), "btn", {"data-testid": "sim-fix"}) : null,
      again(t("check_again"), "btn primary")));
}

function checkCasino(game, check, c) {
  const where = casinoText(c.casino);
  // Counts that differ only by dice not read for sure are no difference: only the server's
  // sentences say what differs.
  const said = (c.difference_sentences || []).map((s, i) => checkText(s, c.differences[i]));
  const lines = said.map((d) => d.charAt(0).toUpperCase() + d.slice(1) + ".");
  // A Biggy the camera read nowhere may be one of its owner's dice read regular here.
  const biggies = c.biggy_doubts || [];
  const unsure = c.unsure - biggies.length;
  // An owner whose dice may be among those not read for sure has on the table what was read
  // for sure, and maybe more.
  const tableCount = (o) => o.table === null ? "?" : o.maybe_more ? `${o.table} + ?` : String(o.table);
  const differs = (o) => lines.length > 0 && o.table !== null && o.table !== o.game && !o.maybe_more;
  return h("article", {class: "check-casino", "data-testid": `check-casino-${c.casino}`},
    h("h4", {text: where}),
    h("div", {class: "check-body"},
    check.photo && c.box ? photoCrop(check, c.box, where) : null,
    h("div", {class: "check-words"},
    c.owners.length ? h("table", {class: "check-counts"},
      h("thead", {}, h("tr", {}, h("th"), h("th", {text: t("check_on_table")}), h("th", {text: t("check_in_game")}))),
      h("tbody", {}, c.owners.map((o) => h("tr", {class: differs(o) ? "differs" : null},
        h("td", {}, ownerTag(ownerLook(game, o.owner))), h("td", {text: tableCount(o)}), h("td", {text: String(o.game)}))))) : null,
    lines.map((text) => h("p", {class: "difference", "data-testid": "difference", text})),
    c.seen ? null : h("p", {class: "difference", text: t("check_not_seen")}),
    biggies.map((o) => h("p", {class: "difference", "data-testid": "biggy-doubt",
      text: t("check_biggy_doubt", {name: ownerLook(game, o.owner).name, colour: colourName(o.colour)})})),
    unsure > 0 ? h("p", {class: "difference", text: unsure === 1 ? t("check_unsure_one") : t("check_unsure", {n: unsure})}) : null,
    c.payout_changes ? payoutChange(c) : null,
    c.correction ? button(t("check_correct"), () => act("event", {event: c.correction}), "btn primary", {"data-testid": `correct-${c.casino}`}) : null)));
}

/** What a casino's differences change at payout. Where it hangs on how a die not read for sure
 *  is read, each reading and its change stand on a line of their own. */
function payoutChange(c) {
  const head = h("strong", {text: `${t("check_at_payout")}: `});
  const sentences = Array.isArray(c.payout_sentences) ? c.payout_sentences : [];
  const readings = sentences.filter((s) => s.key === "if_reading");
  if (!readings.length || checkSentences(sentences, null) === null) {
    return h("p", {class: "payout-change", "data-testid": "payout-change"}, head, checkSentences(sentences, c.payout_changes));
  }
  const rest = sentences.filter((s) => s.key !== "if_reading").map((s) => checkText(s)).join("; ");
  return h("div", {class: "payout-change", "data-testid": "payout-change"},
    h("p", {}, head, rest),
    h("ul", {class: "payout-readings", "data-testid": "payout-reading-list"},
      readings.map((s) => h("li", {"data-testid": "payout-reading", text: checkText(s)}))));
}

/** One casino's part of the round-end photo: the photo drawn as the box's background, scaled so
 *  the box fills it (style set through the DOM: the page allows no inline style attribute). */
function photoCrop(check, box, label) {
  const [x0, y0, x1, y1] = box;
  const [w, h0] = check.photo_size;
  const bw = Math.max(0.01, x1 - x0), bh = Math.max(0.01, y1 - y0);
  const crop = h("div", {class: "photo-crop", role: "img", "aria-label": label, "data-testid": "photo-crop"});
  crop.style.backgroundImage = `url("${check.photo}")`;
  crop.style.backgroundSize = `${100 / bw}% ${100 / bh}%`;
  crop.style.backgroundPosition = `${bw < 1 ? 100 * x0 / (1 - bw) : 0}% ${bh < 1 ? 100 * y0 / (1 - bh) : 0}%`;
  const aspect = (bw * w) / Math.max(1, bh * h0);
  crop.style.aspectRatio = `${bw * w} / ${bh * h0}`;
  crop.style.width = `min(100%, ${(12 * aspect).toFixed(2)}rem)`;  // a tall card at most 12rem high
  return crop;
}

/** A round's photo of the casinos, as the game file keeps it. */
function roundPhoto(round) {
  if (!table.photos || !table.photos.includes(round)) return null;
  return h("figure", {class: "round-photo"},
    h("img", {src: `/api/games/${table.game_id}/photos/${round}`, alt: t("round_photo", {round}), "data-testid": "round-photo"}),
    h("figcaption", {text: t("round_photo", {round})}));
}

// --- payout, step by step ---------------------------------------------------------------------

function payoutSeen() {
  return Number(localStorage.getItem(`payoutSeen:${table.game_id}`) || 0);
}

function setPayoutSeen(count) {
  localStorage.setItem(`payoutSeen:${table.game_id}`, String(count));
}

function payoutPanel(game, payout, review) {
  const casinos = payout.casinos;
  const step = review ? casinos.length : Math.min(ui.payoutStep, casinos.length);
  const shown = casinos.slice(0, Math.min(step + 1, casinos.length));
  const done = step >= casinos.length - 1;
  return h("section", {class: "payout", "data-testid": review ? "payout-review" : "payout"},
    h("h2", {text: t("payout_title", {round: payout.round})}),
    h("div", {class: "payout-casinos"}, shown.map((c) => payoutCasino(game, payout, c))),
    done ? roundPhoto(payout.round) : null,
    done && payout.tiles ? h("ul", {class: "tile-effects", "data-testid": "tile-effects"}, payout.tiles.map((e) => h("li", {
      text: t("tile_effect", {tile: e.tile, n: e.casino, name: ownerLook(game, e.seat).name, what: effectText(e)})}))) : null,
    review ? null : h("div", {class: "row wrap"},
      done ? null : button(t("next_casino"), () => { ui.payoutStep = step + 1; render(); }, "btn primary big", {"data-testid": "next-casino"}),
      done ? null : button(t("show_all"), () => { ui.payoutStep = casinos.length; render(); }, "btn", {"data-testid": "show-all"}),
      done ? button(t("continue"), () => { setPayoutSeen(game.payouts.length); ui.payoutStep = 0; render(); }, "btn primary big", {"data-testid": "payout-continue"}) : null),
    done && !review ? scorePanel(game) : null,
    done && !review ? standingsPanel(game) : null);
}

/** One casino's payout: every owner on one line with their count, and what that line takes or
 *  why it takes nothing; a tied line is struck through whole. */
function payoutCasino(game, payout, c) {
  const tiedAt = {};
  for (const g of c.tied) for (const o of g.seats) tiedAt[o] = g.dice;
  const awards = {};
  for (const a of c.awards) awards[a.seat] = a;
  const empty = new Set(c.empty_seats);
  const effects = (payout.tiles || []).filter((e) => String(e.casino) === String(c.casino));
  const neutral = (seat) => seat < 0;
  const line = (o) => {
    const a = awards[o.seat];
    const tied = o.seat in tiedAt;
    const outcome = tied ? h("span", {class: "why-not", text: t("tied_at", {d: tiedAt[o.seat]})})
      : a ? h("span", {class: "takes"}, h("span", {class: "rank", text: `${a.rank}.`}), h("span", {class: "note", text: note(a.note)}),
        neutral(o.seat) ? h("small", {class: "where", text: t("neutral_note_goes")}) : null)
      : empty.has(o.seat) ? h("span", {class: "why-not", text: t("no_note_left")}) : null;
    return h("li", {class: `pay-line${tied ? " struck" : ""}${a ? " paid" : ""}`, "data-testid": "pay-line"},
      h("span", {class: "who"}, ownerTag(ownerLook(game, o.seat))),
      h("span", {class: "count", text: `× ${countText(o.dice, o.biggies || 0, game)}${o.sum ? ` (Σ ${o.sum})` : ""}`}),
      outcome);
  };
  return h("article", {class: "payout-casino", "data-testid": `payout-casino-${c.casino}`},
    h("h3", {text: casinoText(c.casino)}),
    h("div", {class: "notes"}, c.notes.map((n) => h("span", {class: "note", text: note(n)}))),
    c.counts.length ? h("ul", {class: "pay-lines"}, c.counts.map(line)) : h("p", {class: "empty", text: t("no_dice")}),
    c.tied.map((g) => h("p", {class: "tie-line", "data-testid": "tie-line",
      text: t("tie_group", {names: g.seats.map((n) => ownerLook(game, n).name).join(" = "), d: g.dice})})),
    effects.map((e) => h("p", {class: "tile-line", "data-testid": "tile-line",
      text: t("tile_effect", {tile: e.tile, n: e.casino, name: ownerLook(game, e.seat).name, what: effectText(e)})})),
    c.leftover.length ? h("p", {class: "leftover", text: t(c.leftover_to === "out" ? "leftover_out" : "leftover_pile", {notes: c.leftover.map(note).join(", ")})}) : null);
}

/** Every round's payout again, one round at a time. */
function payoutReview(game) {
  const count = game.payouts.length;
  const round = Math.min(ui.reviewRound || count, count);
  return h("div", {class: "review"},
    h("div", {class: "row wrap"}, game.payouts.map((p, i) => button(t("round_short", {round: p.round}),
      () => { ui.reviewRound = i + 1; render(); }, i + 1 === round ? "btn selected" : "btn", {"data-testid": `review-round-${p.round}`}))),
    payoutPanel(game, game.payouts[round - 1], true));
}

/** Money per player per round and in total, large enough to read across the table. */
function scorePanel(game, printable) {
  const score = game.score;
  const order = game.players.map((p, i) => i).sort((a, b) => score.total[b] - score.total[a]);
  return h("section", {class: "score", "data-testid": "score"},
    h("h2", {text: t("score_table")}),
    h("div", {class: "score-scroll"}, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}), score.rounds.map((r) => h("th", {class: "num", text: t("round_short", {round: r.round})})),
        h("th", {class: "num", text: t("total")}))),
      h("tbody", {}, order.map((seat) => h("tr", {"data-testid": `score-${seat}`},
        h("td", {}, ownerTag(ownerLook(game, seat))),
        // In thousands, as players say it: a phone shows every round and the total side by side.
        score.rounds.map((r) => h("td", {class: "num", title: money(r.money[seat]), text: r.money[seat] ? `${Math.round(r.money[seat] / 1000)}k` : "–"})),
        h("td", {class: "num total", title: money(score.total[seat]), text: moneyShort(score.total[seat])})))))),
    printable ? button(t("print"), () => window.print(), "btn", {"data-testid": "print"}) : null);
}

/** The game's log, newest first: every move in words. */
function logPanel(game) {
  const entries = game.log.slice().reverse();
  return h("section", {class: "log", "data-testid": "log"}, h("h2", {text: t("game_log")}),
    h("ol", {class: "log-list", reversed: true}, entries.map((e) => h("li", {class: `log-${e.what}`, "data-testid": "log-entry"},
      h("small", {class: "log-round", text: t("round_short", {round: e.round})}), " ", logText(game, e)))));
}

function standingsPanel(game) {
  return h("section", {class: "standings", "data-testid": "standings"}, h("h2", {text: t("standings")}),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}), h("th", {text: t("money")}), h("th", {text: t("notes")}))),
      h("tbody", {}, game.standings.map((s) => h("tr", {},
        h("td", {}, ownerTag(ownerLook(game, s.owner))),
        h("td", {class: "num", text: money(s.money)}),
        h("td", {class: "notes-cell"}, s.notes.map((n) => h("span", {class: "note small", text: note(n)})),
          s.token_money ? h("small", {text: ` +${money(s.token_money)}`}) : null,
          s.chip_bonus ? h("small", {text: ` +${money(s.chip_bonus)}`}) : null,
          s.bank_money ? h("small", {text: ` ${money(s.bank_money)} ${t("bank")}`}) : null))))));
}

function gameOverPanel(game) {
  const result = game.result;
  const names = result.seats.map((n) => ownerLook(game, n).name).join(" & ");
  const why = {money: "why_money", notes: "why_notes", shared: "why_shared"}[result.reason];
  return h("section", {class: "over", "data-testid": "game-over"},
    h("h2", {text: t(result.winners.length > 1 ? "winners" : "winner", {names})}),
    h("p", {class: "why", text: t(why)}),
    result.tied_on_money ? h("ul", {}, result.tied_on_money.map((r) => h("li", {text: `${ownerLook(game, r.seat).name}: ${t("notes")} ${r.notes}`}))) : null,
    h("div", {class: "row wrap"},
      button(t("rematch"), () => rematch(game), "btn primary big", {"data-testid": "rematch"}),
      button(t("new_game"), () => { ui.setup = null; ui.forceSetup = table.game_id; render(); }, "btn big", {"data-testid": "new-game"})),
    scorePanel(game, true),
    standingsPanel(game),
    h("div", {class: "row wrap"},
      h("a", {class: "btn big", href: `/api/games/${table.game_id}/record`, download: "", text: t("download")}),
      button(t("game_log"), () => { ui.sheet = "log"; render(); }, "btn big", {"data-testid": "over-log"}),
      button(t("payouts"), () => { ui.sheet = "payouts"; ui.reviewRound = game.payouts.length; render(); }, "btn big")));
}

// --- the game log -----------------------------------------------------------------------------

/** Name, colour and pattern of an owner of dice by number (a player's seat or an imaginary
 *  owner): the one lookup for every owner the page draws. It is built once per state and
 *  language from `game.owners`; an imaginary owner's name is a word of the page's language. */
const OWNER_LOOKS = new WeakMap();
function ownerLook(game, owner) {
  let looks = OWNER_LOOKS.get(game);
  if (!looks || looks.lang !== LANG) {
    looks = {lang: LANG, byNumber: {}};
    for (const [n, o] of Object.entries(game.owners)) {
      looks.byNumber[n] = {owner: o.owner, name: o.owner < 0 ? imaginaryOwner(o.name) : o.name, colour: o.colour, pattern: o.pattern};
    }
    OWNER_LOOKS.set(game, looks);
  }
  return looks.byNumber[String(owner)] || {owner, name: String(owner), colour: "grey", pattern: "solid"};
}

/** How dice count at a casino, the same words everywhere: "5 = 3 dice + Biggy". In the card
 *  game a big die stands for a card with two dice, never a Biggy. */
function countText(counted, biggies, game) {
  if (!biggies) return String(counted);
  const dice = counted - 2 * biggies;
  const cards = game && game.edition === "cards";
  const big = biggies === 1 ? t(cards ? "two_dice_card" : "kind_biggy") : `${biggies} ${t(cards ? "two_dice_cards" : "many_biggy")}`;
  return dice ? `${counted} = ${dice} ${t(dice === 1 ? "one_regular" : "many_regular")} + ${big}` : `${counted} = ${big}`;
}

/** What a placement puts down: "3 × 6", "2 × 6 + Biggy", "2 × 6 + 1 white". */
function placedText(e) {
  const parts = [];
  if (e.dice || (!e.biggy && !e.neutral && !e.kickers)) parts.push(`${e.dice} × ${e.number}`);
  const alone = e.dice ? "" : ` ${e.number}`;
  if (e.biggy) parts.push(e.biggy === 1 ? `${t("kind_biggy")}${alone}` : `${e.biggy} ${t("many_biggy")}${alone}`);
  if (e.neutral) parts.push(`${e.neutral} ${t("kind_neutral")}`);
  if (e.kickers) parts.push(`${e.kickers} ${t("kind_kickers")}`);
  return parts.join(" + ");
}

function casinoText(n) {
  return n === 7 || n === "slot" ? t("slot_machine") : t("casino", {n});
}

/** One entry of the game's log (built by the server) in the page's language. */
function logText(game, e) {
  const name = e.seat !== undefined ? ownerLook(game, e.seat).name : e.owner !== undefined ? ownerLook(game, e.owner).name : "";
  switch (e.what) {
    case "deal": return t("log_deal", {round: e.round});
    case "roll": return t("log_roll", {name, values: e.values.join(" ")});
    case "place": {
      let text = t("log_place", {name, what: placedText(e), where: casinoText(e.casino)});
      if (e.biggy) text += ` (${t("counts_n", {n: countText(e.counted, e.biggy, game)})})`;
      for (const k of e.kicks || []) text += ", " + t("kick", {size: t(k.big ? "kick_biggy" : "kick_die"), name: ownerLook(game, k.owner).name});
      return text;
    }
    case "skip": return t("log_skip", {name});
    case "cards": return t("log_cards", {name, cards: e.cards.map(([n, d]) => `${n} · ${t("card_dice", {d})}`).join(", ")});
    case "power_play": return t("log_power_play", {name, n: e.number});
    case "tile": return t("log_tile", {name, tile: e.tile, where: casinoText(e.casino), what: describeChoice(e.choice)});
    case "rainbow": return t("log_rainbow", {notes: e.notes.map(note).join(", ")});
    case "correct": return t("log_correct", {where: casinoText(e.casino), n: e.dice});
    case "payout": return t("log_payout", {round: e.round});
    case "tie": return t("log_tie", {names: e.owners.map((o) => ownerLook(game, o).name).join(", "), d: e.dice, where: casinoText(e.casino)});
    case "award": return t("log_award", {name, note: note(e.note), where: casinoText(e.casino)});
    case "tile_effect": return t("tile_effect", {tile: e.tile, n: e.casino, name, what: effectText(e)});
    case "over": return t(e.winners.length > 1 ? "winners" : "winner", {names: e.winners.map((o) => ownerLook(game, o).name).join(" & ")});
    default: return e.what;
  }
}

function effectText(e) {
  return [e.money ? (e.money < 0 ? "−" : "+") + money(Math.abs(e.money)) : "", e.chips ? t("chips_n", {n: e.chips}) : ""]
    .filter(Boolean).join(" ") || "—";
}

// --- new game, history ------------------------------------------------------------------------

function setupPanel() {
  if (!ui.setupInfo) { fetch("/api/setup").then((r) => r.json()).then((d) => { ui.setupInfo = d; render(); }); return h("p", {text: "…"}); }
  const info = ui.setupInfo;
  if (!ui.setup) ui.setup = {edition: "classic", options: {}, players: [{name: "", colour: DEFAULT_COLOURS[0]}, {name: "", colour: DEFAULT_COLOURS[1]}], start: 0};
  const s = ui.setup;
  const specs = info.editions[s.edition];
  const optionInput = (spec) => {
    const value = s.options[spec.name] ?? spec.default;
    const id = "opt-" + spec.name;
    if (spec.type === "bool") {
      return h("label", {class: "check", for: id}, h("input", {type: "checkbox", id, checked: value || null,
        onchange: (e) => { s.options[spec.name] = e.target.checked; }}), t("opt_" + spec.name));
    }
    if (spec.type === "str" && !spec.choices) {
      return h("label", {for: id}, t("opt_" + spec.name), h("input", {type: "text", id, value, "data-key": id,
        oninput: (e) => { s.options[spec.name] = e.target.value; }}));
    }
    if (spec.choices) {
      return h("label", {for: id}, t("opt_" + spec.name), h("select", {id, onchange: (e) => { s.options[spec.name] = e.target.value; }},
        spec.choices.map((c) => h("option", {value: c, selected: value === c || null, text: t("val_" + c)}))));
    }
    return h("label", {for: id}, t("opt_" + spec.name), h("input", {type: "number", id, min: spec.min, max: spec.max, value,
      "data-key": id, oninput: (e) => { s.options[spec.name] = Number(e.target.value); }}));
  };
  const start = () => {
    if (ui.starting) return;  // a second tap while the first is on its way would start a second game
    const players = s.players.map((p, i) => ({name: p.name.trim() || t("player_n", {n: i + 1}), colour: p.colour}));
    ui.starting = true;
    render();
    act("new_game", Object.assign({edition: s.edition, options: s.options, players, start_player: s.start}, seatFields(s)))
      .then((ok) => { ui.starting = false; if (ok) { ui.forceSetup = null; ui.payoutStep = 0; } render(); });
  };
  return h("section", {class: "setup", "data-testid": "setup"},
    h("h2", {text: t("new_game")}),
    h("label", {for: "edition"}, t("edition"), h("select", {id: "edition", "data-testid": "edition",
      onchange: (e) => { s.edition = e.target.value; s.options = {}; render(); }},
      Object.keys(info.editions).map((ed) => h("option", {value: ed, selected: s.edition === ed || null, text: t("ed_" + ed)})))),
    specs.length ? h("fieldset", {}, h("legend", {text: t("options")}), specs.map(optionInput)) : null,
    rosterPicker(s, info),
    rosterNames(),
    h("fieldset", {class: "players"}, h("legend", {text: t("players")}),
      s.players.map((p, i) => h("div", {class: "player-row"},
        swatch({colour: p.colour, pattern: info.patterns[i % info.patterns.length], name: p.name}, true),
        h("input", {type: "text", maxlength: 24, value: p.name, placeholder: `${t("name")} ${i + 1}`, "data-key": `name-${i}`,
          "data-testid": `player-name-${i}`, list: "roster-names", oninput: (e) => { p.name = e.target.value; },
          onchange: () => { if (usualColour(s, i, info)) render(); }}),
        h("select", {"aria-label": t("colour"), "data-testid": `player-colour-${i}`, onchange: (e) => { p.colour = e.target.value; render(); }},
          info.colours.map((c) => h("option", {value: c, selected: p.colour === c || null, text: colourName(c)}))),
        h("label", {class: "check"}, h("input", {type: "radio", name: "start", checked: s.start === i || null,
          onchange: () => { s.start = i; }}), t("start_player")),
        seatKindSelect(p, i),
        s.players.length > 2 ? button(t("remove"), () => { s.players.splice(i, 1); s.start = 0; render(); }, "btn") : null)),
      s.players.length < 8 ? button(t("add_player"), () => {
        const used = new Set(s.players.map((p) => p.colour));
        s.players.push({name: "", colour: DEFAULT_COLOURS.find((c) => !used.has(c) && info.colours.includes(c)) || "grey"});
        render();
      }, "btn", {"data-testid": "add-player"}) : null),
    hintsSwitch(s),
    button(t("start"), start, "btn primary big", {"data-testid": "start-game", disabled: ui.starting || null}));
}

/** Players who played before, with their usual colour: one tap puts them in the next free seat. */
function rosterPicker(s, info) {
  if (!ui.results) ui.results = {games: [], players: [], roster: []};
  // A form opened anew asks for the roster anew: another tablet may have changed it.
  if (ui.rosterFor !== s) { ui.rosterFor = s; refreshResults(); }
  const seated = new Set(s.players.map((p) => p.name.trim()));
  const known = ui.results.roster.filter((r) => !seated.has(r.name)).slice(0, 12);
  const seat = (r) => {
    let i = s.players.findIndex((p) => !p.name.trim());
    if (i < 0) {
      if (s.players.length >= 8) return;
      s.players.push({name: "", colour: "grey"});
      i = s.players.length - 1;
    }
    const taken = new Set(s.players.filter((_, k) => k !== i).map((p) => p.colour));
    const colour = !taken.has(r.colour) && info.colours.includes(r.colour) ? r.colour : s.players[i].colour;
    s.players[i] = {name: r.name, colour};
    render();
  };
  return h("div", {class: "roster", "data-testid": "roster"}, known.length ? h("span", {class: "hint", text: t("roster")}) : null,
    known.map((r) => h("button", {type: "button", class: "btn slim", onclick: () => seat(r), "data-testid": `roster-${r.name}`},
      swatch({colour: r.colour, pattern: "solid", name: r.name}), r.name)),
    button(t("roster_edit"), () => { openRoster(); render(); }, "btn slim", {"data-testid": "roster-open"}));
}

function historyPanel() {
  if (ui.games === null) { ui.games = []; refreshGames(); }
  const importFile = (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const form = new FormData();
    form.append("record", file);
    fetch("/api/games/import", {method: "POST", body: form, credentials: "same-origin"}).then(async (r) => {
      const data = await r.json();
      if (r.ok) say("info", `${t("import")}: #${data.game_id}`); else say("error", `${t("refused")}: ${data.error}`);
      refreshGames();
    });
  };
  const outcome = (g) => {
    const r = ui.results && ui.results.games.find((x) => x.game_id === g.game_id);
    if (!r) return null;
    const money = r.players.map((name, i) => `${name} ${moneyShort(r.money[i])}`).join(" · ");
    return h("span", {class: "outcome", "data-testid": `outcome-${g.game_id}`},
      r.winners.length ? h("strong", {text: `🏆 ${r.winners.join(" & ")}`}) : h("em", {text: t("round_of", {round: r.round})}),
      h("span", {text: money}));
  };
  return h("section", {class: "history", "data-testid": "history"}, h("h2", {text: t("history")}),
    ui.games.length ? h("ul", {}, ui.games.map((g) => h("li", {},
      h("span", {text: `#${g.game_id} · ${g.created.slice(0, 16).replace("T", " ")} · ${t("ed_" + g.edition)} · ${t(g.finished ? "finished" : abandoned(g) ? "abandoned" : "in_progress")}`}),
      outcome(g) || h("span", {text: g.players.join(", ")}),
      button(t("open"), () => act("open_game", {game_id: g.game_id}).then((ok) => { if (ok) { ui.forceSetup = null; render(); } }), "btn"),
      h("a", {class: "btn", href: `/api/games/${g.game_id}/record`, download: "", text: t("download")})))) : h("p", {text: t("no_games")}),
    h("label", {class: "btn"}, t("import"), h("input", {type: "file", accept: "application/json,.json", class: "hidden", onchange: importFile, "data-testid": "import-file"})));
}

// Lists fetched in the background redraw the page only when they changed: every redraw
// replaces what a player may be about to tap.
function refreshGames() {
  fetch("/api/games").then((r) => r.json()).then((games) => {
    const changed = JSON.stringify(games) !== JSON.stringify(ui.games);
    ui.games = games;
    if (changed) render();
  });
  refreshResults();
}

function abandoned(g) {
  const r = ui.results && ui.results.games.find((x) => x.game_id === g.game_id);
  return Boolean(r && r.abandoned);
}

function refreshResults() {
  if (ui.resultsPending) return;
  ui.resultsPending = true;
  fetch("/api/results").then((r) => r.json()).then((data) => {
    ui.resultsPending = false;
    const changed = JSON.stringify(data) !== JSON.stringify(ui.results);
    ui.results = data;
    if (changed) render();
  }).catch(() => { ui.resultsPending = false; });
}

/** Money in thousands, short enough for a list: "$70k", "70k $". */
function moneyShort(amount) {
  if (!amount) return money(0);
  const k = Math.round(amount / 1000);
  return LANG === "de" ? `${k}k $` : `$${k}k`;
}

/** Every player's games, wins, average and best money and notes won per casino. */
function statsPanel() {
  if (!ui.results) { ui.results = {games: [], players: [], roster: []}; refreshResults(); }
  const rows = ui.results.players;
  // One card per player: it wraps on a phone where a table of six columns would not fit.
  const fact = (label, value) => h("span", {class: "fact"}, h("small", {text: label}), h("strong", {text: value}));
  return h("section", {class: "stats", "data-testid": "stats"}, h("h2", {text: t("stats")}),
    rows.length ? h("div", {class: "stat-cards"}, rows.map((r) => h("article", {class: "stat-card", "data-testid": `stats-${r.name}`},
      h("h3", {text: r.name}),
      h("div", {class: "facts"}, fact(t("games"), String(r.games)), fact(t("wins"), String(r.wins)),
        fact(t("average"), money(r.average)), fact(t("best"), money(r.best))),
      h("p", {class: "small"}, h("small", {text: `${t("notes_per_casino")}: `}),
        Object.entries(r.notes).map(([c, n]) => `${casinoText(Number(c))} × ${n}`).join(" · ") || "—"))))
      : h("p", {text: t("no_stats")}));
}

// --- the roster: players the table knows, with their usual colours ----------------------------

function openRoster() {
  ui.sheet = "roster";
  ui.roster = null;
  ui.rosterDraft = {};
  ui.rosterNew = null;
}

/** The name a player types is offered from the roster (a list under the name box). */
function rosterNames() {
  const known = ui.results ? ui.results.roster : [];
  return h("datalist", {id: "roster-names"}, known.map((r) => h("option", {value: r.name})));
}

/** A seat whose name is a roster player's takes their usual colour where no other seat has it;
 *  true when the colour changed. */
function usualColour(s, i, info) {
  const name = s.players[i].name.trim().toLowerCase();
  const known = ui.results && ui.results.roster.find((r) => r.name.toLowerCase() === name);
  if (!known || known.colour === s.players[i].colour || !info.colours.includes(known.colour)) return false;
  if (s.players.some((p, k) => k !== i && p.colour === known.colour)) return false;
  s.players[i].colour = known.colour;
  return true;
}

function refreshRoster() {
  fetch("/api/roster").then((r) => r.json()).then((data) => { ui.roster = data; render(); });
}

/** Send one change of the roster (add, edit, remove); the answer is the roster as it is now. */
function changeRoster(change, body, done) {
  return post(`/api/roster/${change}`, body).then((data) => {
    ui.roster = data;
    if (ui.results) ui.results.roster = data.roster;
    if (done) done();
    render();
  }).catch((error) => { say("error", `${t("refused")}: ${whyText(error.why, error.message)}`); render(); });
}

/** The roster to edit: add a player, rename one, change a usual colour, remove one. */
function rosterPanel() {
  if (!ui.roster) { ui.roster = {roster: [], colours: [], loading: true}; refreshRoster(); }
  if (!ui.rosterDraft) ui.rosterDraft = {};
  const drafts = ui.rosterDraft;
  const colours = ui.roster.colours;
  const colourSelect = (value, testid, onchange) => h("select", {"aria-label": t("colour"), "data-testid": testid, onchange},
    colours.map((c) => h("option", {value: c, selected: value === c || null, text: colourName(c)})));
  const row = (r, i) => {
    const draft = drafts[r.name] ?? r.name;
    const rename = () => changeRoster("edit", {name: r.name, new_name: drafts[r.name] ?? r.name}, () => { delete drafts[r.name]; });
    return h("li", {class: "roster-row", "data-testid": `roster-row-${r.name}`},
      swatch({colour: r.colour, pattern: "solid", name: r.name}, true),
      h("input", {type: "text", maxlength: 24, value: draft, "aria-label": t("name"), "data-key": `roster-name-${i}`,
        "data-testid": `roster-name-${r.name}`, oninput: (e) => { drafts[r.name] = e.target.value; },
        onkeydown: (e) => { if (e.key === "Enter") rename(); }}),
      colourSelect(r.colour, `roster-colour-${r.name}`, (e) => changeRoster("edit", {name: r.name, colour: e.target.value})),
      h("span", {class: "roster-actions"},
        button(t("roster_rename"), rename, "btn slim", {"data-testid": `roster-save-${r.name}`}),
        button(t("remove"), () => changeRoster("remove", {name: r.name}, () => say("info", t("roster_removed", {name: r.name}))),
          "btn slim", {"data-testid": `roster-remove-${r.name}`}),
        h("small", {class: "hint", text: t(r.games === 1 ? "games_one" : "games_n", {n: r.games})})));
  };
  if (!ui.rosterNew) ui.rosterNew = {name: "", colour: DEFAULT_COLOURS[0]};
  const fresh = ui.rosterNew;
  const addOne = () => changeRoster("add", {name: fresh.name, colour: fresh.colour}, () => { ui.rosterNew = null; });
  return h("section", {class: "roster-edit", "data-testid": "roster-panel"},
    h("h2", {text: t("roster_title")}),
    h("p", {class: "hint", text: t("roster_help")}),
    ui.roster.roster.length ? h("ul", {class: "roster-list"}, ui.roster.roster.map(row))
      : h("p", {text: ui.roster.loading ? "…" : t("roster_empty")}),
    h("div", {class: "roster-row roster-new"},
      swatch({colour: fresh.colour, pattern: "solid", name: fresh.name}, true),
      h("input", {type: "text", maxlength: 24, value: fresh.name, placeholder: t("name"), "aria-label": t("name"),
        "data-key": "roster-new-name", "data-testid": "roster-new-name", oninput: (e) => { fresh.name = e.target.value; },
        onkeydown: (e) => { if (e.key === "Enter") addOne(); }}),
      colourSelect(fresh.colour, "roster-new-colour", (e) => { fresh.colour = e.target.value; render(); }),
      h("span", {class: "roster-actions"}, button(t("add_player"), addOne, "btn primary slim", {"data-testid": "roster-add"}))));
}

// --- camera -----------------------------------------------------------------------------------

function cameraPanel() {
  const cam = table.camera || {state: "off"};
  if (cam.state === "off" && !table.sim) return null;
  const live = !document.hidden && ui.cameraOpen && cam.state !== "off";
  const img = live ? h("img", {class: "preview", src: `/video.mjpg?try=${ui.previewTry}`, alt: t("camera"),
    "data-testid": "preview", onclick: (e) => cornerTap(e), onerror: previewRefused})
    : h("p", {class: "hint", text: t("preview_paused")});
  const names = table.colours.map(colourName).join(", ");
  // Colours learnt from the rolls played are named from their own dice; the others, until
  // every colour the game rolls is learnt (white neutral dice and kickers too), by the light
  // judged from the rolls.
  const learnt = (table.game && cam.colours_learnt) || [];
  const stillJudged = !cam.every_colour_learnt;
  return h("section", {class: "camera", "data-testid": "camera"},
    h("h2", {}, t("camera"), " ", h("small", {text: cam.source || ""})),
    img,
    ui.corners ? h("p", {class: "hint", text: `${t("zones_corners")} (${ui.corners.length}/4)`}) : null,
    h("p", {class: "hint", text: table.zones.length ? t("zones_now", {list: table.zones.join(", ")}) : t("zones_none")}),
    table.game ? h("p", {class: "hint", text: t("calibrate_help", {list: names})}) : null,
    learnt.length ? h("p", {class: "hint", "data-testid": "colours-learnt",
      text: t("colours_learnt", {list: learnt.map(colourName).join(", ")})}) : null,
    table.game && cam.light && stillJudged ? h("p", {class: "hint", "data-testid": "light", text: t("light_judged", {n: cam.light_dice,
      words: cam.light.length ? cam.light.map((word) => t("light_" + word)).join(", ") : t("light_white")})}) : null,
    h("div", {class: "row wrap"},
      table.sim && table.game ? button(t("calibrate_lay"), () => act("sim_lay_colours"), "btn", {"data-testid": "sim-lay"}) : null,
      table.game ? button(t("calibrate"), () => act("calibrate").then((ok) => { if (ok) { say("info", t("calibrate") + " ✓"); render(); } }), "btn", {"data-testid": "calibrate"}) : null,
      button(t("zones_markers"), () => act("zones", {mode: "markers"}), "btn"),
      button(t("zones_corners"), () => { ui.corners = []; render(); }, "btn"),
      table.zones.length ? button(t("zones_clear"), () => act("zones", {mode: "clear"}), "btn") : null,
      table.sim ? button(t("sim_clear"), () => act("sim_clear"), "btn", {"data-testid": "sim-clear"}) : null,
      table.game ? button(t(table.placement_check ? "placement_check_off" : "placement_check_on"),
        () => act("placement_check", {on: !table.placement_check}), "btn", {"data-testid": "placement-check"}) : null,
      table.sim && table.game ? button(t(table.sim_misplacing ? "sim_misplace_off" : "sim_misplace_on"),
        () => act("sim_misplace", {on: !table.sim_misplacing}), "btn", {"data-testid": "sim-misplace"}) : null,
      button(t(ui.cameraOpen ? "preview_pause" : "preview_show"), () => { ui.cameraOpen = !ui.cameraOpen; render(); }, "btn")));
}

/** The preview was refused (too many open) or broke off: open it anew a little later. */
function previewRefused() {
  const tried = ui.previewTry;
  setTimeout(() => { if (ui.previewTry === tried) { ui.previewTry += 1; render(); } }, retryDelay());
}

function cornerTap(event) {
  if (!ui.corners) return;
  const img = event.target;
  const rect = img.getBoundingClientRect();
  const x = (event.clientX - rect.left) * img.naturalWidth / rect.width;
  const y = (event.clientY - rect.top) * img.naturalHeight / rect.height;
  ui.corners.push([Math.round(x), Math.round(y)]);
  if (ui.corners.length === 4) {
    act("zones", {mode: "corners", corners: {arena: ui.corners}});
    ui.corners = null;
  }
  render();
}

// --- dialogs ----------------------------------------------------------------------------------

/** The menu, open from any screen: games, the record, the score, the log and past payouts. */
function menuPanel() {
  const game = table.game;
  const close = () => { ui.menu = false; ui.abandonAsked = false; };
  const item = (label, testid, onclick) => button(label, () => { close(); onclick(); render(); }, "btn big menu-item", {"data-testid": testid});
  return h("div", {class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": t("menu"),
    onclick: (e) => { if (e.target === e.currentTarget) { close(); render(); } }},
    h("nav", {class: "dialog-box menu", "data-testid": "menu-panel"},
      h("h2", {text: t("menu")}),
      item(t("new_game"), "menu-new-game", () => { ui.setup = null; ui.forceSetup = table.game_id; }),
      game ? item(t("rematch"), "menu-rematch", () => rematch(game)) : null,
      // Abandoning takes two taps: the game cannot be taken back onto the table from the menu.
      game && game.phase !== "over" ? button(t(ui.abandonAsked ? "abandon_sure" : "abandon"), () => {
        if (!ui.abandonAsked) { ui.abandonAsked = true; render(); return; }
        ui.abandonAsked = false; close();
        act("abandon").then((ok) => { if (ok) { ui.forceSetup = null; ui.games = null; ui.results = null; } render(); });
      }, ui.abandonAsked ? "btn big menu-item danger" : "btn big menu-item", {"data-testid": "menu-abandon"}) : null,
      game && game.phase !== "over" && canControl() ? hintsMenuItem(close) : null,
      item(t("history"), "menu-games", () => { ui.sheet = "games"; ui.games = null; }),
      game ? item(t("score_table"), "menu-score", () => { ui.sheet = "score"; }) : null,
      game ? item(t("game_log"), "menu-log", () => { ui.sheet = "log"; }) : null,
      game && game.payouts.length ? item(t("payouts"), "menu-payouts", () => { ui.sheet = "payouts"; ui.reviewRound = game.payouts.length; }) : null,
      game ? item(t("table_mode"), "menu-table", () => { ui.tableMode = true; }) : null,
      item(t("stats"), "menu-stats", () => { ui.sheet = "stats"; ui.results = null; }),
      item(t("roster_title"), "menu-roster", () => openRoster()),
      game ? h("a", {class: "btn big menu-item", href: `/api/games/${table.game_id}/record`, download: "", text: t("download")}) : null,
      item(t("show_qr"), "menu-address", () => { ui.showQr = true; }),
      button(t("close"), () => { close(); render(); }, "btn big", {"data-testid": "menu-close"})));
}

/** A new game with the same players, colours, edition and options; the player after the one
 *  who started the last round starts. */
function rematch(game) {
  const players = game.players.map((p) => ({name: p.name, colour: p.colour}));
  act("new_game", Object.assign({edition: game.edition, options: game.options, players,
    start_player: (game.start_player + 1) % players.length}, rematchSeatFields())).then((ok) => {
    if (ok) { ui.forceSetup = null; ui.payoutStep = 0; ui.sheet = null; }
    render();
  });
}

/** A sheet over the page (saved games, score table, log, payouts, statistics), closed by one tap. */
function sheetPanel() {
  const game = table.game;
  const bodies = {
    games: () => historyPanel(),
    score: () => game && scorePanel(game, true),
    log: () => game && logPanel(game),
    payouts: () => game && payoutReview(game),
    stats: () => statsPanel(),
    roster: () => rosterPanel(),
  };
  const body = (bodies[ui.sheet] || (() => null))();
  if (!body) { ui.sheet = null; return null; }
  return h("div", {class: "dialog sheet-wrap", role: "dialog", "aria-modal": "true"},
    h("div", {class: "dialog-box sheet", "data-testid": `sheet-${ui.sheet}`},
      h("div", {class: "row sheet-top"}, button(t("close"), () => { ui.sheet = null; render(); }, "btn big", {"data-testid": "sheet-close"})),
      body));
}

function qrDialog() {
  return h("div", {class: "dialog", role: "dialog", "aria-modal": "true"},
    h("div", {class: "dialog-box"}, h("h2", {text: t("qr_help")}),
      h("img", {src: "/qr.svg", class: "qr", alt: document.body.dataset.url}),
      h("p", {class: "url", text: document.body.dataset.url}),
      button(t("close"), () => { ui.showQr = false; render(); }, "btn big")));
}

function pinDialog() {
  const send = () => post("/api/control", {pin: ui.pin}).then((data) => {
    controlId = data.control_id;
    sessionStorage.setItem("controlId", controlId);
    ui.pin = null; message = null; render();
  }).catch((error) => { say("error", whyText(error.why, error.message)); ui.pin = ""; render(); });
  return h("div", {class: "dialog", role: "dialog", "aria-modal": "true"},
    h("div", {class: "dialog-box"}, h("h2", {text: t("pin_title")}),
      h("p", {class: "pin-dots", text: "•".repeat(ui.pin.length) || " "}),
      h("div", {class: "keypad pin"}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((d) => button(String(d), () => { ui.pin += d; render(); }, "btn big", {"data-testid": `pin-${d}`}))),
      h("div", {class: "row"}, button(t("ok"), send, "btn primary big", {"data-testid": "pin-ok"}),
        button(t("cancel"), () => { ui.pin = null; render(); }, "btn big"))));
}

// Connected once every script of the page is in (seats.js comes after this file).
document.addEventListener("DOMContentLoaded", connect);
