"""The web game's HTTP setup: the app factory and server (:mod:`.app`), its middleware's parts
(security :mod:`.headers`, request :mod:`.timeouts`, :mod:`.ratelimit`), the answers' JSON
(:mod:`.encoding`, :mod:`.schemas`, :mod:`.errors`), the people's language and words
(:mod:`.i18n`, :mod:`.messages`, :mod:`.text`), the static files and content pages
(:mod:`.delivery`, :mod:`.pages`), the hot paths' threads (:mod:`.workers`), the retention
sweep (:mod:`.housekeeping`) and bearer tokens as the store keeps them (:mod:`.tokens`)."""
