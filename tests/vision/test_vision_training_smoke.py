"""A tiny end-to-end run of data rendering, training and ONNX export (needs the train extra)."""

from __future__ import annotations

import numpy as np
import pytest


def test_render_train_export(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models import train
    from models.make_data import SceneMix, _one_chunk
    from vision.onnx_models import open_session

    torch.set_num_threads(1)
    data = _one_chunk((5, 3, SceneMix(crowded=0.5, from_above=0.5, finish={"camouflage": 0.2})))
    assert data["frames"].shape[1:] == (240, 320, 3) and len(data["crops"]) == len(data["labels"])
    real = {"crops": data["crops"][:4], "labels": data["labels"][:4]}  # stands in for photos
    pips_net = train.train_pips(
        data, 1, 16, lambda msg: None, real=real, real_repeat=2, rotate_rendered=True
    )
    first = data["boxes"][:, 4] == 0  # one frame stands in for a real photo
    real_frames = {"frames": data["frames"][:1], "boxes": data["boxes"][first]}
    loc_net = train.train_locator(
        data, 1, 2, lambda msg: None, real=real_frames, real_repeat=2, overexposed=0.5
    )
    train.export(pips_net, tmp_path / "p.onnx", (1, 3, 40, 40), {"image": {0: "n"}})
    train.export(
        loc_net, tmp_path / "l.onnx", (1, 3, 240, 320), {"image": {0: "n", 2: "h", 3: "w"}}
    )
    p = open_session(str(tmp_path / "p.onnx"), 1).run(
        None, {"image": np.zeros((5, 3, 40, 40), np.float32)}
    )[0]
    m = open_session(str(tmp_path / "l.onnx"), 1).run(
        None, {"image": np.zeros((1, 3, 128, 160), np.float32)}
    )[0]
    assert p.shape == (5, 9) and m.shape == (1, 5, 32, 40)


def test_locator_from_onnx_computes_what_the_onnx_file_computes() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train import locator_from_onnx
    from vision.onnx_models import LOCATOR_FLOAT_FILE, model_path, open_session

    path = model_path(LOCATOR_FLOAT_FILE)
    x = np.random.default_rng(0).uniform(0, 255, (1, 3, 96, 128)).astype(np.float32)
    with torch.no_grad():
        ours = locator_from_onnx(path).eval()(torch.from_numpy(x)).numpy()
    theirs = open_session(str(path), 1).run(None, {"image": x})[0]
    assert np.allclose(ours, theirs, atol=1e-3)


def test_pip_reader_from_onnx_computes_what_the_onnx_file_computes() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train import pip_reader_from_onnx
    from vision.onnx_models import PIPS_FLOAT_FILES, model_path, open_session

    x = np.random.default_rng(1).uniform(0, 255, (3, 3, 40, 40)).astype(np.float32)
    widths = set()
    for name in PIPS_FLOAT_FILES:  # readers of two widths
        path = model_path(name)
        net = pip_reader_from_onnx(path).eval()
        widths.add(net.features[0][0].out_channels)
        with torch.no_grad():
            ours = net(torch.from_numpy(x)).numpy()
        theirs = open_session(str(path), 1).run(None, {"image": x})[0]
        assert np.allclose(ours, theirs, atol=1e-3)
    assert widths == {16, 24}


def test_scenes_seen_from_above_give_labelled_crops() -> None:
    from models.make_data import SceneMix, _one_chunk

    above = _one_chunk((7, 2, SceneMix(from_above=1.0)))
    level = _one_chunk((7, 2, SceneMix()))
    assert len(above["crops"]) == len(above["labels"]) > 0
    assert above["crops"].shape[1:] == (3, 40, 40)
    assert not np.array_equal(above["frames"], level["frames"])


def test_a_fine_tune_started_from_onnx_can_be_continued_from_its_pt(tmp_path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models import train
    from vision.onnx_models import LOCATOR_FLOAT_FILE, model_path

    start = train.locator_from_onnx(model_path(LOCATOR_FLOAT_FILE)).eval()
    torch.save(start.state_dict(), tmp_path / "locator.pt")  # what train.py saves
    data = {"frames": np.zeros((1, 240, 320, 3), np.uint8), "boxes": np.zeros((0, 5), np.float32)}
    again = train.train_locator(data, 0, 1, lambda msg: None, init=tmp_path / "locator.pt")
    x = torch.rand(1, 3, 96, 128) * 255
    with torch.no_grad():
        assert torch.allclose(again.eval()(x), start(x))


def test_label_centres_matched_to_the_nearest_box_that_holds_them() -> None:
    from models.devdata import matched_boxes

    boxes = np.array([[0, 0, 10, 10], [5, 5, 30, 30], [50, 50, 60, 60]], np.float32)
    centres = np.array([[6, 6], [20, 20], [100, 100], [55, 52]], np.float32)
    # (6, 6) lies in the first two boxes and nearer the first one's centre.
    assert matched_boxes(boxes, centres) == [0, 1, None, 2]


def test_rendered_sets_join_into_one_pip_reader_set(tmp_path) -> None:
    from models.make_data import SceneMix, _one_chunk, join

    parts = []
    for seed in (3, 4):
        data = _one_chunk((seed, 1, SceneMix()))
        np.savez(tmp_path / f"{seed}.npz", **data)
        parts.append(data)
    joined = np.load(join(tmp_path / "both.npz", [tmp_path / "3.npz", tmp_path / "4.npz"]))
    assert np.array_equal(joined["labels"], np.concatenate([p["labels"] for p in parts]))
    assert len(joined["crops"]) == sum(len(p["crops"]) for p in parts)
    frames = np.load(
        join(tmp_path / "frames.npz", [tmp_path / "3.npz", tmp_path / "4.npz"], frames=True)
    )
    assert np.array_equal(frames["frames"], np.concatenate([p["frames"] for p in parts]))
    second = frames["boxes"][len(parts[0]["boxes"]) :]
    assert len(second) and np.array_equal(second[:, 4], parts[1]["boxes"][:, 4] + 1)
    assert np.array_equal(second[:, :4], parts[1]["boxes"][:, :4])


def test_training_reads_every_set_it_is_given(tmp_path, monkeypatch) -> None:
    pytest.importorskip("torch")
    from models import train
    from models.make_data import SceneMix, _one_chunk

    parts = []
    for seed in (3, 4):
        parts.append(_one_chunk((seed, 1, SceneMix())))
        np.savez(tmp_path / f"{seed}.npz", **parts[-1])
    seen = {}

    def fit(kind):
        def fake(data, *args, **kwargs):
            seen[kind] = data
            raise SystemExit  # stop before exporting

        return fake

    monkeypatch.setattr(train, "train_pips", fit("pips"))
    monkeypatch.setattr(train, "train_locator", fit("locator"))
    sets = [str(tmp_path / "3.npz"), str(tmp_path / "4.npz")]
    for what in ("pips", "locator"):
        monkeypatch.setattr(
            "sys.argv",
            ["train.py", "--what", what, "--data", *sets, "--out", str(tmp_path / "out")],
        )
        with pytest.raises(SystemExit):
            train.main()
    assert len(seen["pips"]["crops"]) == sum(len(p["crops"]) for p in parts)
    assert set(seen["pips"]) == {"crops", "labels"}
    assert len(seen["locator"]["frames"]) == 2
    assert len(seen["locator"]["boxes"]) == sum(len(p["boxes"]) for p in parts)


@pytest.mark.parametrize("split_at", [None, 40])  # mixed batches; rendered and real apart
def test_locator_batches_cover_the_epoch_and_keep_kinds_apart(split_at) -> None:
    pytest.importorskip("torch")
    from models.train import _batches

    order_from = np.concatenate([np.arange(40), np.tile(np.arange(40, 52), 3)])  # real x3
    batches = _batches(order_from, 8, split_at)
    assert all(len(b) == 8 for b in batches)
    seen = np.concatenate(batches)
    assert len(seen) >= len(order_from) - 2 * 8
    assert set(seen) <= set(order_from)
    if split_at is not None:
        assert all(b.max() < split_at or b.min() >= split_at for b in batches)


def test_full_trays_hold_sixty_dice_or_more_and_leave_other_sets_as_they_were() -> None:
    from models.make_data import CROWDED_DICE, FULL_TRAY_DICE, _dice_count

    counts = [_dice_count(np.random.default_rng(s), 0.3, 0.4) for s in range(200)]
    full = [n for n in counts if n is not None and n >= FULL_TRAY_DICE[0]]
    crowded = [n for n in counts if n is not None and n < FULL_TRAY_DICE[0]]
    assert 50 < len(full) < 110 and 30 < len(crowded) < 90
    assert max(full) < FULL_TRAY_DICE[1] and CROWDED_DICE[0] <= min(crowded)
    assert max(crowded) < CROWDED_DICE[1]
    # Without full trays the count is drawn as sets were drawn before them, from the same
    # random numbers, so those sets render as they did.
    for share in (0.0, 0.5):
        for seed in range(50):
            ours, old = np.random.default_rng(seed), np.random.default_rng(seed)
            was = int(old.integers(*CROWDED_DICE)) if share and old.random() < share else None
            assert _dice_count(ours, share, 0.0) == was
            assert ours.random() == old.random()


def test_a_full_tray_window_keeps_the_dice_it_shows_clipped_to_it() -> None:
    from models.make_data import LOCATOR_SCALE, _locator_view

    img = np.zeros((480, 640, 3), np.uint8)
    boxes = np.array([[10, 10, 40, 40], [300, 200, 330, 230], [620, 450, 639, 479]], np.float32)
    shapes, kept = set(), []
    for seed in range(20):
        frame, seen = _locator_view(np.random.default_rng(seed), img, boxes, full=True)
        shapes.add(frame.shape)
        kept.append(len(seen))
        assert np.all(seen[:, 2:] > seen[:, :2]) and np.all(seen >= 0)
        assert np.all(seen[:, 2] <= frame.shape[1]) and np.all(seen[:, 3] <= frame.shape[0])
    assert shapes == {(240, 320, 3)}
    assert 3 in kept and min(kept) < 3  # the whole frame shrunk, and windows that cut dice off
    whole, seen = _locator_view(np.random.default_rng(0), img, boxes, full=False)
    assert np.allclose(seen, boxes * LOCATOR_SCALE)
    big = boxes * [1, 1, 3, 3]  # dice larger than a window should show at full scale
    for seed in range(10):
        _, seen = _locator_view(np.random.default_rng(seed), img, big, full=True)
        assert np.allclose(seen, big * LOCATOR_SCALE)


def test_overexposed_frames_clip_light_pixels_white() -> None:
    torch = pytest.importorskip("torch")
    from models import train

    light = torch.full((64, 3, 8, 8), 200.0)  # white dice on a light table
    torch.manual_seed(3)
    plain = train._colour_augment(light)
    torch.manual_seed(3)
    blown = train._colour_augment(light, overexposed=0.5)
    # The light's usual change clips some of it (16 % of values here); a share of 0.5 blown
    # frames more than twice as many (36 %).
    assert (blown >= 250).float().mean() > 2 * (plain >= 250).float().mean()


def test_salt_and_pepper_specks_a_share_of_the_crops_black_and_white() -> None:
    torch = pytest.importorskip("torch")
    from models import train

    grey = torch.full((400, 3, 40, 40), 128.0)
    assert torch.equal(train.salt_and_pepper(grey, 0.0), grey)
    torch.manual_seed(5)
    specked = train.salt_and_pepper(grey, 0.3)
    touched = (specked != grey).any(1).float().mean((1, 2))
    assert 0.2 < float((touched > 0).float().mean()) < 0.4
    assert float(touched.max()) < 0.08  # specks, never a crop wiped out
    values = set(specked[specked != grey].unique().tolist())
    assert values == {20.0, 235.0}  # black and white, on all three channels alike
    assert torch.equal(specked[:, 0], specked[:, 2])


def test_seen_small_blurs_a_share_of_the_crops_as_a_small_die_is_cut() -> None:
    torch = pytest.importorskip("torch")
    from models import train

    # Crops of a sharp checkerboard of 2 px squares: shrunk to 12-30 px and enlarged back, the
    # squares blur together, so the crop's spread falls; a crop not chosen keeps every value.
    board = ((torch.arange(40)[:, None] // 2 + torch.arange(40)[None] // 2) % 2) * 200.0 + 20
    crops = board.expand(400, 3, 40, 40).clone()
    assert torch.equal(train.seen_small(crops, 0.0), crops)
    torch.manual_seed(7)
    seen = train.seen_small(crops, 0.3)
    assert seen.shape == crops.shape
    changed = (seen != crops).flatten(1).any(1)
    assert 0.2 < float(changed.float().mean()) < 0.4
    assert torch.equal(seen[~changed], crops[~changed])
    assert float(seen[changed].std((1, 2, 3)).max()) < 0.8 * float(crops[0].std())
    assert float(seen.min()) >= 20 - 1e-3 and float(seen.max()) <= 220 + 1e-3
    # With `among` (the real crops, in training), only flagged crops are chosen.
    real = torch.arange(400) >= 300
    seen_real = train.seen_small(crops, 0.5, among=real)
    changed_real = (seen_real != crops).flatten(1).any(1)
    assert not changed_real[~real].any()
    assert 0.35 < float(changed_real[real].float().mean()) < 0.65


def test_an_epoch_of_crops_repeats_blank_faces_and_real_crops_and_holds_out_neither() -> None:
    pytest.importorskip("torch")
    from models.train import pip_epoch

    labels = np.array([0, 3, 0, 5, 6, 1, 2, 0, 4, 4] * 4 + [2, 0, 6])  # 40 rendered, 3 real
    hold, epoch = pip_epoch(labels, 40, blank_repeat=3, real_repeat=2)
    assert len(hold) == 2 and (hold < 40).all() and not set(hold) & set(epoch)
    seen = np.bincount(epoch, minlength=len(labels))
    rendered = np.setdiff1d(np.arange(40), hold)
    assert (seen[rendered] == np.where(labels[rendered] == 0, 3, 1)).all()
    assert (seen[40:] == 2).all()  # the real blank face too: real crops are repeated as real


def test_a_locator_past_its_time_limit_stops_and_says_at_which_step() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models import train
    from vision.onnx_models import LOCATOR_FLOAT_FILE, model_path

    init = model_path(LOCATOR_FLOAT_FILE)
    start = train.locator_from_onnx(init).eval()
    data = {"frames": np.zeros((2, 240, 320, 3), np.uint8), "boxes": np.zeros((0, 5), np.float32)}
    said: list[str] = []
    stopped = train.train_locator(data, 3, 1, said.append, init=init, time_limit=0.0)
    assert said == ["locator stopped by the time limit at step 0/6"]
    x = torch.rand(1, 3, 96, 128) * 255
    with torch.no_grad():
        assert torch.allclose(stopped(x), start(x))
