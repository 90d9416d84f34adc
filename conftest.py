"""Repository-wide pytest hooks.

``--doctest-modules`` (pyproject) would import every ``tests/**/conftest.py`` a second time as a
doctest module, and same-named conftests then clash; conftests are loaded by pytest itself, so
they are never collected as modules.
"""

from pathlib import Path


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path.name == "conftest.py":
        return True
    return None
