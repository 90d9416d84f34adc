"""The web game: a FastAPI app serving the JSON API of docs/api.md, the static front end, its
translations and the content pages. Importing this package needs the web dependencies."""

from .http.app import create_app, serve

__all__ = ["create_app", "serve"]
