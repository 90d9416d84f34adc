"""The JSON API's routes by resource (docs/api.md): a game (:mod:`.games`), the tables of
people (:mod:`.tables`: invites, seats, start, leave, rematch, messages, the live stream), the
menus' data (:mod:`.meta`), a browser's statistics (:mod:`.stats`), a finished hand's replay
(:mod:`.replay`), the score keeper's sheets (:mod:`.sheets`) and the tutorial
(:mod:`.tutorial`). Each module's ``install_*`` adds its routes to the app."""
