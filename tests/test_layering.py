"""The rooms of ``agents`` depend on each other one way only, and no module imports itself in a circle.

Every module of the package is parsed (imports at module level and inside functions, relative ones,
and the module names handed to ``importlib.import_module`` as strings), and each import is checked
against ``LAYERS``: a module may import its own room and the rooms of lower layers, never a higher
layer nor another room of its own layer (the players do not know each other).
"""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "agents"

# Lowest first.  The entry layer holds the package itself and the thin modules that keep the
# documented commands (``python -m agents.train``...) and old checkpoints' class paths working.
LAYERS = [
    {"base": ["agents.base"], "workers": ["agents.workers"]},
    {"games": ["agents.games"]},
    {"baselines": ["agents.baselines"], "search": ["agents.search"]},
    {"learned": ["agents.learned"]},
    {"registry": ["agents.registry"]},
    {"arena": ["agents.arena"]},
    {"training": ["agents.training"], "web": ["agents.web"]},
    {"entry": ["agents", "agents.train", "agents.train_rllib", "agents.distill", "agents.expert_iteration",
               "agents.tournament",
               "agents.play", "agents.features", "agents.rllib_module"]},
]


def room_of(module):
    """(layer index, room) of a module: the room whose prefix matches it most closely."""
    best = None
    for rank, rooms in enumerate(LAYERS):
        for room, prefixes in rooms.items():
            for prefix in prefixes:
                if module == prefix or (module.startswith(prefix + ".") and prefix != "agents"):
                    if best is None or len(prefix) > best[0]:
                        best = (len(prefix), rank, room)
    return None if best is None else best[1:]


def module_name(path, root=PACKAGE):
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(module, is_package, level, name):
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if level == 0:
        return name
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports_of(source, module, is_package, known):
    """The ``agents`` modules that ``source`` (the text of ``module``) imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node.level, node.module)
            found.add(target)
            # ``from package import module`` imports the module
            found.update(f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in known)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value \
                and node.value in known:
            found.add(node.value)   # importlib.import_module("agents....")
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = str(node.values[0].value)   # f"agents.search.{game}": some module of that package
            if head.endswith(".") and head[:-1] in known:
                found.add(head[:-1])
    return {name for name in found if name.split(".")[0] == "agents" and name != module}


def all_imports(root=PACKAGE):
    """Every ``agents`` name each module imports, whether it exists or not."""
    paths = sorted(root.rglob("*.py"))
    known = {module_name(p, root) for p in paths}
    return known, {module_name(p, root): imports_of(p.read_text(), module_name(p, root), p.name == "__init__.py",
                                                    known)
                   for p in paths}


def import_graph(root=PACKAGE):
    known, imports = all_imports(root)
    return {module: targets & known for module, targets in imports.items()}


def find_cycles(graph):
    """The strongly connected components of more than one module, and modules importing themselves
    (Tarjan's algorithm)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def wrong_way(graph):
    """Imports against the layer order, as ``(importer, imported)``."""
    bad = []
    for module, targets in sorted(graph.items()):
        rank, room = room_of(module)
        for target in sorted(targets):
            target_rank, target_room = room_of(target)
            if target_room != room and target_rank >= rank:
                bad.append((module, target))
    return bad


# ---------------------------------------------------------------------------------------------------
def test_every_module_has_a_room():
    assert [m for m in import_graph() if room_of(m) is None] == []


def test_every_imported_module_exists():
    # An import of a module that moved away can go unnoticed where another copy of the package is
    # installed: Python then finds the old module there.
    known, imports = all_imports()
    assert {module: sorted(targets - known) for module, targets in imports.items() if targets - known} == {}


def test_no_import_cycles_between_agents_modules():
    assert find_cycles(import_graph()) == []


def test_imports_point_down_the_layers():
    assert wrong_way(import_graph()) == []


def test_the_graph_sees_the_imports_that_matter():
    graph = import_graph()
    assert "agents.base" in graph["agents.registry"] or "agents.games" in graph["agents.registry"]
    assert "agents.learned.network" in graph["agents.registry"]
    assert "agents.baselines.heuristic" in graph["agents.registry"]        # a string for importlib
    assert "agents.search" in graph["agents.learned.scorer"]                # an f-string for importlib
    assert "agents.search.ismcts" in graph["agents.search.mcts"]            # inside a function
    assert "agents.arena.tournament" in graph["agents.training.train"]      # inside a function
    assert graph["agents.base"] == set()


# The checker itself, on made-up packages
def test_find_cycles_reports_a_cycle_and_only_that():
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}, "a.s": {"a.s"}}
    assert sorted(find_cycles(graph)) == [["a.s"], ["a.x", "a.y", "a.z"]]
    assert find_cycles({"a.x": {"a.y"}, "a.y": set()}) == []


def test_wrong_way_flags_upward_and_sideways_imports():
    graph = {"agents.base": {"agents.registry"},
             "agents.search.mcts": {"agents.baselines.heuristic", "agents.base"},
             "agents.arena.tournament": {"agents.registry", "agents.arena.match"}}
    assert wrong_way(graph) == [("agents.base", "agents.registry"),
                                ("agents.search.mcts", "agents.baselines.heuristic")]


def test_imports_of_reads_function_level_and_relative_imports():
    known = {"agents.base", "agents.registry", "agents.search", "agents.search.ismcts", "agents.search.common"}
    source = ("from ..base import Agent\n"
              "from .common import NO_EDGE\n"
              "def f():\n"
              "    from ..registry import make_agent\n"
              "    from . import ismcts\n")
    assert imports_of(source, "agents.search.mcts", False, known) == {
        "agents.base", "agents.search.common", "agents.registry", "agents.search", "agents.search.ismcts"}


@pytest.mark.parametrize("module, expected", [("agents.search.makabana", (2, "search")),
                                              ("agents.train", (7, "entry")), ("agents", (7, "entry")),
                                              ("agents.learned", (3, "learned")), ("elsewhere", None)])
def test_room_of(module, expected):
    assert room_of(module) == expected
