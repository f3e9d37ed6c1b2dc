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
  forceSetup: null,        // the game id on the table when "New game" was pressed: the form shows until another game is on
  starting: false,         // a new game was asked for and not yet answered
  screen: null,            // which screen was drawn last, to scroll to the top when it changes
  noticeKey: null, noticeAt: 0,
};
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

function ownerTag(look) {
  return h("span", {class: "owner"}, swatch(look), h("span", {class: "owner-name", text: ownerName(look)}));
}

function ownerName(look) {
  return look.owner < 0 ? t(look.name) : look.name;
}

function dieFace(pips, colour, extra) {
  const spots = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]}[pips] || [];
  const cells = [];
  for (let i = 0; i < 9; i++) cells.push(h("i", {class: spots.includes(i) ? "pip" : ""}));
  return h("span", {class: `die c-${colour || "white"} ${extra || ""}`, role: "img", "aria-label": String(pips)}, cells);
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
  stream = new EventSource("/api/events");
  stream.onmessage = (event) => {
    lastHeard = Date.now();
    const msg = JSON.parse(event.data);
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
    setConnection("live");
    watchChanges(before);
    render();
  };
  stream.addEventListener("ping", () => { lastHeard = Date.now(); });
  stream.onerror = () => setConnection("reconnecting");
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
    const undone = before.log.filter((e) => e.step > last && e.key !== "payout");
    if (undone.length) say("info", t("undone", {what: undone.map((e) => logText(game, e)).join("; ")}));
  } else if (notice.event === "redo") {
    const last = before.log.length ? before.log[before.log.length - 1].step : 0;
    const redone = game.log.filter((e) => e.step > last && e.key !== "payout");
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
  return h("header", {class: "top"},
    h("h1", {text: t("title")}),
    h("div", {class: "status"}, status),
    h("span", {id: "connection", class: "badge"}),
    h("span", {class: `badge cam-${cam.state}`, title: cam.message || "", text: t("cam_" + (cam.state === "ok" ? "ok" : cam.state === "lost" ? "lost" : cam.state === "starting" ? "starting" : "off"))}),
    game ? button(t("undo"), () => act("undo"), "btn", {disabled: !table.can_undo || !canControl() || null, "data-testid": "undo"}) : null,
    game ? button(t("redo"), () => act("redo"), "btn", {disabled: !table.can_redo || !canControl() || null, "data-testid": "redo"}) : null,
    table.pin_required ? (canControl() ? h("span", {class: "badge control", text: t("controlling")})
      : button(t("take_control"), () => { ui.pin = ""; render(); }, "btn primary", {"data-testid": "control"})) : null,
    button(t("show_qr"), () => { ui.showQr = true; render(); }, "btn"),
    button(t("language"), () => { localStorage.setItem("lang", LANG === "de" ? "en" : "de"); render(); }, "btn", {"data-testid": "language"}),
  );
}

function phaseLine(game) {
  const player = game.players[game.current];
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
  if (screen === "over") return h("main", {class: "over-screen"}, gameOverPanel(game), historyPanel());
  return h("main", {class: "play"},
    h("section", {class: "board", "aria-label": "casinos"}, game.casinos.map((c) => casinoCard(game, c))),
    h("section", {class: "side"}, actionPanel(game), cameraPanel(), standingsPanel(game)));
}

// --- casinos ----------------------------------------------------------------------------------

