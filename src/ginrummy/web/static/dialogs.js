// The new-game dialog (computer or friends, the rules fields, the table) with `startGame`, and the
// statistics dialog.

import { levelName, fieldLabel, choiceLabel, presetName, humanize } from "./i18n.js";
import { rulesOverrides } from "./model.js";
import { $, el, toast } from "./page.js";
import { fillScoring, presetForScoring, applyConstraints, scoringName } from "./variants.js";
import { KEY_NEW, S, api, detailMessage, store, t } from "./session.js";
import { friends, takeSeat } from "./app.js";
import { renderResumeList } from "./games.js";
import { ratingSection, about } from "./rating_view.js";

// ---------------------------------------------------------------- new game dialog
export async function ensureMeta() {
  if (S.meta) return S.meta;
  const r = await api("GET", "/api/meta");
  if (!r.ok) throw new Error("meta");
  S.meta = r.data;
  return S.meta;
}

export async function openNewGame() {
  try { await ensureMeta(); } catch { toast(t("error.network")); return; }
  buildNewGameForm(true);
  renderResumeList();
  $("new-error").hidden = true;
  const dlg = $("dlg-new");
  if (!dlg.open) dlg.showModal();
  $("new-start").focus({ preventScroll: true });  // the form opens at its top; the button is in sight
}

export function levelId(l) { return typeof l === "object" && l ? l.name ?? l.id : l; }

function metaFields() {
  const m = S.meta || {};
  if (Array.isArray(m.fields) && m.fields.length) return m.fields;
  const p = Object.values(m.presets || {})[0] || {};
  return Object.entries(p).filter(([k]) => k !== "preset").map(([name, v]) => ({ name, type: typeof v === "boolean" ? "bool" : typeof v === "number" ? "int" : "str" }));
}

export function buildNewGameForm(reset) {
  const m = S.meta || {};
  const saved = store.get(KEY_NEW, {}) || {};
  const lvSel = $("new-level");
  const lvPrev = reset ? saved.level : lvSel.value;
  const levels = m.levels || [];
  const rated = m.level_ratings || {};
  lvSel.replaceChildren(...levels.map((l) => el("option", { value: levelId(l),
    text: rated[levelId(l)] ? t("level.with_rating", { level: levelName(l, t), rating: about(rated[levelId(l)]) }) : levelName(l, t) })));
  lvSel.value = levels.map(levelId).includes(lvPrev) ? lvPrev : m.default_level ?? levelId(levels[0]);
  const prSel = $("new-preset");
  const prPrev = reset ? saved.preset : prSel.value;
  const presets = Object.keys(m.presets || {});
  prSel.replaceChildren(...presets.map((p) => el("option", { value: p, text: presetName(p, t) })));
  prSel.value = presets.includes(prPrev) ? prPrev : presets.includes("standard") ? "standard" : presets[0];
  fillScoring($("new-scoring"), m, t, reset ? saved.scoring : $("new-scoring").value);
  const current = reset ? { ...(m.presets || {})[prSel.value], ...(saved.preset === prSel.value ? saved.rules || {} : {}) } : readFields();
  buildFields(current);
  friends.buildForm(reset);  // the kind of table first: the note's words depend on it
  updatePresetNote();
}

/** The rules' and the table's note under the choices; a table of friends has its own words where the computer's would be wrong ("You and two computers"). */
export function updatePresetNote() {
  const name = $("new-preset").value;
  const scoring = $("new-scoring").value || "standard";
  const people = $("new-kind").value === "friends" && S.t.has(`scoring_note.${scoring}_people`);
  const table = scoring === "standard" ? "" : t(`scoring_note.${scoring}${people ? "_people" : ""}`, null, "");
  $("new-preset-note").textContent = [t(`preset_note.${name}`, null, ""), table].filter(Boolean).join(" ");
}

