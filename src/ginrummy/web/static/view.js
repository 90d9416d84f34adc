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
 * the hand and the piles it marks). `remembered()`: what the dialogs start from (storage.js).
 */
function parts(remembered) {
  const openDialog = (id) => $(id).open;
  const label = (p) => (st, n) => seatLabel(st, n, p.t);
  return [
    { keys: (p) => [p.state], draw: drawFrame },
    { keys: (p) => [p.state, p.t], draw: drawRules },
    { keys: (p) => [p.state, p.table, p.t], draw: drawOpponent },
    { keys: (p) => [p.state, p.table, p.busy, p.animating, p.t], draw: drawPiles },
    { keys: (p) => [p.state, p.table, p.log, p.animating, p.t], draw: drawPileButton },
    { keys: (p) => [p.state, p.animating, p.loading, p.busy, p.t], draw: drawStatus },
    { keys: handKeys, draw: drawHand },
    { keys: (p) => [p.busy, p.animating], draw: drawHandUsable },
    { keys: (p) => [p.state, p.selected, p.busy, p.animating, p.hinting, p.game, p.order, p.settings.pro, p.t], draw: drawActions },
    { keys: (p) => [p.state, p.t], draw: drawScore },
    { keys: (p) => [p.state, p.animating, p.t], draw: drawResult },
    { keys: (p) => [p.state, p.busy, p.animating], draw: drawNextButton },
    { keys: (p) => [p.state, p.t], draw: drawFair },
    { keys: (p) => [p.state, p.t], draw: (p) => renderVariantBar($("vt-bar"), p.state, p.t) },
    { keys: (p) => [p.hint, p.state, ...handKeys(p)], draw: drawHint },
    { keys: (p) => [p.state, p.log, p.animating, p.logUpTo, p.t], draw: drawLog },
    { keys: (p) => [p.state, p.t], draw: drawFooter },
    { keys: (p) => [p.state, p.game, p.busy, p.meta, p.t], draw: (p) => { drawSeats(p, opponentSeat(p.state)); drawWaiting(p); } },
    { keys: (p) => [p.conn, p.t], draw: drawConn },
    { keys: (p) => [p.t], draw: drawQuick },
    // the dialogs open now, again in a new language (the knock dialog also when another knock is
    // previewed, the invite dialog when the invite changes)
    { keys: (p) => [p.t], draw: (p) => { if (openDialog("dlg-new")) buildNewGameForm(p, false, remembered()); } },
    { keys: (p) => [p.knockChoice, p.t], draw: (p) => { if (openDialog("dlg-knock")) drawKnock(p); } },
    { keys: (p) => [p.t], draw: (p) => { if (openDialog("dlg-leave")) drawLeave(p, label(p)); } },
    { keys: (p) => [p.invite, p.t], draw: (p) => { if (openDialog("dlg-join")) drawJoin(p, remembered().name); } },
  ];
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The page's drawer: `draw(p, prev)` draws what changed from `prev` (everything when `prev` is
 * null or had no language); `redraw(p)` draws every part again (a table of people's seat choice
 * refused: its select back to what the state says).
 */
export function createView(remembered) {
  const list = parts(remembered);

  function drawParts(p, prev) {
    for (const part of list) if (!prev || !same(part.keys(p), part.keys(prev))) part.draw(p);
  }

  function draw(p, prev) {
    if (!prev || p.settings !== prev.settings) {
      drawSettings(p);
      requestAnimationFrame(fitHand);
    }
    if (!p.lang) return;
    const languageChanged = !prev || !prev.lang || p.t !== prev.t || ((p.meta || {}).languages !== ((prev.meta || {}).languages));
    if (languageChanged) drawStaticText(p);
    drawParts(p, languageChanged ? null : prev);  // the fixed texts were put back: every part again
  }

  return { draw, redraw: (p) => drawParts(p, null) };
}
