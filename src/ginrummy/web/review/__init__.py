"""Review my game in the server (issue 20, docs/api.md "Review"): the reviews of finished games
and hands and the try-again exercises, made once across processes and stored
(:mod:`.reviews`), in a bounded pool of worker processes apart from play (:mod:`.pool`), by
jobs that call the evaluator :mod:`ginrummy.bots.review` (:mod:`.jobs`). Its routes are in
:mod:`ginrummy.web.api.review`."""
