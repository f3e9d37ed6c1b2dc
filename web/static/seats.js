// Computer seats and hints on the table page: the new-game form's seat levels and hint
// switch, each choice's chance of winning, and the computer's turn. app.js calls the
// functions below from a few places; the state's `seats` says which seats are computers
// and whether this game's players agreed to hints.
"use strict";

Object.assign(WORDS.en, {
  seat_person: "Person", seat_bot_greedy: "Bot: greedy", seat_bot_rules: "Bot: rules",
  seat_bot_search: "Bot: search", seat_kind: "Who plays",
  hints_switch: "Hints: show each choice's chance of winning (all players agree)",
  hint_working: "Hint: working…", hint_none: "No hint for this position ({why})",
  hints_menu_on: "Show hints (each choice's chance of winning)", hints_menu_off: "Hide hints",
  hint_line: "{win} % ± {error} to win · {money} this round",
  hint_now: "Chance to win as it stands: {win} % ± {error}",
  hint_best: "best", hint_help: "Chance of winning the game ± its uncertainty, and the money expected this round.",
  bot: "Bot", bot_turn: "Bot {name}'s turn", bot_throw_camera: "Throw {name}'s dice for the camera, or let the page roll them.",
  bot_roll: "Roll for {name}", bot_thinking: "Bot {name} is thinking…", bot_rolling: "Rolling for bot {name}…",
  bot_play: "Let the bot play", bot_paused: "Undone: the bot waits. Tap to let it play again.",
  bot_mirror: "Put its dice there on the table.", bot_level: "Computer player · {level}",
  level_greedy: "greedy", level_rules: "rules of thumb", level_search: "search (strongest)",
  bot_threw: "Threw:",
});

Object.assign(WORDS.de, {
  seat_person: "Mensch", seat_bot_greedy: "Bot: gierig", seat_bot_rules: "Bot: Regeln",
  seat_bot_search: "Bot: Suche", seat_kind: "Wer spielt",
  hints_switch: "Tipps: Gewinnchance jeder Wahl zeigen (alle Spieler einverstanden)",
  hint_working: "Tipp: rechnet…", hint_none: "Kein Tipp für diese Lage ({why})",
  hints_menu_on: "Tipps zeigen (Gewinnchance jeder Wahl)", hints_menu_off: "Tipps ausblenden",
  hint_line: "{win} % ± {error} Siegchance · {money} in dieser Runde",
  hint_now: "Siegchance im Moment: {win} % ± {error}",
  hint_best: "beste", hint_help: "Chance, das Spiel zu gewinnen, ± ihre Unsicherheit, und das in dieser Runde erwartete Geld.",
  bot: "Bot", bot_turn: "Bot {name} ist dran", bot_throw_camera: "Würfelt {name}s Würfel für die Kamera oder lasst die Seite würfeln.",
  bot_roll: "Für {name} würfeln", bot_thinking: "Bot {name} überlegt…", bot_rolling: "Für Bot {name} wird gewürfelt…",
  bot_play: "Bot spielen lassen", bot_paused: "Rückgängig gemacht: Der Bot wartet. Tippt, damit er wieder spielt.",
  bot_mirror: "Legt seine Würfel dort auf den Tisch.", bot_level: "Computerspieler · {level}",
  level_greedy: "gierig", level_rules: "Faustregeln", level_search: "Suche (am stärksten)",
  bot_threw: "Gewürfelt:",
});

const BOT_LEVELS = ["greedy", "rules", "search"];
const BOT_PAUSE_MS = 800;   // a moment to see whose turn it is before the computer acts
const DECISIONS = ["place", "skip", "cards", "power_play", "tile"];
const hintNow = {version: null, answer: null, error: null, why: null};   // the hint for one state of the table
const botNow = {timer: null, timerFor: null, sent: null, failed: null};

function seatsOf() {
  return (table && table.seats) || {hints: false, bots: []};
}

function botLevel(seat) {
  return seat === null || seat === undefined ? null : seatsOf().bots[seat] || null;
}

// --- the new-game form ------------------------------------------------------------------------

/** Person or computer (and how strong) for one seat of the new-game form. */
function seatKindSelect(p, i) {
  return h("select", {"aria-label": t("seat_kind"), "data-testid": `player-bot-${i}`,
    onchange: (e) => { p.bot = e.target.value || null; render(); }},
  h("option", {value: "", selected: !p.bot || null, text: t("seat_person")}),
  BOT_LEVELS.map((level) => h("option", {value: level, selected: p.bot === level || null, text: t("seat_bot_" + level)})));
}

