// Words on the page in English and German. t("key", {n: 3}) fills {n}.
"use strict";

const WORDS = {
  en: {
    title: "Las Vegas", round: "Round {round} of {rounds}", connecting: "connecting…",
    live: "live", reconnecting: "reconnecting…", viewer: "Viewer", controlling: "You control the game",
    take_control: "Control", pin_title: "Enter the PIN to control the game", ok: "OK", cancel: "Cancel",
    undo: "Undo", redo: "Redo", show_qr: "Address", qr_help: "Scan to open this page on a tablet",
    language: "Deutsch", close: "Close",
    new_game: "New game", edition: "Edition", options: "Options", players: "Players",
    add_player: "Add player", remove: "Remove", name: "Name", colour: "Dice colour",
    start_player: "Start player", start: "Start the game", history: "Saved games",
    download: "Download record", open: "Open", import: "Import a record", finished: "finished",
    in_progress: "in progress", no_games: "No saved games yet.", events_n: "{n} steps",
    ed_classic: "Las Vegas (2012) with variants", ed_custom: "Custom edition", ed_royale: "Las Vegas Royale",
    ed_cards: "Las Vegas card game",
    opt_neutral_dice: "Neutral white dice", opt_min_money_by_players: "Minimum money by player count",
    opt_big_notes: "$100,000 notes", opt_biggies: "Biggies", opt_kickers: "Kickers (violet dice)",
    opt_rainbow: "Rainbow cards", opt_slot_machine: "Slot machine", opt_chip_cards: "Chip cards",
    opt_leftovers: "Notes left at a casino go", opt_reshuffle: "Reshuffle used notes when the pile runs out",
    opt_skip_rule: "Skip rule", opt_skip_limit: "Skips per round (0: no limit)", opt_rounds: "Rounds",
    opt_sequential: "Sequential variation", opt_tiles: "Casino tiles per round",
    val_pile: "under the pile", val_out: "out of the game", val_none: "none", val_chips: "A: chips",
    val_cards: "B: cards",
    phase_deal: "Deal the money", phase_roll: "{name} to roll", phase_choose: "{name} to choose",
    phase_cards: "{name} lays out cards", phase_tile: "{name} decides a tile", phase_rainbow: "Replace the Rainbow cards",
    phase_payout: "All dice placed: pay out", phase_over: "Game over",
    casino: "Casino {n}", slot_machine: "Slot machine", leads: "leads", tied: "tied", no_dice: "no dice yet",
    deal_title: "Round {round}: lay out the money", deal_help: "Tap a casino, then the notes you lay there.",
    deal_pairs_help: "Draw two cards at a time; the pairs are placed by total automatically (lowest at casino 1).",
    minimum: "at least {m}", notes_n: "{n} notes", pair_n: "pair {n}", deal_confirm: "Confirm the deal",
    deal_random: "Deal at random (simulated pile)", clear: "Clear", chip_card: "chip card",
    start_dice: "Start dice of the imaginary player", tiles_pick: "Casino tiles this round",
    dice_left: "{n} dice left", kind_regular: "dice", kind_biggy: "Biggy", kind_neutral: "white",
    kind_kickers: "kicker", roll_sim: "Throw the dice (simulated table)", roll_random: "Roll at random",
    roll_hand: "Enter the roll by hand", roll_apply: "Apply this roll", camera_read: "The camera read",
    camera_flagged: "Some dice do not fit; correct them or enter the roll by hand.",
    camera_applied: "Read by the camera", place: "{count} × {n} → casino {n}", place_slot: "{count} × {n} → slot machine",
    kick: "kick {size} of {name}", kick_die: "a die", kick_biggy: "a Biggy", take_chip: "take the {colour} chip card",
    skip: "Pass (pay a chip / skip card)", take_off: "Take the {n}s off the table", power_play: "Power Play: turn a die to {n}",
    power_play_big: "Power Play: turn the Biggy to {n}",
    pay_out: "Pay out round {round}", rainbow_random: "Draw at random", rainbow_help: "Draw a note for each Rainbow card at casinos {list}.",
    tile_help: "{tile}: {ask}", tile_random: "Throw / draw at random", choice: "Choose",
    cards_help: "Lay out 1–2 cards, or up to 5 of one number.", add_card: "Add card", cards_confirm: "Lay out these cards", cards_random: "Cards at random",
    card_dice: "{d} dice", payout_title: "Round {round} payout", next_casino: "Next casino",
    show_all: "Show all", counted: "Counted dice", tie_struck: "{names}: tied with {d} dice — no note, dice taken back",
    award: "{rank}. {name} takes {note}", empty_handed: "{names}: no note left", leftover_pile: "{notes} go back under the pile",
    leftover_out: "{notes} leave the game", nothing_left: "no notes left over", standings: "Standings",
    money: "Money", notes: "Notes", winner: "{names} wins!", winners: "{names} share the win!",
    why_money: "Most money.", why_notes: "Equal money; most notes wins the tie-break.",
    why_shared: "Equal money and equal notes: a shared win.", continue: "Continue",
    camera: "Camera", cam_ok: "camera on", cam_lost: "camera lost — enter rolls by hand", cam_off: "no camera",
    cam_starting: "camera starting…", calibrate: "Calibrate colours", calibrate_lay: "Lay one die of each colour",
    calibrate_help: "Put one die of each colour ({list}) in the arena, then calibrate.",
    zones_markers: "Find the marker sheet", zones_corners: "Tap the arena's 4 corners", zones_clear: "Clear zones",
    zones_now: "Zones: {list}", zones_none: "No zones: every die in view counts.", sim_clear: "Sweep the table",
    refused: "Not applied", preview_paused: "Preview paused", preview_pause: "Pause preview", preview_show: "Show preview", bank: "from the bank", chips_n: "{n} chips",
    rules_note: "Rules checked by the companion", you_roll: "Dice in hand", reading_none: "Waiting for the dice to settle…",
    white: "white", grey: "grey", neutral: "neutral",
    c_red: "red", c_blue: "blue", c_darkblue: "dark blue", c_green: "green", c_yellow: "yellow", c_white: "white",
    c_black: "black", c_purple: "purple", c_grey: "grey", c_orange: "orange", c_pink: "pink",
    tk_use: "use", tk_take: "take", tk_reward: "reward", tk_big: "Biggy", tk_from: "from casino",
    tk_tiles: "tiles", tk_guessed: "guessed", tk_dice: "dice", tk_close: "close casino", tk_value: "value",
    tk_tile: "tile", tk_regular: "regular dice", tk_place: "place", tk_pile: "tokens", tk_number: "number",
    tk_money: "money", tk_cluster: "group", tk_chips: "chips", tk_casino: "casino", tk_biggy_from: "Biggy from",
    tk_biggy: "Biggy", tk_bet: "bet", yes: "yes", no: "no",
    one_regular: "die", one_biggy: "Biggy", one_neutral: "white die", one_kickers: "kicker",
    many_regular: "dice", many_biggy: "Biggies", many_neutral: "white dice", many_kickers: "kickers",
    why_not_rolling: "the game does not wait for a roll now",
    why_other_colour: "{colour} is {owner}'s colour; it is {player}'s turn",
    why_no_such_colour: "no dice of this game are {colour}",
    why_too_many: "{player} has only {count} {kind} to roll",
    why_blank: "a blank die is never rolled",
    why_unsure: "could not be read for sure: cocked, half out of view or blurred",
    why_missing: "read {seen} of {player}'s {count} {kind}",
    why_wrong_pin: "wrong PIN; this tablet stays a viewer",
    why_no_game: "no game is on the table; start a new game first",
    why_viewer: "this tablet is a viewer; enter the PIN to control the game",
    why_stale: "the table changed since this page was drawn (another tablet or the camera acted first); nothing was applied, the page now shows the table",
    why_name_length: "a player's name is 1-{most} characters",
    why_neutral_colour: "white dice are the neutral dice in this game; pick another colour",
    why_kicker_colour: "purple dice are the kickers in this game; pick another colour",
    why_same_colour: "each player needs their own dice colour",
    why_calibrate_first: "start a game first: calibration learns the colours of its dice",
    why_no_picture: "the camera shows no picture; calibration needs one",
    why_calibrate_count: "put exactly one die of each colour ({colours}) in the arena; the camera sees {seen} dice",
    why_no_picture_sheet: "the camera shows no picture; the marker sheet cannot be found",
    why_no_sheet: "no marker sheet found in the picture; check it is in view and flat",
  },
  de: {
    title: "Las Vegas", round: "Runde {round} von {rounds}", connecting: "verbinde…",
    live: "live", reconnecting: "verbinde neu…", viewer: "Zuschauer", controlling: "Du steuerst das Spiel",
    take_control: "Steuern", pin_title: "PIN eingeben, um das Spiel zu steuern", ok: "OK", cancel: "Abbrechen",
    undo: "Rückgängig", redo: "Wiederholen", show_qr: "Adresse", qr_help: "Scannen, um diese Seite auf einem Tablet zu öffnen",
    language: "English", close: "Schließen",
    new_game: "Neues Spiel", edition: "Ausgabe", options: "Optionen", players: "Spieler",
    add_player: "Spieler hinzufügen", remove: "Entfernen", name: "Name", colour: "Würfelfarbe",
    start_player: "Startspieler", start: "Spiel starten", history: "Gespeicherte Spiele",
    download: "Protokoll herunterladen", open: "Öffnen", import: "Protokoll importieren", finished: "beendet",
    in_progress: "läuft", no_games: "Noch keine gespeicherten Spiele.", events_n: "{n} Schritte",
    ed_classic: "Las Vegas (2012) mit Varianten", ed_custom: "Custom Edition", ed_royale: "Las Vegas Royale",
    ed_cards: "Las Vegas Kartenspiel",
    opt_neutral_dice: "Neutrale weiße Würfel", opt_min_money_by_players: "Mindestgeld nach Spielerzahl",
    opt_big_notes: "100.000-$-Scheine", opt_biggies: "Biggies", opt_kickers: "Kicker (violette Würfel)",
    opt_rainbow: "Regenbogenkarten", opt_slot_machine: "Spielautomat", opt_chip_cards: "Chipkarten",
    opt_leftovers: "Übrige Scheine eines Casinos", opt_reshuffle: "Benutzte Scheine neu mischen, wenn der Stapel leer ist",
    opt_skip_rule: "Passen-Regel", opt_skip_limit: "Passen pro Runde (0: unbegrenzt)", opt_rounds: "Runden",
    opt_sequential: "Reihum-Variante", opt_tiles: "Casinoplättchen pro Runde",
    val_pile: "unter den Stapel", val_out: "aus dem Spiel", val_none: "keine", val_chips: "A: Chips",
    val_cards: "B: Karten",
    phase_deal: "Geld auslegen", phase_roll: "{name} würfelt", phase_choose: "{name} wählt",
    phase_cards: "{name} legt Karten aus", phase_tile: "{name} entscheidet ein Plättchen", phase_rainbow: "Regenbogenkarten ersetzen",
    phase_payout: "Alle Würfel gesetzt: Auszahlung", phase_over: "Spielende",
    casino: "Casino {n}", slot_machine: "Spielautomat", leads: "führt", tied: "Gleichstand", no_dice: "noch keine Würfel",
    deal_title: "Runde {round}: Geld auslegen", deal_help: "Casino antippen, dann die Scheine, die dort liegen.",
    deal_pairs_help: "Je zwei Karten ziehen; die Paare werden automatisch nach Summe gelegt (das kleinste an Casino 1).",
    minimum: "mindestens {m}", notes_n: "{n} Scheine", pair_n: "Paar {n}", deal_confirm: "Auslage bestätigen",
    deal_random: "Zufällig auslegen (simulierter Stapel)", clear: "Leeren", chip_card: "Chipkarte",
    start_dice: "Startwürfel des gedachten Spielers", tiles_pick: "Casinoplättchen dieser Runde",
    dice_left: "noch {n} Würfel", kind_regular: "Würfel", kind_biggy: "Biggy", kind_neutral: "weiß",
    kind_kickers: "Kicker", roll_sim: "Würfeln (simulierter Tisch)", roll_random: "Zufällig würfeln",
    roll_hand: "Wurf von Hand eingeben", roll_apply: "Diesen Wurf übernehmen", camera_read: "Die Kamera las",
    camera_flagged: "Einige Würfel passen nicht; korrigieren oder von Hand eingeben.",
    camera_applied: "Von der Kamera gelesen", place: "{count} × {n} → Casino {n}", place_slot: "{count} × {n} → Spielautomat",
    kick: "{size} von {name} kicken", kick_die: "einen Würfel", kick_biggy: "einen Biggy", take_chip: "die {colour} Chipkarte nehmen",
    skip: "Passen (Chip / Passkarte abgeben)", take_off: "Die {n}er vom Tisch nehmen", power_play: "Power Play: einen Würfel auf {n} drehen",
    power_play_big: "Power Play: den Biggy auf {n} drehen",
    pay_out: "Runde {round} auszahlen", rainbow_random: "Zufällig ziehen", rainbow_help: "Für jede Regenbogenkarte an Casino {list} einen Schein ziehen.",
    tile_help: "{tile}: {ask}", tile_random: "Zufällig werfen / ziehen", choice: "Wählen",
    cards_help: "1–2 Karten auslegen, oder bis zu 5 einer Zahl.", add_card: "Karte hinzufügen", cards_confirm: "Diese Karten auslegen", cards_random: "Zufällige Karten",
    card_dice: "{d} Würfel", payout_title: "Auszahlung Runde {round}", next_casino: "Nächstes Casino",
    show_all: "Alle zeigen", counted: "Gezählte Würfel", tie_struck: "{names}: Gleichstand mit {d} Würfeln — kein Schein, Würfel zurück",
    award: "{rank}. {name} erhält {note}", empty_handed: "{names}: kein Schein mehr übrig", leftover_pile: "{notes} kommen unter den Stapel",
    leftover_out: "{notes} verlassen das Spiel", nothing_left: "keine Scheine übrig", standings: "Stand",
    money: "Geld", notes: "Scheine", winner: "{names} gewinnt!", winners: "{names} gewinnen gemeinsam!",
    why_money: "Das meiste Geld.", why_notes: "Gleich viel Geld; die meisten Scheine entscheiden.",
    why_shared: "Gleich viel Geld und gleich viele Scheine: geteilter Sieg.", continue: "Weiter",
    camera: "Kamera", cam_ok: "Kamera an", cam_lost: "Kamera weg — Würfe von Hand eingeben", cam_off: "keine Kamera",
    cam_starting: "Kamera startet…", calibrate: "Farben kalibrieren", calibrate_lay: "Je einen Würfel jeder Farbe hinlegen",
    calibrate_help: "Je einen Würfel jeder Farbe ({list}) in die Arena legen, dann kalibrieren.",
    zones_markers: "Markerbogen suchen", zones_corners: "Die 4 Ecken der Arena antippen", zones_clear: "Zonen löschen",
    zones_now: "Zonen: {list}", zones_none: "Keine Zonen: jeder sichtbare Würfel zählt.", sim_clear: "Tisch abräumen",
    refused: "Nicht übernommen", preview_paused: "Vorschau pausiert", preview_pause: "Vorschau anhalten", preview_show: "Vorschau zeigen", bank: "von der Bank", chips_n: "{n} Chips",
    rules_note: "Regeln vom Begleiter geprüft", you_roll: "Würfel in der Hand", reading_none: "Warte, bis die Würfel liegen…",
    white: "weiß", grey: "grau", neutral: "neutral",
    c_red: "rot", c_blue: "blau", c_darkblue: "dunkelblau", c_green: "grün", c_yellow: "gelb", c_white: "weiß",
    c_black: "schwarz", c_purple: "lila", c_grey: "grau", c_orange: "orange", c_pink: "rosa",
    tk_use: "nutzen", tk_take: "nehmen", tk_reward: "Belohnung", tk_big: "Biggy", tk_from: "von Casino",
    tk_tiles: "Plättchen", tk_guessed: "geraten", tk_dice: "Würfel", tk_close: "Casino schließen", tk_value: "Wert",
    tk_tile: "Plättchen", tk_regular: "normale Würfel", tk_place: "setzen", tk_pile: "Marker", tk_number: "Zahl",
    tk_money: "Geld", tk_cluster: "Gruppe", tk_chips: "Chips", tk_casino: "Casino", tk_biggy_from: "Biggy von",
    tk_biggy: "Biggy", tk_bet: "Einsatz", yes: "ja", no: "nein",
    one_regular: "Würfel", one_biggy: "Biggy", one_neutral: "weißen Würfel", one_kickers: "Kicker",
    many_regular: "Würfel", many_biggy: "Biggies", many_neutral: "weiße Würfel", many_kickers: "Kicker",
    why_not_rolling: "Das Spiel wartet gerade auf keinen Wurf",
    why_other_colour: "{colour} ist die Farbe von {owner}; {player} ist am Zug",
    why_no_such_colour: "Kein Würfel dieses Spiels hat die Farbe {colour}",
    why_too_many: "{player} hat nur {count} {kind} zum Würfeln",
    why_blank: "Ein Würfel ohne Augen wird nie gewürfelt",
    why_unsure: "nicht sicher gelesen: gekippt, halb außer Sicht oder unscharf",
    why_missing: "{kind} von {player}: {seen} von {count} gelesen",
    why_wrong_pin: "Falsche PIN; dieses Tablet bleibt Zuschauer",
    why_no_game: "Kein Spiel auf dem Tisch; zuerst ein neues Spiel starten",
    why_viewer: "Dieses Tablet ist Zuschauer; PIN eingeben, um das Spiel zu steuern",
    why_stale: "Der Tisch hat sich geändert, seit diese Seite gezeichnet wurde (ein anderes Tablet oder die Kamera war schneller); nichts wurde übernommen, die Seite zeigt jetzt den Tisch",
    why_name_length: "Ein Spielername hat 1 bis {most} Zeichen",
    why_neutral_colour: "Weiße Würfel sind in diesem Spiel die neutralen Würfel; bitte eine andere Farbe wählen",
    why_kicker_colour: "Violette Würfel sind in diesem Spiel die Kicker; bitte eine andere Farbe wählen",
    why_same_colour: "Jeder Spieler braucht seine eigene Würfelfarbe",
    why_calibrate_first: "Zuerst ein Spiel starten: die Kalibrierung lernt die Farben seiner Würfel",
    why_no_picture: "Die Kamera zeigt kein Bild; die Kalibrierung braucht eines",
    why_calibrate_count: "Genau einen Würfel jeder Farbe ({colours}) in die Arena legen; die Kamera sieht {seen} Würfel",
    why_no_picture_sheet: "Die Kamera zeigt kein Bild; der Markerbogen ist nicht zu finden",
    why_no_sheet: "Kein Markerbogen im Bild; liegt er flach und im Blick?",
  },
};

