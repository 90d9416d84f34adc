// Gin Rummy table, the entry module: it wires the page's layers and boots. The server is the
// authority; no file of the page holds a rule. The layers, each importing only those below it:
// - pure helpers (no DOM, node-tested in tests/js/): cards.js, i18n.js, model.js, seats.js,
//   live.js, variants.js, sheet.js, store.js (the page's state and how it changes), intents.js
//   (what the person's intents mean at the table shown);
// - DOM helpers: page.js (what the pages share), sound.js, storage.js, announce.js, focus.js;
// - views that draw only from the state they are given: render.js (the table), result.js,
//   movelog.js, knock.js, games.js, dialogs.js (with rating_view.js), friends.js (tables of
//   people: docs/tables.md), frame.js, motion.js, composed by view.js;
// - session.js, the one module that talks to the server and writes the page's state, and
//   controls.js, where the DOM's events become intents;
// - this entry.

import { createStore, initialPage, reduce } from "./store.js";
import { KEY_SETTINGS, remembered, storage } from "./storage.js";
import { createView } from "./view.js";
import { createSession } from "./session.js";
import { wireControls } from "./controls.js";

const store = createStore(reduce, initialPage(storage.get(KEY_SETTINGS, {})));
const view = createView(remembered);
const session = createSession({ store, redraw: () => view.redraw(store.get()) });
store.subscribe((p, prev) => view.draw(p, prev));
store.subscribe((p) => { if (p.lang) session.syncLive(); });  // after each change, as the table is drawn
wireControls({ send: session.handle, get: store.get });
view.draw(store.get(), null);  // the settings' marks at once; the rest once the page has its words
session.boot();
