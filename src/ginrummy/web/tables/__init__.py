"""The tables of the web game (docs/tables.md): the one table service of every form and what
it is made of.

- :mod:`.service`: the game flow of every request (:class:`~.service.TableService`);
  :mod:`.seats`: the seats' operations (joining, leaving, the rematch, presence, what a live
  stream reads: :class:`~.seats.Seats`); :mod:`.inputs`: the checks of what a request sends;
- :mod:`.engine`: the engine side of a table (one :class:`ginrummy.game.Game` for every form,
  its computers moved by the engine's one loop); :mod:`.numbering`: its events' ``seq``;
- :mod:`.state`: the ``state`` JSON of one seat, from the engine's views;
  :mod:`.seat_state`: what else a seat is shown of its table (seats, status, messages);
  :mod:`.fairness_record`: the fairness record;
- :mod:`.stored`: a table's rows loaded (rebuilt from its event log, or from a cache checked
  against the stored ``seq``) and saved.
"""