/** The table choice: a scoring with its own preset (partnership) selects it; fields follow. */
export function onScoringChange() {
  const preset = presetForScoring(S.meta, $("new-scoring").value);
  if (preset && $("new-preset").value !== preset) {
    $("new-preset").value = preset;
    buildFields({ ...(S.meta.presets || {})[preset] });
  }
  applyConstraints($("new-fields"), $("new-scoring").value, S.meta, t);
  updatePresetNote();
}

function fieldKind(f, presetValue) {
  const type = String(f.type || "").toLowerCase();
  if (Array.isArray(f.choices) && f.choices.length) return "choice";
  if (type.startsWith("bool")) return "bool";
  const num = /int|float|number/.test(type);
  if ((num && (f.nullable || /null|none|optional|\?/.test(type))) || (presetValue === null && (num || f.min !== undefined))) return "onoff";
  if (num || typeof presetValue === "number") return "int";
  return "text";
}

export function buildFields(values) {
  const preset = (S.meta.presets || {})[$("new-preset").value] || {};
  const box = $("new-fields");
  box.replaceChildren(...metaFields().filter((f) => f.name !== "preset").map((f) => {
    const v = values[f.name] !== undefined ? values[f.name] : preset[f.name];
    const kind = fieldKind(f, preset[f.name] !== undefined ? preset[f.name] : v);
    const id = `f-${f.name}`;
    const label = fieldLabel(f.name, t);
    if (kind === "bool") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", id, "data-field": f.name, "data-kind": kind, checked: !!v }), el("span", { text: label }));
    }
    if (kind === "choice") {
      const s = el("select", { id, "data-field": f.name, "data-kind": kind },
        f.choices.map((c) => el("option", { value: String(c), text: choiceLabel(f.name, c, t) })));
      s.value = String(v);
      return el("label", {}, el("span", { text: label }), s);
    }
    if (kind === "onoff") {
      const on = v !== null && v !== undefined && v !== false;
      const num = el("input", { type: "number", id, "data-field": f.name, "data-kind": kind, min: f.min, max: f.max, step: 1, value: on ? v : f.default ?? 31, disabled: !on, "aria-label": label });
      const cb = el("input", { type: "checkbox", id: `${id}-on`, checked: on, "aria-label": `${label}: ${t("value.on")}` });
      cb.addEventListener("change", () => { num.disabled = !cb.checked; });
      return el("label", {}, el("span", { text: label }), el("span", { class: "onoff" }, cb, num));
    }
    if (kind === "int") {
      return el("label", {}, el("span", { text: label }), el("input", { type: "number", id, "data-field": f.name, "data-kind": kind, min: f.min, max: f.max, step: f.type === "float" ? "any" : 1, value: v ?? "" }));
    }
    return el("label", {}, el("span", { text: label }), el("input", { type: "text", id, "data-field": f.name, "data-kind": kind, value: v ?? "" }));
  }));
  applyConstraints(box, $("new-scoring").value || "standard", S.meta, t);
}

function readFields() {
  const out = {};
  for (const e of $("new-fields").querySelectorAll("[data-field]")) {
    const name = e.dataset.field;
    switch (e.dataset.kind) {
      case "bool": out[name] = e.checked; break;
      case "onoff": out[name] = $(`${e.id}-on`).checked ? Number(e.value) : null; break;
      case "int": out[name] = e.value === "" ? null : Number(e.value); break;
      case "choice": {
        const f = metaFields().find((x) => x.name === name);
        const orig = f && f.choices.find((c) => String(c) === e.value);
        out[name] = orig !== undefined ? orig : e.value;
        break;
      }
      default: out[name] = e.value;
    }
  }
  return out;
}