/** The players agree to hints or not, for this game. */
function hintsSwitch(s) {
  return h("label", {class: "check hints-switch", for: "hints-on"}, h("input", {type: "checkbox", id: "hints-on",
    "data-testid": "hints-on", checked: s.hints || null, onchange: (e) => { s.hints = e.target.checked; }}), h("span", {text: t("hints_switch")}));
}

/** The new-game action's fields for seats and hints, from the form. */
function seatFields(s) {
  return {hints: Boolean(s.hints), bots: s.players.map((p) => p.bot || null)};
}

/** The same seats and hints again, for a rematch of the game on the table. */
function rematchSeatFields() {
  const seats = seatsOf();
  return {hints: Boolean(seats.hints), bots: table.game.players.map((_, i) => seats.bots[i] || null)};
}

// --- who acts now -----------------------------------------------------------------------------

/** The seat the game waits for (to throw, place, lay out cards or settle a tile), or null. */
function decidingSeat(game) {
  if (["roll", "choose", "cards"].includes(game.phase)) return game.current;
  if (game.phase === "tile" && game.pending) {
    const seat = game.players.findIndex((p) => p.name === game.pending.player);
    return seat < 0 ? null : seat;
  }
  return null;
}

// --- hints ------------------------------------------------------------------------------------

/** The hint for the state on the page: asked once per state, in the background; an answer for
 *  a state the table has left is dropped. */
function currentHint(game) {
  const seat = decidingSeat(game);
  if (!seatsOf().hints || !["roll", "choose"].includes(game.phase) || seat === null || botLevel(seat)) return null;
  if (hintNow.version !== table.version) {
    const asked = table.version;
    Object.assign(hintNow, {version: asked, answer: null, error: null, why: null});
    fetch("/api/hint", {credentials: "same-origin"}).then(async (response) => {
      const data = await response.json().catch(() => ({error: response.statusText}));
      if (hintNow.version !== asked) return;              // the game moved on while it computed
      if (response.ok && data.version !== asked) return;  // computed for another state
      if (response.ok) hintNow.answer = data; else Object.assign(hintNow, {error: data.error || response.statusText, why: data.why || null});
      render();
    }).catch((error) => {
      if (hintNow.version === asked) { hintNow.error = String(error.message || error); render(); }
    });
  }
  return hintNow;
}