function casinoCard(game, casino) {
  const tied = new Set(casino.tied.flat());
  const title = casino.slot ? t("slot_machine") : t("casino", {n: casino.number});
  const rows = casino.owners.map((o) => h("li", {class: `owner-row${casino.leader === o.owner ? " leader" : ""}${tied.has(o.owner) ? " tied" : ""}`},
    ownerTag(o),
    h("span", {class: "count", text: `× ${o.dice}`}),
    o.biggies ? h("span", {class: "tag", text: `${o.biggies} ${t("kind_biggy")}`}) : null,
    casino.leader === o.owner ? h("span", {class: "tag lead", text: t("leads")}) : null,
    tied.has(o.owner) ? h("span", {class: "tag tie", text: t("tied")}) : null));
  return h("article", {class: "casino", "data-testid": `casino-${casino.number}`},
    h("header", {}, casino.slot ? null : dieFace(casino.number, "white", "small"), h("h2", {text: title})),
    h("div", {class: "notes"}, casino.notes.map((n) => h("span", {class: "note", text: note(n)})),
      casino.chip_cards.map((c) => h("span", {class: `chip chip-${c}`, text: c}))),
    casino.tile ? h("div", {class: "tile", text: `${casino.tile.name}${casino.tile.holder ? " · " + casino.tile.holder : ""}${
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
    panel ? panel(game) : null);
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

const TILE_CODES = ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1", "E2", "F1", "F2", "G1", "G2", "H1", "H2"];

function tilePicker(game, deal) {
  return h("div", {class: "tiles-pick"}, h("h3", {text: t("tiles_pick")}),
    h("div", {class: "row wrap"}, TILE_CODES.map((code) => button(code, () => {
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
  const powerPlays = game.choices.filter((c) => c.event.type === "power_play");
  return h("div", {class: "roll"},
    h("h2", {}, swatch(player, true), ` ${t("phase_roll", {name: player.name})}`),
    h("p", {text: `${t("you_roll")}: ${supplyText(player)}`}),
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
    button(t("roll_apply"), () => act("roll", {dice: ui.correction.dice.filter((d) => d.kind !== "ignore")}),
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
      .map((b, i) => { b.append(dieFace(roll.dice[i].pips, roll.dice[i].kind === "neutral" ? "white" : roll.dice[i].kind === "kickers" ? "purple" : player.colour)); return b; })),
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
  const group = roll ? roll.groups.find((g) => g.number === ev.number) : null;
  const count = group ? group.regular + group.neutral + group.biggy + group.kickers : "";
  let text = t(ev.slot ? "place_slot" : "place", {count, n: ev.number});
  for (const k of ev.kicks || []) text += ", " + t("kick", {size: t(k.big ? "kick_biggy" : "kick_die"), name: k.owner < 0 ? t(k.name) : k.name});
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
  const player = game.players[game.current];
  const groups = game.roll ? game.roll.groups : [];
  return h("div", {class: "choose"},
    h("h2", {}, swatch(player, true), ` ${t("phase_choose", {name: player.name})}`),
    h("div", {class: "groups"}, groups.map((g) => h("div", {class: "group"},
      h("span", {class: "dice"}, Array.from({length: g.regular}, () => dieFace(g.number, player.colour)),
        Array.from({length: g.biggy}, () => dieFace(g.number, player.colour, "biggy")),
        Array.from({length: g.neutral}, () => dieFace(g.number, "white")),
        Array.from({length: g.kickers}, () => dieFace(g.number, "purple")))))),
    table.reading && table.reading.applied ? h("p", {class: "hint", "data-testid": "camera-applied", text: cameraApplied(table.reading.left_out)}) : null,
    h("div", {class: "choices"}, game.choices.map((c, i) => button(choiceLabel(game, c), () => act("event", {event: c.event}).then((ok) => {
      if (ok && table.sim) act("sim_clear");
    }), "btn big choice", {"data-testid": `choice-${i}`}))),
    table.sim ? h("div", {class: "row wrap sim"}, groups.map((g) => button(t("take_off", {n: g.number}), () => act("sim_take", {pips: g.number}), "btn", {"data-testid": `take-${g.number}`}))) : null);
}

function tilePanel(game) {
  const pending = game.pending || {};
  const throwing = pending.ask === "extra dice";
  const shown = throwing ? [] : game.choices.slice(0, 48);
  return h("div", {class: "tile-decision"},
    h("h2", {text: t("phase_tile", {name: pending.player || ""})}),
    h("p", {text: t("tile_help", {tile: pending.tile, ask: tOr("ask_" + (pending.ask || "").replace(/ /g, "_"), pending.ask)})}),
    throwing ? throwPicker(pending) : null,
    // Only thrown dice and the Black Box's drawn tokens are chance; other asks are decisions.
    throwing || pending.code === "G1" ? button(t("tile_random"), () => act("simulate"), "btn", {"data-testid": "tile-random"}) : null,
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
    if (pending.code === "B1") choice.place = x.dice.filter((_, i) => x.place[i]);
    act("event", {event: {type: "tile", casino: pending.casino, choice}});
  };
  return h("div", {class: "extra-dice"},
    [0, 1].map((i) => h("div", {class: "row"}, h("span", {text: t("extra_die", {n: i + 1})}),
      [1, 2, 3, 4, 5, 6].map((n) => button(String(n), () => { x.dice[i] = n; render(); }, x.dice[i] === n ? "btn selected" : "btn",
        {"data-testid": `extra-${i}-${n}`})),
      pending.code === "B1" ? h("label", {class: "check"}, h("input", {type: "checkbox", checked: x.place[i] || null,
        "data-testid": `extra-place-${i}`, onchange: (e) => { x.place[i] = e.target.checked; }}), t("extra_place")) : null)),
    button(t("extra_enter"), send, ready ? "btn primary" : "btn", {"data-testid": "extra-enter", disabled: ready ? null : ""}));
}

function describeChoice(choice) {
  const value = (v) => (v === true ? t("yes") : v === false ? t("no") : typeof v === "number" && v >= 10000 ? money(v)
    : typeof v === "string" ? tOr("tv_" + v, v) : String(v));
  return Object.entries(choice || {}).map(([k, v]) => `${tOr("tk_" + k, k)}: ${Array.isArray(v) ? v.map(value).join(", ") : value(v)}`)
    .join(" · ") || t("choice");
}

function cardsPanel(game) {
  const player = game.players[game.current];
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
  return h("div", {class: "payout-ready"}, h("h2", {text: t("phase_payout")}),
    ranks.map((owner, i) => h("label", {class: "row"}, `${t("slot_machine")} ${i + 1}. `,
      ownerTag(slot.owners.find((o) => o.owner === owner)),
      h("select", {onchange: (e) => { ui.slotChoices[i] = e.target.value; }},
        h("option", {value: "", text: "—"}), slot.notes.map((n) => h("option", {value: n, selected: String(ui.slotChoices[i]) === String(n) || null, text: note(n)}))))),
    button(t("pay_out", {round: game.round}), () => act("event", {event: {type: "payout", slot_choices: choices()}})
      .then((ok) => { if (ok) ui.slotChoices = []; }), "btn primary big", {"data-testid": "pay-out"}));
}

// --- payout, step by step ---------------------------------------------------------------------

function payoutSeen() {
  return Number(localStorage.getItem(`payoutSeen:${table.game_id}`) || 0);
}

function setPayoutSeen(count) {
  localStorage.setItem(`payoutSeen:${table.game_id}`, String(count));
}

function payoutPanel(game, payout) {
  const casinos = payout.casinos;
  const step = Math.min(ui.payoutStep, casinos.length);
  const shown = casinos.slice(0, step + 1 > casinos.length ? casinos.length : step + 1);
  const names = (list) => list.map(displayName).join(", ");
  const done = step >= casinos.length - 1;
  return h("section", {class: "payout", "data-testid": "payout"},
    h("h2", {text: t("payout_title", {round: payout.round})}),
    h("div", {class: "payout-casinos"}, shown.map((c) => h("article", {class: "payout-casino", "data-testid": `payout-casino-${c.casino}`},
      h("h3", {text: c.casino === "slot" ? t("slot_machine") : t("casino", {n: c.casino})}),
      h("div", {class: "notes"}, c.notes.map((n) => h("span", {class: "note", text: note(n)}))),
      h("h4", {text: t("counted")}),
      h("ul", {}, c.counts.map((o) => h("li", {class: c.tied.some((g) => g.owners.includes(o.owner)) ? "struck" : ""},
        lookTag(game, o.owner), ` × ${o.dice}`, o.sum ? ` (Σ ${o.sum})` : ""))),
      c.tied.map((g) => h("p", {class: "tie-line", "data-testid": "tie-line", text: t("tie_struck", {names: names(g.owners), d: g.dice})})),
      h("ul", {class: "awards"}, c.awards.map((a) => h("li", {class: "award", text: t("award", {rank: a.rank, name: displayName(a.owner), note: note(a.note)})}))),
      c.empty_handed.length ? h("p", {text: t("empty_handed", {names: names(c.empty_handed)})}) : null,
      h("p", {class: "leftover", text: c.leftover.length ? t(c.leftover_to === "out" ? "leftover_out" : "leftover_pile", {notes: c.leftover.map(note).join(", ")}) : t("nothing_left")})))),
    done && payout.tiles ? h("ul", {class: "tile-effects", "data-testid": "tile-effects"}, payout.tiles.map((e) => h("li", {
      text: t("tile_effect", {tile: e.tile, n: e.casino, name: displayName(e.owner),
        what: [e.money ? (e.money < 0 ? "−" : "+") + money(Math.abs(e.money)) : "", e.chips ? t("chips_n", {n: e.chips}) : ""]
          .filter(Boolean).join(" ") || "—"})}))) : null,
    h("div", {class: "row"},
      done ? null : button(t("next_casino"), () => { ui.payoutStep = step + 1; render(); }, "btn primary big", {"data-testid": "next-casino"}),
      done ? null : button(t("show_all"), () => { ui.payoutStep = casinos.length; render(); }, "btn"),
      done ? button(t("continue"), () => { setPayoutSeen(game.payouts.length); ui.payoutStep = 0; render(); }, "btn primary big", {"data-testid": "payout-continue"}) : null),
    done ? standingsPanel(game) : null);
}

function displayName(name) {
  return ["white", "grey", "neutral"].includes(name) ? t(name) : name;
}

function lookTag(game, name) {
  const player = game.players.find((p) => p.name === name);
  const look = player || Object.values(game.owners).find((o) => o.name === name) || {name, colour: "grey", pattern: "solid", owner: -9};
  return ownerTag(look);
}

function standingsPanel(game) {
  return h("section", {class: "standings", "data-testid": "standings"}, h("h2", {text: t("standings")}),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}), h("th", {text: t("money")}), h("th", {text: t("notes")}))),
      h("tbody", {}, game.standings.map((s) => h("tr", {},
        h("td", {}, ownerTag(s)),
        h("td", {class: "num", text: money(s.money)}),
        h("td", {class: "notes-cell"}, s.notes.map((n) => h("span", {class: "note small", text: note(n)})),
          s.token_money ? h("small", {text: ` +${money(s.token_money)}`}) : null,
          s.chip_bonus ? h("small", {text: ` +${money(s.chip_bonus)}`}) : null,
          s.bank_money ? h("small", {text: ` ${money(s.bank_money)} ${t("bank")}`}) : null))))));
}

function gameOverPanel(game) {
  const result = game.result;
  const names = result.winners.join(" & ");
  const why = {money: "why_money", notes: "why_notes", shared: "why_shared"}[result.reason];
  return h("section", {class: "over", "data-testid": "game-over"},
    h("h2", {text: t(result.winners.length > 1 ? "winners" : "winner", {names})}),
    h("p", {class: "why", text: t(why)}),
    result.tied_on_money ? h("ul", {}, result.tied_on_money.map((r) => h("li", {text: `${r.player}: ${t("notes")} ${r.notes}`}))) : null,
    standingsPanel(game),
    h("div", {class: "row"},
      h("a", {class: "btn big", href: `/api/games/${table.game_id}/record`, download: "", text: t("download")}),
      button(t("new_game"), () => { ui.setup = null; ui.forceSetup = table.game_id; render(); }, "btn primary big", {"data-testid": "new-game"})));
}

// --- the game log -----------------------------------------------------------------------------

/** Name, colour and pattern of an owner of dice by number: a player's seat or an imaginary owner. */
function ownerLook(game, owner) {
  return owner >= 0 ? game.players[owner] : (game.owners[String(owner)] || {owner, name: "neutral", colour: "grey", pattern: "solid"});
}

function ownerLabel(game, owner) {
  return ownerName(ownerLook(game, owner));
}

/** How dice count at a casino, the same words everywhere: "5 = 3 dice + Biggy". */
function countText(counted, biggies) {
  if (!biggies) return String(counted);
  const dice = counted - 2 * biggies;
  const big = biggies === 1 ? t("kind_biggy") : `${biggies} ${t("many_biggy")}`;
  return dice ? `${counted} = ${dice} ${t(dice === 1 ? "one_regular" : "many_regular")} + ${big}` : `${counted} = ${big}`;
}

/** What a placement puts down: "3 × 6", "2 × 6 + Biggy", "2 × 6 + 1 white". */
function placedText(e) {
  const parts = [];
  if (e.dice || (!e.biggy && !e.neutral && !e.kickers)) parts.push(`${e.dice} × ${e.number}`);
  if (e.biggy) parts.push(e.biggy === 1 ? `${t("kind_biggy")} ${e.number}` : `${e.biggy} ${t("many_biggy")} ${e.number}`);
  if (e.neutral) parts.push(`${e.neutral} ${t("kind_neutral")}`);
  if (e.kickers) parts.push(`${e.kickers} ${t("kind_kickers")}`);
  return parts.join(" + ");
}

function casinoText(n) {
  return n === 7 || n === "slot" ? t("slot_machine") : t("casino", {n});
}

/** One entry of the game's log (built by the server) in the page's language. */
function logText(game, e) {
  const name = e.seat !== undefined ? ownerLabel(game, e.seat) : e.owner !== undefined ? ownerLabel(game, e.owner) : "";
  switch (e.key) {
    case "deal": return t("log_deal", {round: e.round});
    case "roll": return t("log_roll", {name, values: e.values.join(" ")});
    case "place": {
      let text = t("log_place", {name, what: placedText(e), where: casinoText(e.casino)});
      if (e.biggy) text += ` (${t("counts_n", {n: countText(e.counted, e.biggy)})})`;
      for (const k of e.kicks || []) text += ", " + t("kick", {size: t(k.big ? "kick_biggy" : "kick_die"), name: ownerLabel(game, k.owner)});
      return text;
    }
    case "skip": return t("log_skip", {name});
    case "cards": return t("log_cards", {name, cards: e.cards.map(([n, d]) => `${n} · ${t("card_dice", {d})}`).join(", ")});
    case "power_play": return t("log_power_play", {name, n: e.number});
    case "tile": return t("log_tile", {name, tile: e.tile, where: casinoText(e.casino), what: describeChoice(e.choice)});
    case "rainbow": return t("log_rainbow", {notes: e.notes.map(note).join(", ")});
    case "payout": return t("log_payout", {round: e.round});
    case "tie": return t("log_tie", {names: e.owners.map((o) => ownerLabel(game, o)).join(", "), d: e.dice, where: casinoText(e.casino)});
    case "award": return t("log_award", {name, note: note(e.note), where: casinoText(e.casino)});
    case "tile_effect": return t("tile_effect", {tile: e.tile, n: e.casino, name, what: effectText(e)});
    case "over": return t(e.winners.length > 1 ? "winners" : "winner", {names: e.winners.map((o) => ownerLabel(game, o)).join(" & ")});
    default: return e.key;
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
  if (!ui.setup) ui.setup = {edition: "classic", options: {}, players: [{name: "", colour: "red"}, {name: "", colour: "blue"}], start: 0};
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
    const players = s.players.map((p, i) => ({name: p.name.trim() || `${t("players")} ${i + 1}`, colour: p.colour}));
    ui.starting = true;
    render();
    act("new_game", {edition: s.edition, options: s.options, players, start_player: s.start})
      .then((ok) => { ui.starting = false; if (ok) { ui.forceSetup = null; ui.payoutStep = 0; } render(); });
  };
  return h("section", {class: "setup", "data-testid": "setup"},
    h("h2", {text: t("new_game")}),
    h("label", {for: "edition"}, t("edition"), h("select", {id: "edition", "data-testid": "edition",
      onchange: (e) => { s.edition = e.target.value; s.options = {}; render(); }},
      Object.keys(info.editions).map((ed) => h("option", {value: ed, selected: s.edition === ed || null, text: t("ed_" + ed)})))),
    specs.length ? h("fieldset", {}, h("legend", {text: t("options")}), specs.map(optionInput)) : null,
    h("fieldset", {class: "players"}, h("legend", {text: t("players")}),
      s.players.map((p, i) => h("div", {class: "player-row"},
        swatch({colour: p.colour, pattern: info.patterns[i % info.patterns.length], name: p.name}, true),
        h("input", {type: "text", maxlength: 24, value: p.name, placeholder: `${t("name")} ${i + 1}`, "data-key": `name-${i}`,
          "data-testid": `player-name-${i}`, oninput: (e) => { p.name = e.target.value; }}),
        h("select", {"aria-label": t("colour"), "data-testid": `player-colour-${i}`, onchange: (e) => { p.colour = e.target.value; render(); }},
          info.colours.map((c) => h("option", {value: c, selected: p.colour === c || null, text: colourName(c)}))),
        h("label", {class: "check"}, h("input", {type: "radio", name: "start", checked: s.start === i || null,
          onchange: () => { s.start = i; }}), t("start_player")),
        s.players.length > 2 ? button(t("remove"), () => { s.players.splice(i, 1); s.start = 0; render(); }, "btn") : null)),
      s.players.length < 8 ? button(t("add_player"), () => {
        const used = new Set(s.players.map((p) => p.colour));
        s.players.push({name: "", colour: info.colours.find((c) => !used.has(c) && !["white", "purple", "grey"].includes(c)) || "grey"});
        render();
      }, "btn", {"data-testid": "add-player"}) : null),
    button(t("start"), start, "btn primary big", {"data-testid": "start-game", disabled: ui.starting || null}));
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
  return h("section", {class: "history", "data-testid": "history"}, h("h2", {text: t("history")}),
    ui.games.length ? h("ul", {}, ui.games.map((g) => h("li", {},
      h("span", {text: `#${g.game_id} · ${g.created.slice(0, 16).replace("T", " ")} · ${t("ed_" + g.edition)} · ${g.players.join(", ")} · ${t(g.finished ? "finished" : "in_progress")}`}),
      button(t("open"), () => act("open_game", {game_id: g.game_id}).then((ok) => { if (ok) { ui.forceSetup = null; render(); } }), "btn"),
      h("a", {class: "btn", href: `/api/games/${g.game_id}/record`, download: "", text: t("download")})))) : h("p", {text: t("no_games")}),
    h("label", {class: "btn"}, t("import"), h("input", {type: "file", accept: "application/json,.json", class: "hidden", onchange: importFile, "data-testid": "import-file"})));
}

