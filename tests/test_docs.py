"""The Python examples of the README and of ``docs/`` run as printed, the README's game record is the
one its command writes, and each game's page states the sizes of its spaces.

Each Markdown file's ```` ```python ```` blocks run in order in one namespace (a later block may use an
earlier one's imports), in a scratch folder.  The README's record example reads
``games/game-00000.json``, which the README tells the reader to write with ``agents.tournament``; the
test runs that command from the README's own text first.
"""
import json
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
RECORD_COMMAND = re.compile(r"`python -m agents\.tournament ([^`]*--record games)`")


def python_blocks(page):
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.S)


def readme_record_command():
    """The arguments of the README's ``agents.tournament ... --record games`` command."""
    found = RECORD_COMMAND.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(found) == 1, "the README should show one tournament command writing the record example"
    return shlex.split(found[0])


def readme_record_example():
    """The record printed in the README, its elided final state read as None."""
    blocks = re.findall(r"```json\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return json.loads(blocks[0].replace("[...]", "null"))


def test_every_page_with_examples_is_covered():
    assert [page for page in PAGES if python_blocks(page)], "no Python example found in the docs"


@pytest.mark.parametrize("page", [page for page in PAGES if python_blocks(page)])
def test_python_examples_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    if page == "README.md":
        from agents import tournament
        tournament.main(readme_record_command())
    namespace = {"__name__": "__docs__"}
    for number, code in enumerate(python_blocks(page)):
        exec(compile(code, f"{page}, Python example {number + 1}", "exec"), namespace)


def test_readme_record_is_what_its_command_writes(tmp_path, monkeypatch, capsys):
    """README, 'Positions, records and actions by name': the JSON shown is the game the command plays."""
    from agents import tournament
    monkeypatch.chdir(tmp_path)
    tournament.main(readme_record_command())
    written = json.loads((tmp_path / "games" / "game-00000.json").read_text(encoding="utf-8"))
    shown = readme_record_example()
    assert set(shown) == set(written)
    for key in shown:
        if key != "final_state":
            assert shown[key] == written[key], key
    entries = re.search(r"its (\d+)-entry final state left out", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert entries and len(written["final_state"]) == int(entries.group(1))


@pytest.mark.parametrize("game", ["makabana", "makemake", "maunakea"])
def test_game_pages_state_the_sizes_the_game_has(game):
    """docs/<game>.md: the action space in its heading and every ``OBS_SIZE…` = N values`` it states."""
    import importlib
    package = importlib.import_module(f"{game}_env")
    text = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    heading = re.search(r"## Action space — `Discrete\((\d+)\)`", text)
    assert heading and int(heading.group(1)) == package.raw_env().action_space("player_0").n
    for name, value in re.findall(r"`(?:core\.)?(OBS_SIZE\w*)` = (\d+) values", text):
        assert getattr(package.core, name) == int(value), name
