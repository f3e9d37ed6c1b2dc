"""The page itself and its address as a QR code."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from web.qr import qr_svg

bp = Blueprint("pages", __name__)


def public_url() -> str:
    """The address other devices on the network use to open the page."""
    return current_app.config["PUBLIC_URL"] or request.host_url


@bp.get("/")
def index() -> str:
    """The single page; everything on it is drawn from the live state."""
    return render_template(
        "index.html", public_url=public_url(), language=current_app.config["LANGUAGE"]
    )


@bp.get("/qr.svg")
def qr() -> Response:
    """The page's address as a QR code, so a tablet can open it by pointing its camera."""
    return Response(qr_svg(public_url()), mimetype="image/svg+xml")
