// The new-game dialog (computer or friends, the rules fields, the table) and the statistics
// dialog, drawn from the page's state they are given (`p`: its translator, the server's /api/meta)
// and read back when the person deals. Views only: session.js asks the server (the meta, the new
// table, the statistics) and opens them.

import { levelName, fieldLabel, choiceLabel, presetName, humanize } from "./i18n.js";
import { levelId, rulesOverrides } from "./model.js";
import { $, el } from "./page.js";
import { fillScoring, presetForScoring, applyConstraints, scoringName } from "./variants.js";
import { ratingSection, about } from "./rating_view.js";
import { buildFriendsForm, readFriendsForm } from "./friends.js";

// ---------------------------------------------------------------- new game dialog
function metaFields(meta) {
  const m = meta || {};
  if (Array.isArray(m.fields) && m.fields.length) return m.fields;
  const p = Object.values(m.presets || {})[0] || {};
  return Object.entries(p).filter(([k]) => k !== "preset").map(([name, v]) => ({ name, type: typeof v === "boolean" ? "bool" : typeof v === "number" ? "int" : "str" }));
}

/**
 * Fill the new-game form: the levels, the presets, the tables, the rules' fields, the friends'
 * part (friends.js). `reset`: from the choices last dealt (`remembered.newGame`), else keeping
 * what the form holds (a change of language). `remembered`: {newGame, name} (storage.js).
 */
export function buildNewGameForm(p, reset, remembered) {
  const { t } = p;
  const m = p.meta || {};
  const saved = remembered.newGame || {};
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
  prSel.replaceChildren(...presets.map((x) => el("option", { value: x, text: presetName(x, t) })));
  prSel.value = presets.includes(prPrev) ? prPrev : presets.includes("standard") ? "standard" : presets[0];
  fillScoring($("new-scoring"), m, t, reset ? saved.scoring : $("new-scoring").value);
  const current = reset ? { ...(m.presets || {})[prSel.value], ...(saved.preset === prSel.value ? saved.rules || {} : {}) } : readFields(m);
  buildFields(p, current);
  buildFriendsForm(p, reset, remembered);  // the kind of table first: the note's words depend on it
  updatePresetNote(p);
}

/** The rules' and the table's note under the choices; a table of friends has its own words where the computer's would be wrong ("You and two computers"). */
export function updatePresetNote(p) {
  const { t } = p;
  const name = $("new-preset").value;
  const scoring = $("new-scoring").value || "standard";
  const people = $("new-kind").value === "friends" && t.has(`scoring_note.${scoring}_people`);
  const table = scoring === "standard" ? "" : t(`scoring_note.${scoring}${people ? "_people" : ""}`, null, "");
  $("new-preset-note").textContent = [t(`preset_note.${name}`, null, ""), firstTo(p, name), table].filter(Boolean).join(" ");
}

/** "First to 100.": the game's target as chosen now (the field once customised), else the preset's. */
function firstTo(p, preset) {
  const field = $("f-target");
  const chosen = field && field.value !== "" ? Number(field.value) : NaN;
  const target = Number.isFinite(chosen) && chosen > 0 ? chosen : (((p.meta && p.meta.presets) || {})[preset] || {}).target;
  return target ? p.t("new.first_to", { n: target }) : "";
}

/** Another preset chosen: its fields' values. */
export function onPresetChange(p) {
  buildFields(p, { ...((p.meta && p.meta.presets) || {})[$("new-preset").value] });
  updatePresetNote(p);
}

/** The table choice: a scoring with its own preset (partnership) selects it; fields follow. */
export function onScoringChange(p) {
  const preset = presetForScoring(p.meta, $("new-scoring").value);
  if (preset && $("new-preset").value !== preset) {
    $("new-preset").value = preset;
    buildFields(p, { ...(p.meta.presets || {})[preset] });
  }
  applyConstraints($("new-fields"), $("new-scoring").value, p.meta, p.t);
  updatePresetNote(p);
}

/** A field changed: an on/off field's number follows its box; the fields the table fixes or that have no effect are marked. */
export function onFieldChange(p, target) {
  const num = target && target.id && target.id.endsWith("-on") ? $(target.id.slice(0, -3)) : null;
  if (num && num.dataset.kind === "onoff") num.disabled = !target.checked;
  applyConstraints($("new-fields"), $("new-scoring").value, p.meta, p.t);
  updatePresetNote(p);  // the note names the target chosen
}

/** How a rules field of /api/meta is asked for: a choice, a box (bool), a number that may be off (onoff), a number, a text. */
export function fieldKind(f, presetValue) {
  const type = String(f.type || "").toLowerCase();
  if (Array.isArray(f.choices) && f.choices.length) return "choice";
  if (type.startsWith("bool")) return "bool";
  const num = /int|float|number/.test(type);
  if ((num && (f.nullable || /null|none|optional|\?/.test(type))) || (presetValue === null && (num || f.min !== undefined))) return "onoff";
  if (num || typeof presetValue === "number") return "int";
  return "text";
}