export async function startGame(ev) {
  ev.preventDefault();
  const btn = $("new-start");
  if (btn.disabled) return;
  const level = $("new-level").value;
  const preset = $("new-preset").value;
  const rules = rulesOverrides((S.meta.presets || {})[preset], readFields());
  let table;
  try { table = friends.request(); } catch (e) {
    $("new-error").textContent = e.message;
    $("new-error").hidden = false;
    return;
  }
  btn.disabled = true;
  $("new-error").hidden = true;
  try {
    const scoring = $("new-scoring").value || "standard";
    const body = { level, preset, rules, scoring };
    if (table) Object.assign(body, { seats: table.seats, name: table.name, turn_clock: table.turn_clock });
    const r = await api("POST", "/api/games", body);
    if (!r.ok) {
      $("new-error").textContent = detailMessage(r.data);
      $("new-error").hidden = false;
      return;
    }
    store.set(KEY_NEW, { level, preset, rules, scoring, kind: table ? "friends" : "computer", seatChoices: table ? table._choices : (store.get(KEY_NEW, {}) || {}).seatChoices });
    const game = { game_id: r.data.game_id, token: r.data.token, seat: r.data.seat ?? 0 };
    if (table) friends.keepSeat({ ...game, name: table.name });
    history.replaceState(null, "", "/");
    takeSeat(game, r.data.state);
  } catch {
    $("new-error").textContent = t("error.network");
    $("new-error").hidden = false;
  } finally {
    btn.disabled = false;
  }
}

// ---------------------------------------------------------------- focus (WCAG 2.4.3)
/** A control the person can use now: in the page, shown, enabled. */
function usable(e) {
  return !!(e && e.isConnected && !e.disabled && e.getAttribute("aria-disabled") !== "true"
    && !e.closest("[hidden]") && e.getClientRects().length);
}

/**
 * The next thing the person can do, focused: Take (or Pass) at the offer, the stock (or the
 * pile) to draw, the card just drawn (or taken) to discard, Next hand after a hand; the hand while
 * another seat moves. Returns the element focused, or null.
 */
export function focusPlay() {
  const st = S.state;
  if (!st) return focusFirst([$("btn-first-deal"), $("btn-new")]);
  const card = (c) => (c ? $("hand").querySelector(`.slot[data-card="${c}"]`) : null);
  const cards = () => [...$("hand").querySelectorAll(".slot")];
  const resultShown = !$("result").hidden;
  switch (st.phase) {
    case "offer": return focusFirst([$("btn-take"), $("btn-pass"), ...cards()]);
    case "draw": return focusFirst([$("stock"), $("discard-pile"), $("btn-pass"), ...cards()]);
    case "discard": return focusFirst([card(S.selected), card(st.drawn), card(st.taken_from_discard), ...cards()]);
    case "hand-over":
    case "game-over":
      return focusFirst(resultShown ? [$("btn-next"), $("btn-rematch"), $("btn-again"), $("result")] : cards());
    default: return focusFirst([...cards(), $("hand")]);
  }
}

function focusFirst(list) {
  const e = list.find((x) => x && (usable(x) || (x.tabIndex === -1 && x.isConnected && !x.closest("[hidden]"))));
  if (e) e.focus({ preventScroll: !e.closest("#result") });
  return e || null;
}

/** Focus is lost: on nothing, or on a control that is gone, hidden or disabled. */
export function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || a === document.documentElement || (!usable(a) && a.tabIndex !== -1);
}

/**
 * Where the table moved on (`prev` phase to the state shown now): the person's focus follows to
 * the next thing to do when it was at the table or lost, never taken from the header, the score
 * sheet, a link or an open dialog.
 */
export function focusAfterMove(prevPhase) {
  const st = S.state;
  if (!st || document.querySelector("dialog[open]")) return;
  const a = document.activeElement;
  // the cards, the piles and the play's buttons; not the seats' strip (messages, leave), nor the result
  const atPlay = !!(a && a.closest && a.closest("#me, #opp, .center"));
  if (focusLost() || (atPlay && prevPhase !== st.phase)) focusPlay();
}

/**
 * Dialogs give focus back where it was before they opened (the control that opened them), or,
 * when that control is gone or disabled (the knock after knocking), to the next thing to do.
 */