let LANG = "en";

function setLanguage(lang) {
  LANG = WORDS[lang] ? lang : "en";
  document.documentElement.lang = LANG;
}

function t(key, params) {
  const text = (WORDS[LANG][key] ?? WORDS.en[key] ?? key);
  return text.replace(/\{(\w+)\}/g, (_, name) => (params && name in params ? String(params[name]) : ""));
}

function note(value) {
  // A dealt note; 0 stands for a Rainbow card.
  return value === 0 ? (LANG === "de" ? "Regenbogen" : "Rainbow") : money(value);
}

function money(amount) {
  const sep = LANG === "de" ? "." : ",";
  const digits = String(Math.abs(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return (amount < 0 ? "-" : "") + (LANG === "de" ? digits + " $" : "$" + digits);
}

function tOr(key, fallback) {
  return WORDS[LANG][key] ?? WORDS.en[key] ?? fallback;
}

function whyText(why, english) {
  // A reading problem or a refusal in the page's language: {key, ...values} from the server,
  // else the server's English text.
  if (!why || !WORDS.en["why_" + why.key]) return english;
  const values = {...why};
  if ("colour" in values) values.colour = colourName(values.colour);
  if (Array.isArray(values.colours)) values.colours = values.colours.map(colourName).join(", ");
  if ("kind" in values) values.kind = t((values.count === 1 ? "one_" : "many_") + values.kind);
  return t("why_" + why.key, values);
}

function colourName(colour) {
  // A colour's name; one the page has no word for (a colour added by calibration) shows as it is.
  return tOr("c_" + colour, colour);
}
