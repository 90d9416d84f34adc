"""One truth about what the server keeps (issue 21 item 8): docs/deploy.md said games were kept
forever while docs/retention.md and the README described the retention sweep. Every document
that says how long games are kept gives the defaults of ``Retention`` and points to
docs/retention.md; none says they are kept forever but as the ``off`` setting."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ginrummy.store.retention import Retention

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = Retention()


def _flat(path: Path) -> str:
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def test_the_defaults_are_the_ones_described() -> None:
    assert (DEFAULTS.idle_days, DEFAULTS.record_days) == (90.0, 365.0)
    text = _flat(ROOT / "docs" / "retention.md")
    assert "default **90 days**" in text and "default **365 days**" in text


@pytest.mark.parametrize("doc", ["README.md", "docs/deploy.md"])
def test_every_document_tells_the_same(doc: str) -> None:
    text = _flat(ROOT / doc)
    assert "retention.md" in text, doc
    assert "90 days" in text and re.search(r"a year|365 days", text), doc
    assert not re.search(r"kept forever|keeps? (them|games)[^.]* forever", text), doc