export function wireDialogFocus() {
  let before = null;
  document.addEventListener("focusin", (e) => {
    if (!e.target.closest || !e.target.closest("dialog")) before = e.target;
  });
  for (const dlg of document.querySelectorAll("dialog")) {
    dlg.addEventListener("close", () => {
      if (document.querySelector("dialog[open]")) return;
      const a = document.activeElement;
      if (a && a !== document.body && !dlg.contains(a) && usable(a)) return;  // placed already (a deal)
      if (usable(before) && before !== document.body) before.focus();
      else focusPlay();
    });
  }
}

// ---------------------------------------------------------------- stats
export async function openStats() {
  const body = $("stats-body");
  body.replaceChildren(el("p", { text: t("prompt.loading") }));
  $("dlg-stats").showModal();
  try {
    const r = await api("GET", "/api/stats");
    if (!r.ok) throw new Error();
    const { rating, ...rest } = r.data || {};
    body.replaceChildren(...[ratingSection(rating, t), statsTable(rest)].filter(Boolean));
  } catch {
    body.replaceChildren(el("p", { text: t("error.network") }));
  }
}

function statValue(key, v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "object" && !Array.isArray(v) && "length" in v) {
    return v.length && v.kind ? t(`stats.streak_${v.kind}`, { n: v.length }, `${v.length} ${v.kind}`) : "—";
  }
  if (typeof v === "boolean") return t(v ? "value.yes" : "value.no");
  if (typeof v === "number" && /rate|ratio|pct|percent/.test(key)) return v <= 1 ? `${Math.round(v * 100)}%` : `${Math.round(v)}%`;
  if (typeof v === "number") return String(Math.round(v * 100) / 100);
  if (Array.isArray(v)) return String(v.length);
  return String(v);
}

/** The results by difficulty or by variant: one row each, played / won / lost / won (%). */
function resultsTable(key, groups) {
  const name = (k) => (key === "by_level" ? levelName(k, t) : ["hollywood", "three_player", "partnership"].includes(k) ? scoringName(k, t) : presetName(k, t));
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", text: key === "by_level" ? t("new.level") : t("stats.variant") }),
    ...["col_played", "col_won", "col_lost", "col_rate"].map((c) => el("th", { scope: "col", class: "n", text: t(`stats.${c}`) }))));
  const rows = Object.entries(groups).map(([k, g]) => el("tr", { "data-key": k },
    el("th", { scope: "row", text: name(k) }),
    el("td", { class: "n", text: statValue("played", g.played) }), el("td", { class: "n", text: statValue("won", g.won) }),
    el("td", { class: "n", text: statValue("lost", g.lost) }), el("td", { class: "n", text: statValue("win_rate", g.win_rate) })));
  return el("table", { class: "stats-table by", "data-testid": `stats-${key}` }, head, el("tbody", {}, rows));
}

function statsTable(data) {
  if (!data || typeof data !== "object") return el("p", { text: String(data ?? "") });
  const rows = [];
  const nested = [];
  for (const [k, v] of Object.entries(data)) {
    if (v && typeof v === "object" && !Array.isArray(v) && !("length" in v)) nested.push([k, v]);
    else rows.push(el("tr", { "data-key": k }, el("th", { scope: "row", text: t(`stats.${k}`, null, humanize(k)) }), el("td", { class: "n", text: statValue(k, v) })));
  }
  const frag = el("div", {});
  if (rows.length) frag.append(el("table", { class: "stats-table" }, el("tbody", {}, rows)));
  else if (!nested.length) frag.append(el("p", { text: t("stats.none") }));
  for (const [k, v] of nested) {
    if (!Object.keys(v).length) continue;
    const title = t(`stats.${k}`, null, t(`level.${k}`, null, humanize(k)));
    const byTable = (k === "by_level" || k === "by_variant") && Object.values(v).every((g) => g && typeof g === "object" && "played" in g);
    frag.append(el("h3", { text: title }), byTable ? resultsTable(k, v) : statsTable(v));
  }
  return frag;
}
