"""Play the agents in a web browser, and watch recorded games: ``python -m agents.web`` (see ``__main__``).

``create_app`` (``agents.web.app``) is the Starlette app; ``views`` what one seat's page receives;
``screenshots`` the README's pictures, taken in a browser.  Needs the ``web`` extra (starlette, uvicorn)."""
try:
    from .app import create_app
except ModuleNotFoundError as error:
    if error.name not in ("starlette", "uvicorn"):
        raise
    raise ImportError(f"agents.web needs {error.name}, from the web extra: pip install -e \".[web]\"") from error

__all__ = ["create_app"]
