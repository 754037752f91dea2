"""The battlefield's optional background picture: a data URI of a PNG, JPEG or WebP image.

The picture is untrusted like the rest of the file: only its header is read here (the
media type it claims must match its first bytes); decoding the pixels is the GUI's job.
"""

from __future__ import annotations

import base64
import binascii

MEDIA_TYPES = ("image/png", "image/jpeg", "image/webp")
_PREFIX = "data:"
_MAGIC = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/webp": (b"RIFF",),
}


def media_type_of(data: bytes) -> str | None:
    """The image type these bytes start like, or None."""
    for media, marks in _MAGIC.items():
        if any(data.startswith(m) for m in marks):
            if media == "image/webp" and data[8:12] != b"WEBP":
                continue
            return media
    return None


def data_uri(data: bytes) -> str:
    """``data:<type>;base64,...`` for image bytes (ValueError when not PNG, JPEG, WebP)."""
    media = media_type_of(data)
    if media is None:
        raise ValueError("not a PNG, JPEG or WebP image")
    return f"{_PREFIX}{media};base64,{base64.b64encode(data).decode('ascii')}"


def decode_data_uri(text: str) -> tuple[str, bytes]:
    """The media type and bytes of a background image URI; ValueError says what is wrong."""
    if not text.startswith(_PREFIX) or "," not in text:
        raise ValueError('must be a data URI such as "data:image/png;base64,..."')
    head, _, payload = text.partition(",")
    media, _, encoding = head[len(_PREFIX):].partition(";")
    if media not in MEDIA_TYPES or encoding != "base64":
        raise ValueError(f"must be base64 data of {', '.join(MEDIA_TYPES)}, not "
                         f"{head[:40]!r}")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the base64 data is damaged") from None
    found = media_type_of(data)
    if found != media:
        raise ValueError(f"the data is not {media} ({found or 'not an image this program reads'})")
    return media, data
