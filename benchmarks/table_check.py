"""The round-end table check on the simulated casino row: random rounds played to their payout,
the casinos drawn as the game holds them (a false alarm when the check disagrees) and again
with one misplacement (caught when every casino it changed is flagged, its payout effect named
rightly when the words match those the check gives for the true table), and the time of a whole
check of a 1280x720 frame.

    taskset -c 1 python benchmarks/table_check.py --rounds 50 --settings hardest
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.check_sentences import Sentence  # noqa: E402
from companion.cli_check import seen_casinos  # noqa: E402
from companion.engine import apply  # noqa: E402
from companion.events import SLOT_MACHINE, TableDie  # noqa: E402
from companion.rules import make_rules  # noqa: E402
from companion.simulate import chance_event, random_choice  # noqa: E402
from companion.state import WHITE, GameState, Phase, new_game  # noqa: E402
from companion.table_check import CasinoCheck, SeenCasino, check_table  # noqa: E402
from vision.casino_row import read_casino_row  # noqa: E402
from vision.reader import ReaderConfig  # noqa: E402
from vision.sim_casinos import EASY, HARDEST, misplace, row_scene  # noqa: E402
from vision.simtable import SimDie  # noqa: E402
from vision.zones import detect_zones  # noqa: E402

PLAYER_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")
NEUTRAL = "white"
SETTINGS = {"easy": EASY, "hardest": HARDEST}


def round_end(players: int, seed: int) -> GameState:
    """A random classic game with Biggies, neutral dice and the slot machine, at its first
    payout: 8 dice a player and the white dice lie on the casinos (60 with 6 players)."""
    rules = make_rules("classic", {"biggies": True, "neutral_dice": True, "slot_machine": True})
    names = ["Anna", "Ben", "Carla", "Denny", "Emil", "Fay"][:players]
    state = new_game(rules, names)
    rng = random.Random(seed)
    while state.phase is not Phase.PAYOUT:
        state = apply(state, chance_event(state, rng) or random_choice(state, rng))
    return state


def table_dice(state: GameState, colours: dict[int, str]) -> dict[int, list[SimDie]]:
    """The dice the game holds on each casino, as dice to draw."""
    return {
        c.number: [SimDie(colours[d.owner], d.value, d.big) for d in c.dice] for c in state.casinos
    }


def truth(dice: dict[int, list[SimDie]], owners: dict[str, int]) -> list[SeenCasino]:
    """What a perfect camera would read on the drawn casinos."""
    return [
        SeenCasino(
            n,
            tuple(
                TableDie(owners[d.colour], d.big, d.pips if n == SLOT_MACHINE else None) for d in ds
            ),
        )
        for n, ds in dice.items()
    ]


def reading_effects(casino: CasinoCheck) -> list[tuple[Sentence, ...]]:
    """The effects at payout a check tells for each reading of a die not read for sure."""
    return [
        tuple(e for e in effect if isinstance(e, Sentence))
        for s in casino.payout_sentences
        if s.key == "if_reading" and isinstance(effect := dict(s.values).get("effect"), tuple)
    ]


def reading_told(casino: CasinoCheck, true_table: CasinoCheck) -> str:
    """ "among" where the check tells the effect reading by reading and the true table's effect
    is one of them, "not among" where it is not, "" where no reading is told."""
    effects = reading_effects(casino)
    if not effects:
        return ""
    return "among" if true_table.payout_sentences in effects else "not among"


def checked(
    frame: np.ndarray, state: GameState, cfg: ReaderConfig, colours, colour_left: bool = True
):
    """The whole table check of one frame (zones from its markers), its time in seconds and
    the CPU time it took this process (steadier than the time on a loaded machine)."""
    start, cpu_start = time.perf_counter(), time.process_time()
    zones = detect_zones(frame)
    row = read_casino_row(frame, zones, cfg, colour_left_unread=colour_left)
    result = check_table(state, seen_casinos(state, row, colours), colours)
    return result, time.perf_counter() - start, time.process_time() - cpu_start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--players", type=int, default=6, help="2-6 (6: 60 dice)")
    parser.add_argument("--settings", choices=sorted(SETTINGS), default="hardest")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--first-round",
        type=int,
        default=0,
        help="start at this round of the seed (the rounds before are played, not drawn: the "
        "same rounds as in a longer run), to look at rounds apart from those measured",
    )
    parser.add_argument(
        "--look-again-from",
        type=int,
        default=ReaderConfig().look_again_from,
        help="read a casino's crop again enlarged from this many dice on (the reader's setting; "
        "4 finds touching dice better at about three times the time)",
    )
    parser.add_argument(
        "--no-colour-left",
        action="store_true",
        help="do not count patches of die colour that no die read explains as dice not read "
        "for sure (to measure what they change)",
    )
    args = parser.parse_args()
    settings = SETTINGS[args.settings]
    cfg = ReaderConfig(threads=1, camera_place="above")
    clean_alarms, looks, caught, told, named, injected, skipped = 0, 0, 0, 0, 0, 0, 0
    unsure_checks = 0  # frames whose check ends with a die not read for sure
    unsure_dice = 0  # dice not read for sure on the tables as the game holds them
    unknown = 0  # payout effects not named: a die not read for sure on a casino it changed
    times: list[float] = []
    cpu_times: list[float] = []
    dice_counts: list[int] = []
    kinds: dict[str, list[int]] = {}
    # effects told for each reading of a die not read for sure: the true table's among them, not
    by_reading = [0, 0]
    # tables as the game holds them whose dice in doubt change nothing at payout (it goes on);
    # misplacements that change the payout where the payout would go on all the same
    doubt_changes_nothing = paid_unheld = 0
    rng = np.random.default_rng(args.seed)
    for r in range(args.first_round):  # the misplacements of the rounds before, not drawn
        state = round_end(args.players, args.seed * 1000 + r)
        colours = {seat: PLAYER_COLOURS[seat] for seat in range(len(state.players))}
        colours[WHITE] = NEUTRAL
        misplace(table_dice(state, colours), rng, sorted(colours.values()))
    for r in range(args.first_round, args.first_round + args.rounds):
        state = round_end(args.players, args.seed * 1000 + r)
        colours = {seat: PLAYER_COLOURS[seat] for seat in range(len(state.players))}
        colours[WHITE] = NEUTRAL
        owners = {c: o for o, c in colours.items()}
        in_play = cfg.palette.in_play_only(sorted(owners))
        row_cfg = ReaderConfig(
            threads=1,
            camera_place="above",
            palette=in_play,
            look_again_from=args.look_again_from,
        )
        notes = {c.number: c.notes for c in state.casinos}
        dice = table_dice(state, colours)
        wrong, what = misplace(dice, rng, sorted(owners))
        try:
            scene = row_scene(dice, notes, args.seed * 1000 + r, settings=settings)
            wrong_scene = row_scene(wrong, notes, args.seed * 1000 + r + 500, settings=settings)
        except ValueError as error:  # more dice on one card than it can hold side by side
            print(f"round {r}: skipped: {error}", flush=True)
            skipped += 1
            continue
        dice_counts.append(sum(map(len, dice.values())))
        result, seconds, cpu = checked(
            scene.frame, state, row_cfg, colours, not args.no_colour_left
        )
        times.append(seconds)
        cpu_times.append(cpu)
        claimed = [d for c in result.casinos for d in c.differences]
        unsure = sum(c.unsure for c in result.casinos)
        unsure_dice += unsure
        clean_alarms += bool(claimed)
        looks += bool(unsure) and not claimed and not result.payout_may_go_on
        doubt_changes_nothing += bool(unsure) and not claimed and result.payout_may_go_on
        unsure_checks += bool(unsure)
        if claimed or unsure:
            print(
                f"round {r}: table as the game holds it: {'; '.join(claimed) or 'no difference'}"
                f", {unsure} dice not read for sure",
                flush=True,
            )
        touched = {n for n in (what.source, what.target) if n is not None}
        result, seconds, cpu = checked(
            wrong_scene.frame, state, row_cfg, colours, not args.no_colour_left
        )
        times.append(seconds)
        cpu_times.append(cpu)
        unsure_checks += any(c.unsure for c in result.casinos)
        expected = check_table(state, truth(wrong, owners), colours)
        injected += 1
        flagged = {c.casino for c in result.casinos if not c.agrees}
        differing = {c.casino for c in result.casinos if c.differences}
        hit = touched <= flagged
        caught += hit
        pays_otherwise = any(
            expected.casinos[n - 1].payout_sentences != (Sentence.of("no_change"),) for n in touched
        )
        paid_unheld += pays_otherwise and result.payout_may_go_on
        told += touched <= differing
        right = all(
            result.casinos[n - 1].payout_changes == expected.casinos[n - 1].payout_changes
            for n in touched
        )
        named += hit and right
        unknown += (
            hit
            and not right
            and any(result.casinos[n - 1].payout_changes.startswith("not known") for n in touched)
        )
        if hit and not right:
            statuses = [
                "right"
                if result.casinos[n - 1].payout_changes == expected.casinos[n - 1].payout_changes
                else reading_told(result.casinos[n - 1], expected.casinos[n - 1])
                for n in touched
            ]
            if "not among" in statuses:
                by_reading[1] += 1
            elif set(statuses) <= {"right", "among"}:
                by_reading[0] += 1
        kinds.setdefault(what.kind, [0, 0])
        kinds[what.kind][0] += 1
        kinds[what.kind][1] += hit
        if not hit or not right:
            said = [result.casinos[n - 1].payout_changes for n in sorted(touched)]
            meant = [expected.casinos[n - 1].payout_changes for n in sorted(touched)]
            print(
                f"round {r}: {what.kind} {what.die} {what.source}->{what.target}: "
                f"flagged {sorted(flagged)}, payout words {said}, true table's {meant}",
                flush=True,
            )
    ms = [t * 1000 for t in times]
    print(
        f"settings: {args.settings}, look again from {args.look_again_from} dice, "
        f"colour left unread {'not ' if args.no_colour_left else ''}looked for, "
        f"{args.players} players, {args.rounds - skipped} rounds "
        f"({skipped} skipped), "
        f"dice on the casinos: {min(dice_counts)}-{max(dice_counts)}"
    )
    print(
        f"injected differences caught (every casino it changed flagged): {caught}/{injected} = "
        f"{100 * caught / injected:.1f} %  "
        + ", ".join(f"{k}: {v[1]}/{v[0]}" for k, v in sorted(kinds.items()))
    )
    print(f"  told as a difference, not only as a die not read for sure: {told}/{injected}")
    print(
        f"payout effect named rightly: {named}/{injected} = {100 * named / injected:.1f} %; "
        f"not named, a die not read for sure there: {unknown}; "
        f"named wrongly or not caught: {injected - named - unknown}"
    )
    print(
        f"  of those not named, told reading by reading on every casino it changed, the true "
        f"table's effect among them: {by_reading[0]}; told by reading on a casino it changed, "
        f"the true table's effect not among them: {by_reading[1]}"
    )
    print(
        f"false alarms (a difference claimed on a table that agrees): {clean_alarms} in "
        f"{len(dice_counts)} rounds = {50 * clean_alarms / len(dice_counts):.1f} per 50 rounds"
    )
    print(
        f"tables that agree with a die not read for sure that may change the payout (a person "
        f"asked to look): {looks} in {len(dice_counts)} rounds = "
        f"{50 * looks / len(dice_counts):.1f} per 50 rounds"
    )
    print(
        f"  with dice not read for sure that change nothing at payout, whatever they are (the "
        f"payout goes on): {doubt_changes_nothing}"
    )
    print(
        f"misplacements that change the payout where the payout would go on by itself: "
        f"{paid_unheld}/{injected}"
    )
    print(
        f"dice not read for sure on the tables as the game holds them: {unsure_dice} of "
        f"{sum(dice_counts)}"
    )
    print(
        f"checks that end unsure (a die not read for sure), tables as the game holds them and "
        f"with a misplacement: {unsure_checks} in {len(times)} checks = "
        f"{50 * unsure_checks / len(dice_counts):.1f} per 50 rounds of two checks"
    )
    print(
        f"whole check, 1280x720: median {statistics.median(ms):.0f} ms, worst {max(ms):.0f} ms "
        f"({len(ms)} frames, 1 thread)"
    )
    cpu_ms = [t * 1000 for t in cpu_times]
    print(
        f"CPU time of a whole check: median {statistics.median(cpu_ms):.0f} ms, "
        f"worst {max(cpu_ms):.0f} ms"
    )


if __name__ == "__main__":
    main()
