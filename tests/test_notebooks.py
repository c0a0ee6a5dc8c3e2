"""The tutorial notebooks in ``notebooks/``: each runs top to bottom in fast mode, and each is stored
with its outputs (pictures included) so that it reads well without running.

Fast mode: the kernel gets ``NOTEBOOK_FAST=1``, which every notebook's parameter cell turns into small
sizes.  The notebooks run in a Jupyter kernel of this Python (nbclient + ipykernel, from the ``test``
extra); without them the execution tests are skipped.  The training notebook also needs
``sb3_contrib`` (the ``train`` extra).
"""
import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["makabana_quickstart", "makemake_quickstart", "maunakea_quickstart", "batched_and_benchmarks",
         "training"]
NEEDS = {"training": ("sb3_contrib", 'the training notebook needs sb3_contrib: pip install -e ".[train]"')}
TIMEOUT_S = 300  # per cell
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _stored(name):
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))


def test_every_notebook_is_listed():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_stored_with_outputs_and_pictures(name):
    """Stored executed (normal mode), without errors, with at least one picture."""
    cells = [c for c in _stored(name)["cells"] if c["cell_type"] == "code"]
    assert cells, f"{name}: no code cell"
    first = "".join(cells[0]["source"])
    assert 'os.environ.get("NOTEBOOK_FAST")' in first, f"{name}: the first code cell must read NOTEBOOK_FAST"
    missing = [i for i, c in enumerate(cells) if c["source"] and c.get("execution_count") is None]
    assert not missing, f"{name}: code cells {missing} were not executed before saving"
    outputs = [o for c in cells for o in c.get("outputs", [])]
    assert outputs, f"{name}: stored without outputs"
    errors = [o for o in outputs if o["output_type"] == "error"]
    assert not errors, f"{name}: stored with an error: {errors[0]['ename']}: {errors[0]['evalue']}"
    pictures = [o for o in outputs if "image/png" in o.get("data", {})]
    assert pictures, f"{name}: stored without any picture"


def _kernel_manager(tmp_path):
    """A kernel of this very Python, whatever kernels the machine has registered."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec = tmp_path / "kernels" / "pacific-notebooks"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "pacific notebooks test", "language": "python"}))
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")], ensure_native_kernel=False)
    return KernelManager(kernel_name="pacific-notebooks", kernel_spec_manager=specs)


@pytest.mark.parametrize("name", NAMES)
def test_runs_in_fast_mode(name, tmp_path):
    for module in ("nbformat", "nbclient", "ipykernel", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"running the notebooks needs {module}: pip install -e \".[test]\"")
    if name in NEEDS and importlib.util.find_spec(NEEDS[name][0]) is None:
        pytest.skip(NEEDS[name][1])
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    root = str(NOTEBOOKS.parent)
    env = dict(os.environ, NOTEBOOK_FAST="1",
               PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    env.pop("MPLBACKEND", None)  # the kernel's own inline backend, so that pictures are drawn
    client = NotebookClient(nb, km=_kernel_manager(tmp_path), timeout=TIMEOUT_S,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:
        client.execute(env=env)
    except CellExecutionError as error:
        pytest.fail(f"{name}.ipynb failed in fast mode:\n{ANSI.sub('', str(error))}", pytrace=False)
    pictures = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if "image/png" in o.get("data", {})]
    assert pictures, f"{name}: no picture was drawn in fast mode"