function refreshGames() {
  fetch("/api/games").then((r) => r.json()).then((games) => { ui.games = games; render(); });
}

// --- camera -----------------------------------------------------------------------------------

function cameraPanel() {
  const cam = table.camera || {state: "off"};
  if (cam.state === "off" && !table.sim) return null;
  const live = !document.hidden && ui.cameraOpen && cam.state !== "off";
  const img = live ? h("img", {class: "preview", src: "/video.mjpg", alt: t("camera"), "data-testid": "preview",
    onclick: (e) => cornerTap(e)}) : h("p", {class: "hint", text: t("preview_paused")});
  const names = table.colours.map(colourName).join(", ");
  return h("section", {class: "camera", "data-testid": "camera"},
    h("h2", {}, t("camera"), " ", h("small", {text: cam.source || ""})),
    img,
    ui.corners ? h("p", {class: "hint", text: `${t("zones_corners")} (${ui.corners.length}/4)`}) : null,
    h("p", {class: "hint", text: table.zones.length ? t("zones_now", {list: table.zones.join(", ")}) : t("zones_none")}),
    table.game ? h("p", {class: "hint", text: t("calibrate_help", {list: names})}) : null,
    table.game && cam.light ? h("p", {class: "hint", "data-testid": "light", text: t("light_judged", {n: cam.light_dice,
      words: cam.light.length ? cam.light.map((word) => t("light_" + word)).join(", ") : t("light_white")})}) : null,
    h("div", {class: "row wrap"},
      table.sim && table.game ? button(t("calibrate_lay"), () => act("sim_lay_colours"), "btn", {"data-testid": "sim-lay"}) : null,
      table.game ? button(t("calibrate"), () => act("calibrate").then((ok) => { if (ok) { say("info", t("calibrate") + " ✓"); render(); } }), "btn", {"data-testid": "calibrate"}) : null,
      button(t("zones_markers"), () => act("zones", {mode: "markers"}), "btn"),
      button(t("zones_corners"), () => { ui.corners = []; render(); }, "btn"),
      table.zones.length ? button(t("zones_clear"), () => act("zones", {mode: "clear"}), "btn") : null,
      table.sim ? button(t("sim_clear"), () => act("sim_clear"), "btn", {"data-testid": "sim-clear"}) : null,
      button(t(ui.cameraOpen ? "preview_pause" : "preview_show"), () => { ui.cameraOpen = !ui.cameraOpen; render(); }, "btn")));
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

connect();