/** An event as text with its keys in order, so that the same event from two answers compares equal. */
function eventKey(value) {
  if (Array.isArray(value)) return `[${value.map(eventKey).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${eventKey(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

function percent(x) {
  return Math.round(100 * x);
}

/** "62 % ± 4 to win · $60,000 this round" for one choice of the hint. */
function hintText(entry) {
  return t("hint_line", {win: percent(entry.win), error: Math.max(1, percent(entry.win_error)), money: money(entry.money)});
}

/** The hint's line above the choices: working, the chance as it stands (before a throw), or
 *  why there is none. */
function hintStatus(game) {
  const hint = currentHint(game);
  if (!hint) return null;
  let text;
  if (hint.error) text = t("hint_none", {why: whyText(hint.why, hint.error)});
  else if (!hint.answer) text = t("hint_working");
  else if (game.phase === "roll" && hint.answer.choices.length) {
    const now = hint.answer.choices[0];
    text = t("hint_now", {win: percent(now.win), error: Math.max(1, percent(now.win_error))});
  } else text = t("hint_help");
  return h("p", {class: `hint-status${hint.answer ? "" : " working"}`, "data-testid": "hint-status", role: "status", text});
}

/** A choice's button with its hint beneath its words, once the hint is in. */
function withHint(game, btn, choice) {
  const hint = currentHint(game);
  if (!hint || hint.error) return btn;
  btn.classList.add("with-hint");
  if (!hint.answer) {
    btn.append(h("span", {class: "hint-figures working", text: t("hint_working")}));
    return btn;
  }
  const key = eventKey(choice.event);
  const entries = hint.answer.choices;
  const index = entries.findIndex((e) => e.event && eventKey(e.event) === key);
  if (index < 0) return btn;
  btn.append(h("span", {class: `hint-figures${index === 0 ? " best" : ""}`, "data-testid": "hint-figures"},
    index === 0 ? h("strong", {text: `★ ${t("hint_best")} · `}) : null, hintText(entries[index])));
  return btn;
}

/** The menu's switch for hints during a game (the tablet in control; the players agree, as on
 *  the new-game form). */
function hintsMenuItem(close) {
  const on = Boolean(seatsOf().hints);
  return button(t(on ? "hints_menu_off" : "hints_menu_on"), () => {
    close();
    hintNow.version = null;   // asked again for the state the switch leaves
    post("/api/hints", {on: !on}).then(() => { message = null; }).catch((error) => {
      say("error", `${t("refused")}: ${whyText(error.why, error.message)}`);
      render();
    });
    render();
  }, "btn big menu-item", {"data-testid": "menu-hints", "aria-pressed": on ? "true" : "false"});
}

// --- the computer's turn ----------------------------------------------------------------------

/** After an undo or a redo the computer waits for a tap, so that what was taken back is not
 *  played again at once. */
function botPaused() {
  const notice = table.notice || {};
  return notice.event === "undo" || notice.event === "redo" || botNow.failed === table.version;
}

function sendBot() {
  const version = table.version;
  if (botNow.sent === version) return;
  botNow.sent = version;
  render();
  // Once answered, the same state may come back (an undo) and the bot may be asked again;
  // `scheduleBot` asks at most once by itself for each state.
  post("/api/action", {action: "bot", base: version}).then(() => { message = null; botNow.sent = null; }).catch((error) => {
    botNow.sent = null;
    if (error.why && error.why.key === "stale") return;  // another tablet made the move first
    botNow.failed = version;
    say("error", `${t("refused")}: ${whyText(error.why, error.message)}`);
    render();
  });
}

/** Let the computer act a moment after its turn is drawn, once per state of the table. */
function scheduleBot(version) {
  if (botNow.timerFor === version) return;
  clearTimeout(botNow.timer);
  botNow.timerFor = version;
  botNow.timer = setTimeout(() => {
    const game = table.game;
    if (!game || table.version !== version || !canControl() || botPaused()) return;
    if (botLevel(decidingSeat(game))) sendBot();
  }, BOT_PAUSE_MS);
}

/** The action panel while a computer seat acts: what it does now, or the person's panel. */
function seatsPanel(game, panel) {
  const seat = decidingSeat(game);
  const level = botLevel(seat);
  if (!level) return game.phase === "choose" ? [panel(game), hintStatus(game)] : [hintStatus(game), panel(game)];
  const player = game.players[seat];
  const throwing = game.phase === "roll";
  // On the simulated table the page rolls for the computer; at a real table someone throws
  // its dice for the camera (or the page rolls them, on request).
  const auto = canControl() && !botPaused() && (!throwing || table.sim);
  if (auto) scheduleBot(table.version);
  const busy = botNow.sent === table.version;
  const doing = throwing ? (auto || busy ? t("bot_rolling", {name: player.name}) : t("bot_throw_camera", {name: player.name}))
    : t("bot_thinking", {name: player.name});
  return h("div", {class: "bot-turn", "data-testid": "bot-turn", "data-seat": String(seat)},
    h("h2", {}, swatch(player, true), ` ${t("bot_turn", {name: player.name})}`),
    h("p", {class: "hint", text: t("bot_level", {level: t("level_" + level)})}),
    game.phase === "choose" && game.roll ? botDice(game.roll.groups, player) : null,
    botPaused() && !busy ? h("p", {class: "warn", text: t("bot_paused")}) : h("p", {class: "bot-doing", role: "status", text: doing}),
    canControl() && (botPaused() || (throwing && !auto)) && !busy
      ? button(throwing ? t("bot_roll", {name: player.name}) : t("bot_play"), sendBot, "btn primary big", {"data-testid": "bot-play"}) : null,
    throwing && !auto ? panel(game) : null);
}

/** The dice the computer threw, for the table to check against its own. */
function botDice(groups, player) {
  return h("div", {class: "groups bot-dice"}, h("span", {class: "hint", text: t("bot_threw")}), groups.map((g) => h("span", {class: "dice"},
    Array.from({length: g.regular}, () => dieFace(g.number, player.colour, "", player.pattern)),
    Array.from({length: g.biggy}, () => dieFace(g.number, player.colour, "biggy", player.pattern)),
    Array.from({length: g.neutral}, () => dieFace(g.number, "white")),
    Array.from({length: g.kickers}, () => dieFace(g.number, "purple")))));
}

/** The computer's last move in words, for the real table to mirror: shown until the next
 *  decision by anyone. */
function botBanner() {
  const game = table && table.game;
  if (!game || !game.log) return null;
  let last = null;
  for (let i = game.log.length - 1; i >= 0 && !last; i--) if (DECISIONS.includes(game.log[i].what)) last = game.log[i];
  if (!last || !botLevel(last.seat)) return null;
  return h("div", {class: "banner bot-said", role: "status", "data-testid": "bot-said", "data-step": String(last.step)},
    h("p", {}, swatch(game.players[last.seat]), " ", h("strong", {text: `${t("bot")} ${logText(game, last)}`})),
    h("p", {class: "bot-mirror", text: t("bot_mirror")}));
}
