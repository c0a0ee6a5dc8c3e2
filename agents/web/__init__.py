"""Play the agents in a web browser, and watch recorded games: ``python -m agents.web`` (see ``__main__``).

``create_app`` (``agents.web.app``) is the Starlette app; ``views`` what one seat's page receives.
Needs the ``web`` extra (starlette, uvicorn)."""
from .app import create_app

__all__ = ["create_app"]
