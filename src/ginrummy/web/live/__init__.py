"""The live channel (docs/tables.md "Live"): the hub that hands the store's change
notifications to this process's open streams (:mod:`.hub`), the seats' presence kept in the
store (:mod:`.presence`) and the bounds on the open streams (:mod:`.streams`)."""