export function buildFields(p, values) {
  const { t, meta } = p;
  const preset = (meta.presets || {})[$("new-preset").value] || {};
  const box = $("new-fields");
  box.replaceChildren(...metaFields(meta).filter((f) => f.name !== "preset").map((f) => {
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
      return el("label", {}, el("span", { text: label }), el("span", { class: "onoff" }, cb, num));
    }
    if (kind === "int") {
      return el("label", {}, el("span", { text: label }), el("input", { type: "number", id, "data-field": f.name, "data-kind": kind, min: f.min, max: f.max, step: f.type === "float" ? "any" : 1, value: v ?? "" }));
    }
    return el("label", {}, el("span", { text: label }), el("input", { type: "text", id, "data-field": f.name, "data-kind": kind, value: v ?? "" }));
  }));
  applyConstraints(box, $("new-scoring").value || "standard", meta, t);
}

function readFields(meta) {
  const out = {};
  for (const e of $("new-fields").querySelectorAll("[data-field]")) {
    const name = e.dataset.field;
    switch (e.dataset.kind) {
      case "bool": out[name] = e.checked; break;
      case "onoff": out[name] = $(`${e.id}-on`).checked ? Number(e.value) : null; break;
      case "int": out[name] = e.value === "" ? null : Number(e.value); break;
      case "choice": {
        const f = metaFields(meta).find((x) => x.name === name);
        const orig = f && f.choices.find((c) => String(c) === e.value);
        out[name] = orig !== undefined ? orig : e.value;
        break;
      }
      default: out[name] = e.value;
    }
  }
  return out;
}

/**
 * What the form asks for: `{level, preset, rules (the overrides of the preset), scoring, table}`
 * (`table`: the friends' part, friends.js readFriendsForm, null against the computer; it throws
 * an Error with a translated message on a bad name).
 */
export function readNewGame(p) {
  const preset = $("new-preset").value;
  return {
    level: $("new-level").value, preset, rules: rulesOverrides((p.meta.presets || {})[preset], readFields(p.meta)),
    scoring: $("new-scoring").value || "standard", table: readFriendsForm(p),
  };
}

/** The Deal button while the new table is asked for (off), and after. */
export function dealing(on) {
  $("new-start").disabled = on;
}

/** The form's error line (null: none). */
export function showNewGameError(text) {
  $("new-error").textContent = text || "";
  $("new-error").hidden = !text;
}

// ---------------------------------------------------------------- stats
/** The statistics dialog opened, its body saying it is loading. */
export function openStats(p) {
  $("stats-body").replaceChildren(el("p", { text: p.t("prompt.loading") }));
  $("dlg-stats").showModal();
}

/** The statistics (the answer of /api/stats: the rating, then the rest), or null when they could not be had. */
export function drawStats(p, data) {
  const { t } = p;
  if (!data) { $("stats-body").replaceChildren(el("p", { text: t("error.network") })); return; }
  const { rating, ...rest } = data;
  $("stats-body").replaceChildren(...[ratingSection(rating, t), statsTable(rest, t)].filter(Boolean));
}

/** A statistic in words: a rate in per cent, a streak, yes / no, a count; "—" for none. */
export function statValue(key, v, t) {
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
function resultsTable(key, groups, t) {
  const name = (k) => (key === "by_level" ? levelName(k, t) : ["hollywood", "three_player", "partnership"].includes(k) ? scoringName(k, t) : presetName(k, t));
  const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", text: key === "by_level" ? t("new.level") : t("stats.variant") }),
    ...["col_played", "col_won", "col_lost", "col_rate"].map((c) => el("th", { scope: "col", class: "n", text: t(`stats.${c}`) }))));
  const rows = Object.entries(groups).map(([k, g]) => el("tr", { "data-key": k },
    el("th", { scope: "row", text: name(k) }),
    el("td", { class: "n", text: statValue("played", g.played, t) }), el("td", { class: "n", text: statValue("won", g.won, t) }),
    el("td", { class: "n", text: statValue("lost", g.lost, t) }), el("td", { class: "n", text: statValue("win_rate", g.win_rate, t) })));
  return el("table", { class: "stats-table by", "data-testid": `stats-${key}` }, head, el("tbody", {}, rows));
}

function statsTable(data, t) {
  if (!data || typeof data !== "object") return el("p", { text: String(data ?? "") });
  const rows = [];
  const nested = [];
  for (const [k, v] of Object.entries(data)) {
    if (v && typeof v === "object" && !Array.isArray(v) && !("length" in v)) nested.push([k, v]);
    else rows.push(el("tr", { "data-key": k }, el("th", { scope: "row", text: t(`stats.${k}`, null, humanize(k)) }), el("td", { class: "n", text: statValue(k, v, t) })));
  }
  const frag = el("div", {});
  if (rows.length) frag.append(el("table", { class: "stats-table" }, el("tbody", {}, rows)));
  else if (!nested.length) frag.append(el("p", { text: t("stats.none") }));
  for (const [k, v] of nested) {
    if (!Object.keys(v).length) continue;
    const title = t(`stats.${k}`, null, t(`level.${k}`, null, humanize(k)));
    const byTable = (k === "by_level" || k === "by_variant") && Object.values(v).every((g) => g && typeof g === "object" && "played" in g);
    frag.append(el("h3", { text: title }), byTable ? resultsTable(k, v, t) : statsTable(v, t));
  }
  return frag;
}
