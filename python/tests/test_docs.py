"""Every docstring's example runs as written."""

from __future__ import annotations

import doctest
import inspect

import npuzzle
import pytest


def documented() -> list[tuple[str, object]]:
    found: list[tuple[str, object]] = [("npuzzle", npuzzle)]
    for name in npuzzle.__all__:
        obj = getattr(npuzzle, name)
        found.append((name, obj))
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and getattr(member, "__doc__", None):
                    found.append((f"{name}.{attr}", member))
    return [(n, o) for n, o in found if getattr(o, "__doc__", None) and ">>>" in (o.__doc__ or "")]


@pytest.mark.parametrize("name,obj", documented(), ids=[n for n, _ in documented()])
def test_docstring_examples(name: str, obj: object, db3) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(
        obj.__doc__ or "", {"npuzzle": npuzzle, "Board": npuzzle.Board, "Database": npuzzle.Database}, name, None, 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{name}: see the output above"


def test_every_public_name_has_an_example() -> None:
    names = {n for n, _ in documented()}
    undocumented = [n for n in npuzzle.__all__ if n not in names and n != "AUTO_BUILD_MAX_CELLS"]
    assert not undocumented


def test_readme_examples() -> None:
    """The README's first example runs as written."""
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0
