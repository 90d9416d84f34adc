// The game page drawn from its state (store.js): which part of the page redraws when the state it
// is drawn from changes. Each part lists the inputs it reads (`keys`); a part whose inputs are the
// same object as before is left alone (the hand keeps its focus, the result its open reveal, the
// score sheet its rows). Nothing is drawn before the page has its language (`lang`); a change of
// language (or of the languages /api/meta offers) draws every part again.

import { fitHand, drawActions, drawFair, drawFooter, drawFrame, drawHand, drawHandUsable, drawHint, drawOpponent, drawPiles, drawRules, drawScore, drawStatus, opponentSeat } from "./render.js";
import { drawNextButton, drawResult } from "./result.js";
import { drawLog, drawPileButton } from "./movelog.js";
import { drawKnock } from "./knock.js";
import { drawLeave } from "./games.js";
import { buildNewGameForm } from "./dialogs.js";
import { drawSettings, drawStaticText } from "./frame.js";
import { renderVariantBar } from "./variants.js";
import { drawConn, drawJoin, drawQuick, drawSeats, drawWaiting, seatLabel } from "./friends.js";
import { $ } from "./page.js";

/** What the hand is drawn from (not the whole state: a presence message leaves the hand alone). */
const handKeys = (p) => {
  const st = p.state || {};
  return [p.state ? 1 : 0, st.hand, st.arrangement, st.phase, st.drawn, st.taken_from_discard, st.knock_limit,
    p.order, p.selected, p.animating, p.settings.pro, p.t];
};

/**
 * The parts of the page in the order they are drawn (as the table reads: the hint's mark after
 * the hand and the piles it marks), each by name with the inputs it is drawn from.
 * `remembered()`: what the dialogs start from (storage.js).
 */
function parts(remembered) {
  const openDialog = (id) => $(id).open;
  const label = (p) => (st, n) => seatLabel(st, n, p.t);
  return [
    ["frame", (p) => [p.state], drawFrame],
    ["rules", (p) => [p.state, p.t], drawRules],
    ["opponent", (p) => [p.state, p.table, p.invite, p.loading, p.t], drawOpponent],
    ["piles", (p) => [p.state, p.table, p.busy, p.animating, p.t], drawPiles],
    ["pile-button", (p) => [p.state, p.table, p.log, p.animating, p.t], drawPileButton],
    ["status", (p) => [p.state, p.animating, p.loading, p.busy, p.reconnecting, p.invite, p.t], drawStatus],
    ["hand", handKeys, drawHand],
    ["hand-usable", (p) => [p.busy, p.animating], drawHandUsable],
    ["actions", (p) => [p.state, p.selected, p.busy, p.animating, p.hinting, p.game, p.order, p.settings.pro, p.t], drawActions],
    ["score", (p) => [p.state, p.t], drawScore],
    ["result", (p) => [p.state, p.ahead, p.animating, p.t], drawResult],
    ["next-hand", (p) => [p.state, p.ahead, p.busy, p.animating], drawNextButton],
    ["fair", (p) => [p.state, p.t], drawFair],
    ["variant-bar", (p) => [p.state, p.t], (p) => renderVariantBar($("vt-bar"), p.state, p.t)],
    ["hint", (p) => [p.hint, p.state && p.state.seq, p.state && p.state.game_id, ...handKeys(p)], drawHint],
    ["log", (p) => [p.state, p.log, p.animating, p.logUpTo, p.t], drawLog],
    ["footer", (p) => [p.state, p.invite, p.loading, p.t], drawFooter],
    ["seats", (p) => [p.state, p.game, p.busy, p.meta, p.t], (p) => { drawSeats(p, opponentSeat(p.state)); drawWaiting(p); }],
    ["connection", (p) => [p.conn, p.t], drawConn],
    ["quick", (p) => [p.t], drawQuick],
    // the dialogs open now, again in a new language (the knock dialog also when another knock is
    // previewed, the invite dialog when the invite changes)
    ["new-game", (p) => [p.t], (p) => { if (openDialog("dlg-new")) buildNewGameForm(p, false, remembered()); }],
    ["knock", (p) => [p.knockChoice, p.t], (p) => { if (openDialog("dlg-knock")) drawKnock(p); }],
    ["leave", (p) => [p.t], (p) => { if (openDialog("dlg-leave")) drawLeave(p, label(p)); }],
    ["join", (p) => [p.invite, p.t], (p) => { if (openDialog("dlg-join")) drawJoin(p, remembered().name); }],
  ].map(([name, keys, draw]) => ({ name, keys, draw }));
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The names of the parts to draw for the page `p` after `prev`, in order: those whose inputs
 * changed; every part when `prev` is null or the language changed (the fixed texts were put back).
 * None before the page has its language.
 */
export function partsToDraw(p, prev, list = parts(() => ({}))) {
  if (!p.lang) return [];
  const all = !prev || !prev.lang || languageChanged(p, prev);
  return list.filter((part) => all || !same(part.keys(p), part.keys(prev))).map((part) => part.name);
}

/** The page's words changed: another translator, or other languages offered. */
const languageChanged = (p, prev) => p.t !== prev.t || ((p.meta || {}).languages !== ((prev.meta || {}).languages));

/**
 * The page's drawer: `draw(p, prev)` draws what changed from `prev` (everything when `prev` is
 * null or had no language); `redraw(p)` draws every part again (a table of people's seat choice
 * refused: its select back to what the state says).
 */
export function createView(remembered) {
  const list = parts(remembered);

  function draw(p, prev) {
    if (!prev || p.settings !== prev.settings) {
      drawSettings(p);
      requestAnimationFrame(fitHand);
    }
    if (!p.lang) return;
    if (!prev || !prev.lang || languageChanged(p, prev)) drawStaticText(p);
    const names = new Set(partsToDraw(p, prev, list));
    for (const part of list) if (names.has(part.name)) part.draw(p);
  }

  return { draw, redraw: (p) => { for (const part of list) part.draw(p); } };
}
