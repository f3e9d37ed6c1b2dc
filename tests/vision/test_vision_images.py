"""Image files: read whole, or refused with a message that names the file and says why."""

from __future__ import annotations

import struct

import cv2
import numpy as np
import pytest

from vision.images import ImageError, cut_short_jpeg, load_image


def _picture() -> np.ndarray:
    """A 240x320 picture with detail all over, so that its JPEG scan is long."""
    rng = np.random.default_rng(4)
    frame = cv2.resize(rng.integers(0, 255, (30, 40, 3), dtype=np.uint8), (320, 240))
    cv2.circle(frame, (160, 120), 40, (20, 20, 200), -1)
    return frame


def _jpeg(progressive: bool = False) -> bytes:
    flags = [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)]
    return cv2.imencode(".jpg", _picture(), flags)[1].tobytes()


@pytest.mark.parametrize("progressive", [False, True])
def test_a_whole_jpeg_is_read_and_one_cut_short_is_refused(tmp_path, progressive) -> None:
    data = _jpeg(progressive)
    whole = tmp_path / "whole.jpg"
    whole.write_bytes(data)
    assert load_image(whole).shape == (240, 320, 3)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) * 2 // 3])
    assert cv2.imread(str(cut)) is not None  # OpenCV alone would show the rest grey
    with pytest.raises(ImageError, match=r"cut\.jpg: the JPEG ends before its picture does"):
        load_image(cut)


def test_bytes_after_a_jpegs_end_do_not_make_it_cut_short() -> None:
    data = _jpeg()
    assert not cut_short_jpeg(data)
    assert not cut_short_jpeg(data + b"\x00" * 64)  # some cameras pad their files
    assert cut_short_jpeg(data[:-2])
    assert not cut_short_jpeg(b"\x89PNG\r\n\x1a\n")  # not a JPEG: nothing to say


@pytest.mark.parametrize(
    "make, why",
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "a folder, not an image"),
        (lambda p: p.write_bytes(b""), "an empty file"),
        (lambda p: p.write_text("shopping list: dice, felt"), "not a readable image"),
        (
            lambda p: p.write_bytes(cv2.imencode(".png", _picture())[1].tobytes()[:2000]),
            "not a readable image",
        ),  # a PNG cut short: OpenCV refuses it itself
    ],
)
def test_a_file_that_is_no_image_is_named_with_the_reason(tmp_path, make, why) -> None:
    path = tmp_path / "roll.png"
    make(path)
    with pytest.raises(ImageError) as caught:
        load_image(path)
    assert str(caught.value) == f"{path}: {why}"


def test_grey_and_transparent_images_come_as_colour_frames(tmp_path) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), cv2.cvtColor(_picture(), cv2.COLOR_BGR2GRAY))
    see_through = tmp_path / "alpha.png"
    cv2.imwrite(str(see_through), cv2.cvtColor(_picture(), cv2.COLOR_BGR2BGRA))
    assert load_image(grey).shape == load_image(see_through).shape == (240, 320, 3)


def test_a_photo_is_turned_as_its_exif_tag_says(tmp_path) -> None:
    picture = np.zeros((40, 80, 3), np.uint8)
    picture[:, :10] = 255  # a white band on the left
    jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
    # An EXIF block with one tag, orientation 6: the camera was held turned a quarter.
    tiff = b"MM\x00*" + struct.pack(">IHHHIHHI", 8, 1, 0x0112, 3, 1, 6, 0, 0)
    exif = b"Exif\x00\x00" + tiff
    turned = jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]
    path = tmp_path / "phone.jpg"
    path.write_bytes(turned)
    frame = load_image(path)
    assert frame.shape == (80, 40, 3)
    assert frame[:10].mean() > 200 > frame[-10:].mean()  # the band is now at the top


def test_frames_as_other_tools_hand_them_over_are_read_as_the_photo_is(dev_photos) -> None:
    from models.devdata import read_photo
    from models.yolo_folders import load_split
    from vision.reader import read_dice

    item = load_split("Valid", dev_photos)[0]
    photo = read_photo(item.image)
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    as_grey = read_dice(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
    assert len(as_grey) >= len(item.pips) - 1
    alpha = np.dstack([photo, np.full(photo.shape[:2], 255, np.uint8)])
    same = {
        "16-bit": photo.astype(np.uint16) * 257,
        "0-1 floats": photo.astype(np.float32) / 255,
        "alpha": alpha,
        "flipped view": np.ascontiguousarray(photo[:, ::-1])[:, ::-1],
    }
    read = read_dice(photo)
    for kind, frame in same.items():
        other = read_dice(frame)
        assert other.pips.tolist() == read.pips.tolist(), kind
        np.testing.assert_allclose(other.boxes, read.boxes, err_msg=kind)
    for kind, frame in {"grey": grey, "grey, one channel": grey[:, :, None]}.items():
        other = read_dice(frame)
        assert other.pips.tolist() == as_grey.pips.tolist(), kind
        np.testing.assert_allclose(other.boxes, as_grey.boxes, err_msg=kind)
