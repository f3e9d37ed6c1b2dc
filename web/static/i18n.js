// Words on the page in English and German. t("key", {n: 3}) fills {n}.
"use strict";

const WORDS = {
  en: {
    title: "Las Vegas", round: "Round {round} of {rounds}", connecting: "connecting…",
    live: "live", reconnecting: "reconnecting…", viewer: "Viewer", controlling: "You control the game",
    take_control: "Control", pin_title: "Enter the PIN to control the game", ok: "OK", cancel: "Cancel",
    undo: "Undo", redo: "Redo", show_qr: "Address", qr_help: "Scan to open this page on a tablet",
    language: "Deutsch", close: "Close",
    new_game: "New game", edition: "Edition", options: "Options", players: "Players", player_n: "Player {n}",
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
    opt_two_kickers: "Two kickers each with 2-5 players (else one)", opt_power_play: "Power Play token usable",
    val_next: "on the next turn only", val_any: "on any later turn",
    opt_money_cards: "Money cards (thousands x count)", opt_black_box: "Black Box tokens (thousands)",
    opt_fifty_fifty: "Fifty Fifty track (thousands)", opt_no_entry: "No Entry track (thousands, 2c = 2 chips)",
    opt_nice_dice: "Nice Dice spaces 1-6 (thousands, 2c = 2 chips)",
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
    camera_applied: "Read by the camera", left_out_one: "1 die that lay there before the throw is left out",
    left_out_many: "{count} dice that lay there before the throw are left out",
    place: "{count} × {n} → casino {n}", place_slot: "{count} × {n} → slot machine",
    kick: "kick {size} of {name}", kick_die: "a die", kick_biggy: "a Biggy", take_chip: "take the {colour} chip card",
    skip: "Pass (pay a chip / skip card)", take_off: "Take the {n}s off the table", power_play: "Power Play: turn a die to {n}",
    power_play_big: "Power Play: turn the Biggy to {n}",
    pay_out: "Pay out round {round}", rainbow_random: "Draw at random", rainbow_help: "Draw a note for each Rainbow card at casinos {list}.",
    tile_help: "{tile}: {ask}", tile_random: "Throw / draw at random", choice: "Choose",
    closes: "closes casino {n}", tile_effect: "Tile {tile} (casino {n}): {name} {what}", chips_n: "{n} chips", extra_die: "Extra die {n}", extra_place: "place it", extra_enter: "Enter the throw",
    cards_help: "Lay out 1–2 cards, or up to 5 of one number.", add_card: "Add card", cards_confirm: "Lay out these cards", cards_random: "Cards at random",
    card_dice: "{d} dice", payout_title: "Round {round} payout", next_casino: "Next casino",
    show_all: "Show all", counted: "Counted dice",
    award: "{rank}. {name} takes {note}", empty_handed: "{names}: no note left", leftover_pile: "back under the pile: {notes}",
    leftover_out: "{notes} leave the game", nothing_left: "no notes left over", standings: "Standings",
    money: "Money", notes: "Notes", winner: "{names} wins!", winners: "{names} share the win!",
    why_money: "Most money.", why_notes: "Equal money; most notes wins the tie-break.",
    why_shared: "Equal money and equal notes: a shared win.", continue: "Continue",
    camera: "Camera", cam_ok: "camera on", cam_lost: "camera lost — enter rolls by hand", cam_off: "no camera",
    cam_starting: "camera starting…", calibrate: "Calibrate colours", calibrate_lay: "Lay one die of each colour",
    calibrate_help: "Put one die of each colour ({list}) in the arena, then calibrate.",
    light_judged: "Light judged from the last {n} dice: {words}. Calibrating is surer.", light_white: "white light",
    colours_learnt: "Colours learnt from the rolls played: {list}.",
    light_warm: "warm", light_cool: "cool", light_green: "greenish", light_magenta: "pinkish", light_dim: "dim", light_bright: "bright",
    zones_markers: "Find the marker sheet", zones_corners: "Tap the arena's 4 corners", zones_clear: "Clear zones",
    zones_now: "Zones: {list}", zones_none: "No zones: every die in view counts.", sim_clear: "Sweep the table",
    refused: "Not applied", preview_paused: "Preview paused", preview_pause: "Pause preview", preview_show: "Show preview", bank: "from the bank", chips_n: "{n} chips",
    rules_note: "Rules checked by the companion", you_roll: "Dice in hand", reading_none: "Waiting for the dice to settle…",
    c_red: "red", c_blue: "blue", c_darkblue: "dark blue", c_green: "green", c_yellow: "yellow", c_white: "white",
    c_black: "black", c_purple: "purple", c_grey: "grey", c_orange: "orange", c_pink: "pink",
    tk_use: "use", tk_take: "take", tk_reward: "reward", tk_big: "Biggy", tk_from: "from",
    tk_tiles: "tiles", tk_guessed: "guessed", tk_dice: "dice", tk_close: "close casino", tk_value: "value",
    tk_tile: "tile", tk_regular: "regular dice", tk_place: "place", tk_pile: "tokens", tk_number: "number",
    tk_money: "money", tk_cluster: "group", tk_chips: "chips", tk_casino: "casino", tk_biggy_from: "Biggy from",
    tk_biggy: "Biggy", tk_bet: "bet", yes: "yes", no: "no",
    ask_guess: "did the player on the left guess how many tokens are in the fist?",
    ask_extra_dice: "throw the extra dice", ask_dice_to_move: "which dice move",
    ask_casino_to_close: "which casino to close", ask_die_for_the_tile: "which die goes onto the tile",
    ask_cluster: "which group of dice", ask_blank_die: "the grey die", ask_dice_for_the_bar: "dice for the bar",
    ask_chosen_pile: "the chosen pile", ask_take_or_bet: "take the reward, or bet on the next throw",
    ask_action: "what to do with the tile",
    tv_chips: "2 chips", tv_chip: "a chip", tv_money: "money", tv_rotate: "turn a die", tv_return: "take a die back",
    tv_roll: "the roll", tv_casino: "its casino", tv_higher: "higher", tv_lower: "lower",
    one_regular: "die", one_biggy: "Biggy", one_neutral: "white die", one_kickers: "kicker",
    many_regular: "dice", many_biggy: "Biggies", many_neutral: "white dice", many_kickers: "kickers",
    why_not_rolling: "the game does not wait for a roll now",
    why_other_colour: "{colour} is {owner}'s colour; it is {player}'s turn",
    why_no_such_colour: "no dice of this game are {colour}",
    why_too_many: "{player} has only {count} {kind} to roll",
    why_blank: "a blank die is never rolled",
    why_unsure: "could not be read for sure: cocked, half out of view or blurred",
    why_colour_doubt: "its colour lies between two; read as {colour}, calibrate the colours",
    why_missing: "read {seen} of {player}'s {count} {kind}",
    why_wrong_pin: "wrong PIN; this tablet stays a viewer",
    why_pin_wait: "too many wrong PINs; wait {seconds} s and try again",
    pin_alert: "Wrong PIN entered: {n}× (last from {client}). Only the table's own tablets should know it.",
    why_no_game: "no game is on the table; start a new game first",
    why_viewer: "this tablet is a viewer; enter the PIN to control the game",
    why_check_differs: "the casinos on the table differ from the game: apply the correction, or put the table right and check it again, before the payout",
    why_check_cards: "the card game lays cards, not dice: there is nothing to check",
    why_check_when: "the casinos are checked between turns or before the payout",
    why_check_no_picture: "the camera shows no picture to check",
    why_check_no_casinos: "the camera sees no casino: lay the casino cards with their markers in view, or mark their corners",
    why_stale: "the table changed since this page was drawn (another tablet or the camera acted first); nothing was applied, the page now shows the table",
    why_name_length: "a player's name is 1-{most} characters",
    why_disk_full: "the game file could not be written: the disk is full. Nothing was changed; free some space and try again",
    why_streams_full: "too many pages are open on this table ({cap} at most); close one and this page reconnects by itself",
    why_write_failed: "the game file could not be written; nothing was changed",
    why_abandon_over: "a finished game cannot be abandoned",
    why_neutral_colour: "white dice are the neutral dice in this game; pick another colour",
    why_kicker_colour: "purple dice are the kickers in this game; pick another colour",
    why_blank_colour: "grey dice are the blank dice in this game; pick another colour",
    why_same_colour: "each player needs their own dice colour",
    why_calibrate_first: "start a game first: calibration learns the colours of its dice",
    why_no_picture: "the camera shows no picture; calibration needs one",
    why_calibrate_count: "put exactly one die of each colour ({colours}) in the arena; dice the camera sees: {seen}",
    why_no_picture_sheet: "the camera shows no picture; the marker sheet cannot be found",
    why_no_sheet: "no marker sheet found in the picture; check it is in view and flat",
    why_deal_cards: "casino {casino} takes {wanted} cards; {got} were laid",
    why_deal_short: "casino {casino} must reach {minimum}; its notes make {total}",
    why_deal_over: "casino {casino} had reached {minimum} before its last note; take that note back",
    why_chips_count: "one chip card per casino: {wanted} expected, {got} given",
    why_chip_pick: "pick a chip card for casino {casino}",
    why_chip_none: "no {chip} chip card is left to deal",
    why_start_dice: "pick the {wanted} start dice of this round; {got} picked",
    why_tiles_count: "{wanted} tiles lie out each round; {got} picked",
    why_tiles_faces: "the two faces of one tile cannot both lie out",
    why_pile_empty: "cannot draw {note}: the money pile is empty",
    why_pile_under: "{note} still lies further down the pile; {count} other notes come first",
    why_pile_none: "no {note} is left in the money pile",
    why_player_count: "this edition is for {least}-{most} players, not {got}",
    why_names_distinct: "each player needs their own name",
    why_names_imaginary: "'white' and 'neutral' name the neutral dice; pick another name",
    why_roll_empty: "the roll holds no dice",
    why_roll_count: "{player} holds {count} {kind} but the roll shows {got}",
    why_cards_none: "{player} must lay out at least one card",
    why_cards_hand: "{player} holds only {count} cards",
    why_cards_same: "{player} chose {count} cards: more than 2 cards must all show one number",
    why_rainbow_more: "casino {casino}: more notes drawn than Rainbow cards to replace",
    why_rainbow_short: "casino {casino} had {count} Rainbow cards; only {got} were replaced",
    why_slot_taken: "place {rank} chose {note}, but only {notes} remain",
    why_undo_none: "only {count} steps can be taken back",
    why_redo_none: "there is nothing to redo",
    why_roster_taken: "{name} is on the list already",
    why_roster_unknown: "{name} is not on the list",
    why_roster_full: "the list holds at most {most} players; remove one first",
    why_hints_off: "hints are off for this game; the players may switch them on",
    why_hint_variants: "hints and bots do not cover this game's variants yet",
    why_nobody_decides: "nobody decides now",
  },
  de: {
    title: "Las Vegas", round: "Runde {round} von {rounds}", connecting: "verbinde…",
    live: "live", reconnecting: "verbinde neu…", viewer: "Zuschauer", controlling: "Du steuerst das Spiel",
    take_control: "Steuern", pin_title: "PIN eingeben, um das Spiel zu steuern", ok: "OK", cancel: "Abbrechen",
    undo: "Rückgängig", redo: "Wiederholen", show_qr: "Adresse", qr_help: "Scannen, um diese Seite auf einem Tablet zu öffnen",
    language: "English", close: "Schließen",
    new_game: "Neues Spiel", edition: "Ausgabe", options: "Optionen", players: "Spieler", player_n: "Spieler {n}",
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
    opt_two_kickers: "Zwei Kicker pro Spieler bei 2-5 Spielern (sonst einer)", opt_power_play: "Power-Play-Marker nutzbar",
    val_next: "nur im nächsten Zug", val_any: "in jedem späteren Zug",
    opt_money_cards: "Geldkarten (Tausender x Anzahl)", opt_black_box: "Black-Box-Marker (Tausender)",
    opt_fifty_fifty: "Fifty-Fifty-Leiste (Tausender)", opt_no_entry: "No-Entry-Leiste (Tausender, 2c = 2 Chips)",
    opt_nice_dice: "Nice-Dice-Felder 1-6 (Tausender, 2c = 2 Chips)",
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
    camera_applied: "Von der Kamera gelesen", left_out_one: "1 Würfel, der schon vor dem Wurf dort lag, bleibt außen vor",
    left_out_many: "{count} Würfel, die schon vor dem Wurf dort lagen, bleiben außen vor",
    place: "{count} × {n} → Casino {n}", place_slot: "{count} × {n} → Spielautomat",
    kick: "{size} von {name} kicken", kick_die: "einen Würfel", kick_biggy: "einen Biggy", take_chip: "die {colour} Chipkarte nehmen",
    skip: "Passen (Chip / Passkarte abgeben)", take_off: "Die {n}er vom Tisch nehmen", power_play: "Power Play: einen Würfel auf {n} drehen",
    power_play_big: "Power Play: den Biggy auf {n} drehen",
    pay_out: "Runde {round} auszahlen", rainbow_random: "Zufällig ziehen", rainbow_help: "Für jede Regenbogenkarte an Casino {list} einen Schein ziehen.",
    tile_help: "{tile}: {ask}", tile_random: "Zufällig werfen / ziehen", choice: "Wählen",
    closes: "schließt Casino {n}", tile_effect: "Plättchen {tile} (Casino {n}): {name} {what}", chips_n: "{n} Chips", extra_die: "Zusatzwürfel {n}", extra_place: "setzen", extra_enter: "Wurf eintragen",
    cards_help: "1–2 Karten auslegen, oder bis zu 5 einer Zahl.", add_card: "Karte hinzufügen", cards_confirm: "Diese Karten auslegen", cards_random: "Zufällige Karten",
    card_dice: "{d} Würfel", payout_title: "Auszahlung Runde {round}", next_casino: "Nächstes Casino",
    show_all: "Alle zeigen", counted: "Gezählte Würfel",
    award: "{rank}. {name} erhält {note}", empty_handed: "{names}: kein Schein mehr übrig", leftover_pile: "zurück unter den Stapel: {notes}",
    leftover_out: "{notes} verlassen das Spiel", nothing_left: "keine Scheine übrig", standings: "Stand",
    money: "Geld", notes: "Scheine", winner: "{names} gewinnt!", winners: "{names} gewinnen gemeinsam!",
    why_money: "Das meiste Geld.", why_notes: "Gleich viel Geld; die meisten Scheine entscheiden.",
    why_shared: "Gleich viel Geld und gleich viele Scheine: geteilter Sieg.", continue: "Weiter",
    camera: "Kamera", cam_ok: "Kamera an", cam_lost: "Kamera weg — Würfe von Hand eingeben", cam_off: "keine Kamera",
    cam_starting: "Kamera startet…", calibrate: "Farben kalibrieren", calibrate_lay: "Je einen Würfel jeder Farbe hinlegen",
    calibrate_help: "Je einen Würfel jeder Farbe ({list}) in die Arena legen, dann kalibrieren.",
    light_judged: "Licht aus den letzten {n} Würfeln geschätzt: {words}. Kalibrieren ist sicherer.", light_white: "weißes Licht",
    colours_learnt: "Farben aus den gespielten Würfen gelernt: {list}.",
    light_warm: "warm", light_cool: "kühl", light_green: "grünstichig", light_magenta: "rosastichig", light_dim: "dunkel", light_bright: "hell",
    zones_markers: "Markerbogen suchen", zones_corners: "Die 4 Ecken der Arena antippen", zones_clear: "Zonen löschen",
    zones_now: "Zonen: {list}", zones_none: "Keine Zonen: jeder sichtbare Würfel zählt.", sim_clear: "Tisch abräumen",
    refused: "Nicht übernommen", preview_paused: "Vorschau pausiert", preview_pause: "Vorschau anhalten", preview_show: "Vorschau zeigen", bank: "von der Bank", chips_n: "{n} Chips",
    rules_note: "Regeln vom Begleiter geprüft", you_roll: "Würfel in der Hand", reading_none: "Warte, bis die Würfel liegen…",
    c_red: "rot", c_blue: "blau", c_darkblue: "dunkelblau", c_green: "grün", c_yellow: "gelb", c_white: "weiß",
    c_black: "schwarz", c_purple: "lila", c_grey: "grau", c_orange: "orange", c_pink: "rosa",
    tk_use: "nutzen", tk_take: "nehmen", tk_reward: "Belohnung", tk_big: "Biggy", tk_from: "aus",
    tk_tiles: "Plättchen", tk_guessed: "geraten", tk_dice: "Würfel", tk_close: "Casino schließen", tk_value: "Wert",
    tk_tile: "Plättchen", tk_regular: "normale Würfel", tk_place: "setzen", tk_pile: "Marker", tk_number: "Zahl",
    tk_money: "Geld", tk_cluster: "Gruppe", tk_chips: "Chips", tk_casino: "Casino", tk_biggy_from: "Biggy von",
    tk_biggy: "Biggy", tk_bet: "Einsatz", yes: "ja", no: "nein",
    ask_guess: "Hat der linke Nachbar erraten, wie viele Marker in der Faust sind?",
    ask_extra_dice: "Die Zusatzwürfel werfen", ask_dice_to_move: "Welche Würfel versetzt werden",
    ask_casino_to_close: "Welches Casino geschlossen wird", ask_die_for_the_tile: "Welcher Würfel aufs Plättchen kommt",
    ask_cluster: "Welche Würfelgruppe", ask_blank_die: "Der graue Würfel", ask_dice_for_the_bar: "Würfel für die Bar",
    ask_chosen_pile: "Der gewählte Stapel", ask_take_or_bet: "Die Belohnung nehmen oder auf den nächsten Wurf wetten",
    ask_action: "Was mit dem Plättchen geschieht",
    tv_chips: "2 Chips", tv_chip: "ein Chip", tv_money: "Geld", tv_rotate: "einen Würfel drehen", tv_return: "einen Würfel zurücknehmen",
    tv_roll: "Wurf", tv_casino: "seinem Casino", tv_higher: "höher", tv_lower: "niedriger",
    one_regular: "Würfel", one_biggy: "Biggy", one_neutral: "weißen Würfel", one_kickers: "Kicker",
    many_regular: "Würfel", many_biggy: "Biggies", many_neutral: "weiße Würfel", many_kickers: "Kicker",
    why_not_rolling: "Das Spiel wartet gerade auf keinen Wurf",
    why_other_colour: "{colour} ist die Farbe von {owner}; {player} ist am Zug",
    why_no_such_colour: "Kein Würfel dieses Spiels hat die Farbe {colour}",
    why_too_many: "{player} hat nur {count} {kind} zum Würfeln",
    why_blank: "Ein Würfel ohne Augen wird nie gewürfelt",
    why_unsure: "nicht sicher gelesen: gekippt, halb außer Sicht oder unscharf",
    why_colour_doubt: "Farbe liegt zwischen zwei Farben; als {colour} gelesen, Farben kalibrieren",
    why_missing: "{kind} von {player}: {seen} von {count} gelesen",
    why_wrong_pin: "Falsche PIN; dieses Tablet bleibt Zuschauer",
    why_pin_wait: "zu viele falsche PINs; in {seconds} s noch einmal versuchen",
    pin_alert: "Falsche PIN eingegeben: {n}× (zuletzt von {client}). Nur die Tablets am Tisch sollten sie kennen.",
    why_no_game: "Kein Spiel auf dem Tisch; zuerst ein neues Spiel starten",
    why_viewer: "Dieses Tablet ist Zuschauer; PIN eingeben, um das Spiel zu steuern",
    why_check_differs: "Die Casinos auf dem Tisch weichen vom Spiel ab: vor der Auszahlung die Korrektur übernehmen oder den Tisch richten und erneut prüfen",
    why_check_cards: "Das Kartenspiel legt Karten, keine Würfel: es gibt nichts zu prüfen",
    why_check_when: "Die Casinos werden zwischen zwei Zügen oder vor der Auszahlung geprüft",
    why_check_no_picture: "Die Kamera zeigt kein Bild zum Prüfen",
    why_check_no_casinos: "Die Kamera sieht kein Casino: die Casinokarten mit ihren Markern ins Bild legen oder ihre Ecken markieren",
    why_stale: "Der Tisch hat sich geändert, seit diese Seite gezeichnet wurde (ein anderes Tablet oder die Kamera war schneller); nichts wurde übernommen, die Seite zeigt jetzt den Tisch",
    why_name_length: "Ein Spielername hat 1 bis {most} Zeichen",
    why_disk_full: "Die Spieldatei konnte nicht geschrieben werden: der Datenträger ist voll. Nichts wurde geändert; bitte Platz schaffen und erneut versuchen",
    why_streams_full: "Zu viele Seiten sind an diesem Tisch geöffnet (höchstens {cap}); schließen Sie eine, dann verbindet sich diese Seite von selbst",
    why_write_failed: "Die Spieldatei konnte nicht geschrieben werden; nichts wurde geändert",
    why_abandon_over: "ein beendetes Spiel kann nicht abgebrochen werden",
    why_neutral_colour: "Weiße Würfel sind in diesem Spiel die neutralen Würfel; bitte eine andere Farbe wählen",
    why_kicker_colour: "Violette Würfel sind in diesem Spiel die Kicker; bitte eine andere Farbe wählen",
    why_blank_colour: "Graue Würfel sind in diesem Spiel die Würfel ohne Augen; bitte eine andere Farbe wählen",
    why_same_colour: "Jeder Spieler braucht seine eigene Würfelfarbe",
    why_calibrate_first: "Zuerst ein Spiel starten: die Kalibrierung lernt die Farben seiner Würfel",
    why_no_picture: "Die Kamera zeigt kein Bild; die Kalibrierung braucht eines",
    why_calibrate_count: "Genau einen Würfel jeder Farbe ({colours}) in die Arena legen; Würfel, die die Kamera sieht: {seen}",
    why_no_picture_sheet: "Die Kamera zeigt kein Bild; der Markerbogen ist nicht zu finden",
    why_no_sheet: "Kein Markerbogen im Bild; liegt er flach und im Blick?",
    why_deal_cards: "Casino {casino} bekommt {wanted} Karten; gelegt wurden {got}",
    why_deal_short: "Casino {casino} braucht mindestens {minimum}; seine Scheine ergeben {total}",
    why_deal_over: "Casino {casino} hatte {minimum} schon vor seinem letzten Schein erreicht; diesen Schein zurücknehmen",
    why_chips_count: "Eine Chipkarte pro Casino: {wanted} erwartet, {got} gewählt",
    why_chip_pick: "Für Casino {casino} eine Chipkarte wählen",
    why_chip_none: "Keine Chipkarte {chip} mehr zum Auslegen übrig",
    why_start_dice: "Die {wanted} Startwürfel dieser Runde wählen; gewählt: {got}",
    why_tiles_count: "Jede Runde liegen {wanted} Plättchen aus; gewählt: {got}",
    why_tiles_faces: "Die beiden Seiten eines Plättchens können nicht zugleich ausliegen",
    why_pile_empty: "{note} kann nicht gezogen werden: der Geldstapel ist leer",
    why_pile_under: "{note} liegt weiter unten im Stapel; zuerst kommen {count} andere Scheine",
    why_pile_none: "Kein Schein {note} mehr im Geldstapel",
    why_player_count: "Diese Ausgabe ist für {least} bis {most} Spieler, nicht {got}",
    why_names_distinct: "Jeder Spieler braucht seinen eigenen Namen",
    why_names_imaginary: "„white“ und „neutral“ bezeichnen die neutralen Würfel; bitte einen anderen Namen wählen",
    why_roll_empty: "Der Wurf enthält keine Würfel",
    why_roll_count: "{player} hat {count} {kind}, der Wurf zeigt aber {got}",
    why_cards_none: "{player} muss mindestens eine Karte auslegen",
    why_cards_hand: "{player} hat nur {count} Karten auf der Hand",
    why_cards_same: "{player} hat {count} Karten gewählt: mehr als 2 Karten müssen alle dieselbe Zahl zeigen",
    why_rainbow_more: "Casino {casino}: mehr Scheine gezogen als Regenbogenkarten zu ersetzen sind",
    why_rainbow_short: "Casino {casino} hatte {count} Regenbogenkarten; ersetzt wurden nur {got}",
    why_slot_taken: "Platz {rank} hat {note} gewählt, übrig sind aber nur {notes}",
    why_undo_none: "Nur {count} Schritte können zurückgenommen werden",
    why_redo_none: "Es gibt nichts zu wiederholen",
    why_roster_taken: "{name} steht schon auf der Liste",
    why_roster_unknown: "{name} steht nicht auf der Liste",
    why_roster_full: "Die Liste fasst höchstens {most} Spieler; erst einen entfernen",
    why_hints_off: "Tipps sind für dieses Spiel aus; die Spieler können sie einschalten",
    why_hint_variants: "Tipps und Bots decken die Varianten dieses Spiels noch nicht ab",
    why_nobody_decides: "Gerade entscheidet niemand",
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

/** The imaginary owners of dice (the server's `IMAGINARY_OWNERS`: white and grey dice, the
 *  neutral set) by the name the server gives them, in each language of the page. */
const IMAGINARY_OWNERS = {
  en: {white: "white", grey: "grey", neutral: "neutral"},
  de: {white: "weiß", grey: "grau", neutral: "neutral"},
};

function imaginaryOwner(name) {
  return (IMAGINARY_OWNERS[LANG] || IMAGINARY_OWNERS.en)[name] ?? IMAGINARY_OWNERS.en[name] ?? name;
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
  for (const name of ["minimum", "total"]) if (name in values) values[name] = money(values[name]);
  if ("note" in values) values.note = note(values.note);
  if (Array.isArray(values.notes)) values.notes = values.notes.map(note).join(", ");
  return t("why_" + why.key, values);
}

function colourName(colour) {
  // A colour's name; one the page has no word for (a colour added by calibration) shows as it is.
  return tOr("c_" + colour, colour);
}

// Words of the game log, the payout, the score table and the menus.
Object.assign(WORDS.en, {
  log_deal: "Round {round}: the money is laid out", log_roll: "{name} rolls {values}",
  log_place: "{name} places {what} on {where}", log_skip: "{name} passes", log_cards: "{name} lays out {cards}",
  log_power_play: "{name} plays Power Play: a die to {n}", log_tile: "{name}, {tile} on {where}: {what}",
  log_rainbow: "Rainbow cards replaced by {notes}", log_correct: "{where} corrected to the table: {n} dice lie there", log_payout: "Round {round} is paid out",
  log_tie: "{where}: {names} tied at {d}, cancelled", log_award: "{name} takes {note} from {where}",
  counts_n: "counts {n}", undone: "Undone: {what}", redone: "Done again: {what}",
  control_moved: "Another tablet controls the game now.", control_lost: "Another tablet took control; this one is a viewer now.",
  menu: "Menu", rematch: "Rematch", score_table: "Score", game_log: "Game log", payouts: "Payouts of every round",
  table_mode: "Table mode", table_exit: "Leave table mode", stats: "Players' statistics", print: "Print or save",
  total: "Total", round_short: "R{round}", round_of: "round {round}", tied_at: "tied at {d}", tie_group: "{names} tied at {d}: cancelled, these dice don't count",
  neutral_note_goes: "goes back under the pile", no_note_left: "no note left", two_dice_card: "2-dice card",
  two_dice_cards: "2-dice cards", games: "Games", wins: "Wins", average: "Average", best: "Best",
  notes_per_casino: "Notes won per casino", no_stats: "No finished games yet.", roster: "Played before:",
  tp_biggy_from: "the Biggy from casino {v}", tp_from: "from casino {v}", tp_close: "close casino {v}",
  tp_casino: "onto casino {v}", tp_cluster: "the group of {v}", tp_guessed_true: "guessed right",
  tp_guessed_false: "guessed wrong", tp_reward: "reward {v}", tp_big_true: "the Biggy", tp_big_false: "a regular die",
  tp_biggy_true: "with the Biggy", tp_biggy_false: "without the Biggy", tp_regular: "{v} regular dice",
  tp_use: "use the {v}", tp_value: "turn it to {v}", tp_number: "the {v}s", tp_dice: "dice {v}", tp_place: "place {v}",
  tp_pile: "pile {v}", tp_tile: "the tile at casino {v}", tp_take_true: "take the reward", tp_take_false: "bet on",
  tp_take: "take from casino {v}", tp_bet: "bet {v}", tp_money: "money {v}", tp_chips: "{v} chips",
  abandon: "Abandon this game", abandon_sure: "Tap again to abandon this game", abandoned: "abandoned",
});
Object.assign(WORDS.de, {
  log_deal: "Runde {round}: das Geld liegt aus", log_roll: "{name} würfelt {values}",
  log_place: "{name} setzt {what} auf {where}", log_skip: "{name} passt", log_cards: "{name} legt {cards} aus",
  log_power_play: "{name} spielt Power Play: ein Würfel auf {n}", log_tile: "{name}, {tile} an {where}: {what}",
  log_rainbow: "Regenbogenkarten ersetzt durch {notes}", log_correct: "{where} nach dem Tisch korrigiert: {n} Würfel liegen dort", log_payout: "Runde {round} wird ausgezahlt",
  log_tie: "{where}: {names} gleichauf mit {d}, fällt weg", log_award: "{name} nimmt {note} von {where}",
  counts_n: "zählt {n}", undone: "Zurückgenommen: {what}", redone: "Wiederholt: {what}",
  control_moved: "Ein anderes Tablet steuert jetzt das Spiel.", control_lost: "Ein anderes Tablet hat die Steuerung übernommen; dieses zeigt nur noch an.",
  menu: "Menü", rematch: "Revanche", score_table: "Punktestand", game_log: "Spielverlauf", payouts: "Auszahlungen aller Runden",
  table_mode: "Tischansicht", table_exit: "Tischansicht verlassen", stats: "Spielerstatistik", print: "Drucken oder speichern",
  total: "Summe", round_short: "R{round}", round_of: "Runde {round}", tied_at: "gleichauf bei {d}", tie_group: "{names} gleichauf bei {d}: fällt weg, diese Würfel zählen nicht",
  neutral_note_goes: "geht zurück unter den Stapel", no_note_left: "kein Schein mehr übrig", two_dice_card: "2-Würfel-Karte",
  two_dice_cards: "2-Würfel-Karten", games: "Spiele", wins: "Siege", average: "Schnitt", best: "Bestes",
  notes_per_casino: "Gewonnene Scheine je Casino", no_stats: "Noch keine beendeten Spiele.", roster: "Schon gespielt:",
  tp_biggy_from: "den Biggy von Casino {v}", tp_from: "von Casino {v}", tp_close: "Casino {v} schließen",
  tp_casino: "auf Casino {v}", tp_cluster: "die Gruppe mit {v}", tp_guessed_true: "richtig geraten",
  tp_guessed_false: "falsch geraten", tp_reward: "Belohnung {v}", tp_big_true: "den Biggy", tp_big_false: "einen normalen Würfel",
  tp_biggy_true: "mit dem Biggy", tp_biggy_false: "ohne den Biggy", tp_regular: "{v} normale Würfel",
  tp_use: "die {v} nutzen", tp_value: "auf {v} drehen", tp_number: "die {v}er", tp_dice: "Würfel {v}", tp_place: "{v} setzen",
  tp_pile: "Stapel {v}", tp_tile: "das Plättchen an Casino {v}", tp_take_true: "Belohnung nehmen", tp_take_false: "weiter wetten",
  tp_take: "von Casino {v} nehmen", tp_bet: "auf {v} wetten", tp_money: "Geld {v}", tp_chips: "{v} Chips",
  abandon: "Spiel abbrechen", abandon_sure: "Nochmals tippen, um das Spiel abzubrechen", abandoned: "abgebrochen",
});

// Words of the roster: players the table knows, with their usual colours.
Object.assign(WORDS.en, {
  roster_title: "Players and colours", roster_edit: "Edit players…", roster_rename: "Rename",
  roster_help: "Players this table knows and the dice colour each usually plays. The new-game form offers them; a player of a new game joins by playing.",
  roster_empty: "Nobody yet: add a player below.", roster_removed: "{name} is off the list (their games stay).",
  games_n: "{n} games", games_one: "1 game",
});
Object.assign(WORDS.de, {
  roster_title: "Spieler und Farben", roster_edit: "Spieler bearbeiten…", roster_rename: "Umbenennen",
  roster_help: "Die Spieler dieses Tisches und die Würfelfarbe, die jeder meist spielt. Das Formular für ein neues Spiel bietet sie an; wer ein neues Spiel mitspielt, kommt dazu.",
  roster_empty: "Noch niemand: unten einen Spieler hinzufügen.", roster_removed: "{name} steht nicht mehr auf der Liste (die Spiele bleiben).",
  games_n: "{n} Spiele", games_one: "1 Spiel",
});

// Words of the round-end check of the casinos against the table.
Object.assign(WORDS.en, {
  check_title: "The table differs from the game", check_help: "The payout waits. For each casino below: apply the correction if the table is right, or put the dice right on the table and check again.",
  table_checked: "Table checked: the casinos show what the game holds.", check_table: "Check the table",
  check_again: "Check again", check_on_table: "table", check_in_game: "game",
  check_not_seen: "The camera does not see this casino.", check_unsure: "{n} dice not read for sure: look at them.", check_unsure_one: "1 die not read for sure: look at it.", check_biggy_doubt: "{name}'s Biggy ({colour}) was read on no casino: one of their dice here, boxed in orange, may be it. Look at them.", check_doubt_title: "Dice in doubt on the table", check_doubt_changes_nothing: "Table checked: whatever the dice not read for sure are, the payout is the same, so it may go on.",
  check_at_payout: "At payout", check_correct: "Apply the correction (the table is right)",
  check_no_photo: "The photo could not be kept in the game file (the disk is full).",
  sim_fix_casinos: "Put the simulated table right", sim_misplace_on: "Misplace a die each round", sim_misplace_off: "Stop misplacing dice",
  round_photo: "The casinos at the end of round {round}, as the camera saw them",
  placement_check_on: "Check the casinos after each placement", placement_check_off: "Check the casinos at round end only",
});
Object.assign(WORDS.de, {
  check_title: "Der Tisch weicht vom Spiel ab", check_help: "Die Auszahlung wartet. Für jedes Casino unten: die Korrektur übernehmen, wenn der Tisch stimmt, oder die Würfel auf dem Tisch richten und erneut prüfen.",
  table_checked: "Tisch geprüft: die Casinos zeigen, was das Spiel hält.", check_table: "Tisch prüfen",
  check_again: "Erneut prüfen", check_on_table: "Tisch", check_in_game: "Spiel",
  check_not_seen: "Die Kamera sieht dieses Casino nicht.", check_unsure: "{n} Würfel nicht sicher gelesen: bitte ansehen.", check_unsure_one: "1 Würfel nicht sicher gelesen: bitte ansehen.", check_biggy_doubt: "Der Biggy von {name} ({colour}) wurde auf keinem Casino erkannt: einer der orange umrandeten Würfel hier kann er sein. Bitte ansehen.", check_doubt_title: "Würfel im Zweifel auf dem Tisch", check_doubt_changes_nothing: "Tisch geprüft: was die nicht sicher gelesenen Würfel auch sind, die Auszahlung bleibt gleich; sie kann weitergehen.",
  check_at_payout: "Bei der Auszahlung", check_correct: "Korrektur übernehmen (der Tisch stimmt)",
  check_no_photo: "Das Foto konnte nicht in der Spieldatei bleiben (die Festplatte ist voll).",
  sim_fix_casinos: "Simulierten Tisch richten", sim_misplace_on: "Jede Runde einen Würfel falsch legen", sim_misplace_off: "Keine Würfel mehr falsch legen",
  round_photo: "Die Casinos am Ende von Runde {round}, wie die Kamera sie sah",
  placement_check_on: "Casinos nach jedem Setzen prüfen", placement_check_off: "Casinos nur am Rundenende prüfen",
});

// Sentences of the table check: a difference between the table and the game, and what it
// changes at payout, sent as {key, ...values} (companion/check_sentences.py).
Object.assign(WORDS.en, {
  chk_differs: "the table shows {shown} on {where}{table_size}, the game has {game}{game_size}",
  chk_stranger: "the table shows {count} {colour} {dice} on {where} of a colour no one plays in this game",
  chk_not_seen: "the camera does not see {where}",
  chk_tie_made: "with {dice}, {first} ties with {second} and both are cancelled",
  chk_tie_made_all: "with {dice}, {owners} tie and all are cancelled",
  chk_tie_broken: "{owners} no longer tie", chk_gets: "{owner} gets {now} instead of {before}",
  chk_no_change: "no change at payout", chk_unsure: "not known while {count} {dice} not read for sure",
  chk_unseen: "unknown: the dice there are not seen",
  chk_shown: "{count} {owner}", chk_shown_for: "{count} for {owner}", chk_where_casino: "casino {n}",
  chk_where_slot: "the slot machine", chk_and: " and ", chk_nothing: "nothing", chk_stranger_one: "die",
  chk_stranger_many: "dice", chk_unsure_one: "die is", chk_unsure_many: "dice are", chk_a_biggy: "a Biggy",
  chk_biggies: "{n} Biggies", chk_one_die: "1 die", chk_dice: "{n} dice", chk_showing: " showing {values}",
  chk_neutral_dice: "neutral dice", chk_grey_dice: "grey dice",
  chk_if_reading: "if it is {dice}: {effect}", chk_no_die: "no die", chk_die_of: "a die of {owner}",
  chk_biggy_of: "a Biggy of {owner}", chk_or: " or ",
});
Object.assign(WORDS.de, {
  chk_differs: "der Tisch zeigt {shown} auf {where}{table_size}, das Spiel hat {game}{game_size}",
  chk_stranger: "der Tisch zeigt {count} {dice} in {colour} auf {where}, einer Farbe, die in diesem Spiel niemand spielt",
  chk_not_seen: "die Kamera sieht nichts von {where}",
  chk_tie_made: "mit {dice} ist {first} gleichauf mit {second}, beide fallen weg",
  chk_tie_made_all: "mit {dice} sind {owners} gleichauf, alle fallen weg",
  chk_tie_broken: "{owners} sind nicht mehr gleichauf", chk_gets: "{owner} bekommt {now} statt {before}",
  chk_no_change: "keine Änderung bei der Auszahlung", chk_unsure: "unbekannt: {count} {dice} nicht sicher gelesen",
  chk_unseen: "unbekannt: die Würfel dort sind nicht zu sehen",
  chk_shown: "{count} für {owner}", chk_shown_for: "{count} für {owner}", chk_where_casino: "Casino {n}",
  chk_where_slot: "dem Spielautomaten", chk_and: " und ", chk_nothing: "nichts", chk_stranger_one: "Würfel",
  chk_stranger_many: "Würfel", chk_unsure_one: "Würfel ist", chk_unsure_many: "Würfel sind", chk_a_biggy: "ein Biggy",
  chk_biggies: "{n} Biggies", chk_one_die: "1 Würfel", chk_dice: "{n} Würfel", chk_showing: " mit {values}",
  chk_neutral_dice: "neutrale Würfel", chk_grey_dice: "graue Würfel",
  chk_if_reading: "ist er {dice}: {effect}", chk_no_die: "kein Würfel", chk_die_of: "ein Würfel von {owner}",
  chk_biggy_of: "ein Biggy von {owner}", chk_or: " oder ",
});

function checkOwner(owner) {
  // An owner in a check's sentence: "red (Anna)", "white" for neutral dice, "Anna" with no colour.
  if (!owner.colour) return owner.player ? owner.name : t(`chk_${owner.name}_dice`);
  return owner.player ? `${colourName(owner.colour)} (${owner.name})` : colourName(owner.colour);
}

function checkSize(size, values) {
  // " (a Biggy and 1 die)" for an owner's dice by size, " showing 5 5 3" on the slot machine.
  if (Array.isArray(values)) return t("chk_showing", {values: values.join(" ")});
  if (!Array.isArray(size)) return "";
  const [biggies, regular] = size;
  const parts = [];
  if (biggies) parts.push(biggies === 1 ? t("chk_a_biggy") : t("chk_biggies", {n: biggies}));
  if (regular) parts.push(regular === 1 ? t("chk_one_die") : t("chk_dice", {n: regular}));
  return ` (${parts.join(t("chk_and"))})`;
}

function checkText(s, english) {
  // A sentence of the table check in the page's language: {key, ...values} from the server,
  // else the server's English text.
  if (!s || !WORDS.en["chk_" + s.key]) return english;
  const values = {...s};
  if ("where" in s) values.where = s.where === 7 ? t("chk_where_slot") : t("chk_where_casino", {n: s.where});
  if (s.key === "differs") {
    values.shown = t(s.owner.colour ? "chk_shown" : "chk_shown_for", {count: s.table, owner: checkOwner(s.owner)});
    for (const side of ["table", "game"]) values[side + "_size"] = checkSize(s[side + "_size"], s[side + "_values"]);
  } else if (s.owner) values.owner = checkOwner(s.owner);
  for (const side of ["now", "before"]) {
    if (Array.isArray(s[side])) values[side] = s[side].length ? s[side].map(note).join(t("chk_and")) : t("chk_nothing");
  }
  if (Array.isArray(s.owners)) {
    const names = s.owners.map(checkOwner);
    values.owners = names.length > 1 ? `${names.slice(0, -1).join(", ")}${t("chk_and")}${names[names.length - 1]}` : names[0];
    [values.first, values.second] = names;
  }
  if ("colour" in s) values.colour = colourName(s.colour);
  if (s.key === "stranger" || s.key === "unsure") values.dice = t(`chk_${s.key}_${s.count === 1 ? "one" : "many"}`);
  if (Array.isArray(s.effect)) values.effect = s.effect.map((e) => checkText(e, "")).join(", ");
  if (s.key === "if_reading") {
    // What a die not read for sure may be: no die, a die or a Biggy of whom.
    const readings = s.no_die ? [t("chk_no_die")] : [];
    for (const o of s.regular || []) readings.push(t("chk_die_of", {owner: checkOwner(o)}));
    for (const o of s.biggy || []) readings.push(t("chk_biggy_of", {owner: checkOwner(o)}));
    values.dice = readings.join(t("chk_or"));
    // A slot machine die in doubt for its pips alone: the values that give this effect.
    if (Array.isArray(s.values) && s.values.length) values.dice += t("chk_showing", {values: s.values.join(t("chk_or"))});
  }
  return t("chk_" + s.key, values);
}

function checkSentences(sentences, english) {
  // What a difference changes at payout, its sentences joined, in the page's language.
  if (!Array.isArray(sentences) || !sentences.length || !sentences.every((s) => WORDS.en["chk_" + s.key])) return english;
  return sentences.map((s) => checkText(s)).join("; ");
}
