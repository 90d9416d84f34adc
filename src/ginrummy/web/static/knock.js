// The knock dialog, drawn from the page's state it is given: the knock previewed (`knockChoice`,
// one of the server's legal knocks), the cards it may discard face down, and the hand laid out as
// that knock would lay it down. `knockView` is pure (tests/js/views.test.mjs).

import { cardName } from "./i18n.js";
import { legalOfType, isRunMeld, sortForShow } from "./model.js";
import { $, el, cardEl } from "./page.js";

/** The knock previewed: its words, the knocks to choose from (the one previewed checked), its melds and deadwood. */
export function knockView(p) {
  const { t, knockChoice: k, state: st } = p;
  if (!k || !st) return null;
  const knocks = legalOfType(st, "knock");
  return {
    text: t("knock.text", { card: cardName(k.card, t), n: k.deadwood_points ?? 0, limit: st.knock_limit ?? "" }),
    choose: knocks.length >= 2,
    choices: knocks.map((a) => ({ card: a.card, checked: a.card === k.card, title: t("result.deadwood", { n: a.deadwood_points }) })),
    melds: (k.melds || []).map((m) => ({ cards: sortForShow(m), kind: t(isRunMeld(m) ? "hand.run" : "hand.set") })),
    deadwood: k.deadwood || [],
    deadwoodText: t("result.deadwood", { n: k.deadwood_points ?? 0 }),
  };
}

export function drawKnock(p) {
  const { t } = p;
  const v = knockView(p);
  if (!v) return;
  $("knock-text").textContent = v.text;
  $("knock-choose-wrap").hidden = !v.choose;
  $("knock-choices").replaceChildren(...v.choices.map((c) => cardEl(c.card, t, { button: true, mini: true, attrs: { role: "radio", "aria-checked": c.checked ? "true" : "false", title: c.title } })));
  const groups = v.melds.map((m, i) => {
    const g = el("div", { class: `group meld m${i % 4}`, role: "group", "aria-label": t("hand.meld_label", { n: i + 1, kind: m.kind }) });
    for (const c of m.cards) g.append(cardEl(c, t, { mini: true }));
    g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: m.kind })));
    return g;
  });
  if (v.deadwood.length) {
    const g = el("div", { class: "group deadwood", role: "group", "aria-label": t("hand.deadwood_group") });
    for (const c of v.deadwood) g.append(cardEl(c, t, { mini: true }));
    g.append(el("div", { class: "group-mark", "aria-hidden": "true" }, el("span", { text: v.deadwoodText })));
    groups.push(g);
  }
  $("knock-spread").replaceChildren(...groups);
}
