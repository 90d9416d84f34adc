// The score keeper page (/keeper): a sheet for games played with real cards. The person enters
// each hand's outcome (who knocked; knock, gin, big gin, undercut or dead hand; the deadwood
// counts or the shown cards); the server scores it under the chosen rules (ginrummy.keeper) and
// answers the whole sheet, drawn here with sheet.js. Saved on the server (token-owned, like a
// game; the page keeps {sheet_id, token} in localStorage), exported as CSV, printed.

import { makeT, presetName, fieldLabel, choiceLabel, errorAnswerText } from "./i18n.js";
import { hollywoodFromKeeper, threeFromKeeper, columnsFromKeeper, renderModel } from "./sheet.js";
import { $, el, apiRequest, applyLanguage, pageLanguage, toast } from "./page.js";
import { constrain, scoringName } from "./variants.js";

const KEY = "ginrummy.keeper";
const S = { lang: "en", t: makeT({}), meta: null, sheet: null, token: null, busy: false, modes: {} };
const t = (...a) => S.t(...a);

const saved = {
  get() { try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; } },
  set(v) { try { if (v) localStorage.setItem(KEY, JSON.stringify(v)); else localStorage.removeItem(KEY); } catch { /* private mode */ } },
};

/** A request to the JSON API; the sheet's token goes with requests on sheets. */
function api(method, path, body) {
  return apiRequest(method, path, body, path.startsWith("/api/sheets/") ? S.token : null);
}

/** An API error answer in the page's language (the server's reason, worded from the catalog). */
function message(data) {
  return errorAnswerText(data, S.t, S.lang);
}

// What the page shows in words that a language switch words again: the error under each form
// (`shown[id]`: a function giving its text) and the last status announced (kp-status, polite).
const shown = {};
let status = null;

/** Show the error `words()` in the element `id` (worded again after a language switch). */
function showError(id, words) {
  shown[id] = words;
  $(id).textContent = words();
  $(id).hidden = false;
}

/** Say `words()` in the status line (a live region), and again after a language switch. */
function say(words) {
  status = words;
  $("kp-status").textContent = words ? words() : "";
}

// ---------------------------------------------------------------- language
async function setLanguage(lang, save = true) {
  const last = status;
  ({ lang: S.lang, t: S.t } = await applyLanguage(lang, { save, titleKey: "keeper.title" }));
  if (S.meta) { fillNewForm(false); render(); }
  for (const [id, words] of Object.entries(shown)) if (!$(id).hidden) $(id).textContent = words();
  if (last) say(last);
}

// ---------------------------------------------------------------- new sheet
const scoringOf = () => $("kp-scoring").value || "standard";
const playersOf = (scoring) => (((S.meta && S.meta.scorings) || []).find((s) => s.name === scoring) || { players: 2 }).players;

function fillNewForm(reset) {
  const m = S.meta;
  const sc = $("kp-scoring");
  const prevScoring = reset ? "standard" : sc.value;
  sc.replaceChildren(...m.scorings.map((s) => el("option", { value: s.name, text: scoringName(s.name, t) })));
  sc.value = prevScoring || "standard";
  const pr = $("kp-preset");
  const prevPreset = reset ? "standard" : pr.value;
  pr.replaceChildren(...Object.keys(m.presets).map((p) => el("option", { value: p, text: presetName(p, t) })));
  pr.value = prevPreset || "standard";
  if (reset) presetChanged();
  buildNames(!reset);
  noteNew();
}

function presetChanged() {
  const p = S.meta.presets[$("kp-preset").value] || {};
  $("kp-target").value = p.target ?? 100;
  const big = p.big_gin_bonus;
  $("kp-big-on").checked = big !== null && big !== undefined;
  $("kp-big").value = big ?? 31;
  $("kp-big").disabled = !$("kp-big-on").checked;
  noteNew();
}

function scoringChanged() {
  const sc = S.meta.scorings.find((s) => s.name === scoringOf());
  if (sc && sc.preset && $("kp-preset").value !== sc.preset) { $("kp-preset").value = sc.preset; presetChanged(); }
  buildNames(true);
  noteNew();
}

function noteNew() {
  const target = Number($("kp-target").value);
  const bits = [t(`preset_note.${$("kp-preset").value}`, null, ""), target > 0 ? t("new.first_to", { n: target }) : ""];
  if (scoringOf() !== "standard") bits.push(t(`scoring_note.${scoringOf()}`, null, ""));
  $("kp-preset-note").textContent = bits.filter(Boolean).join(" ");
}

function buildNames(keep) {
  const n = playersOf(scoringOf());
  const box = $("kp-names");
  const old = keep ? [...box.querySelectorAll("input")].map((i) => i.value) : [];
  const part = scoringOf() === "partnership";
  const inputs = [];
  for (let i = 0; i < n; i++) {
    const letter = "ABCD"[i];
    const label = part ? t("keeper.player_team", { letter, team: i % 2 + 1 }) : t("keeper.player_n", { n: i + 1 });
    inputs.push(el("label", {}, el("span", { text: label }),
      el("input", { type: "text", id: `kp-name-${i}`, maxlength: "40", value: old[i] ?? "", placeholder: part ? letter : t("keeper.player_n", { n: i + 1 }), "data-testid": `kp-name-${i}` })));
  }
  if (scoringOf() !== "partnership" && scoringOf() !== "hollywood") {
    const sel = el("select", { id: "kp-first", "data-testid": "kp-first" });
    inputs.push(el("label", {}, el("span", { text: t(scoringOf() === "three_player" ? "keeper.first_dealer_3p" : "keeper.first_dealer") }), sel));
  }
  box.replaceChildren(...inputs);
  const first = $("kp-first");
  const refreshFirst = () => {
    if (!first) return;
    const prev = first.value;
    const names = namesEntered();
    first.replaceChildren(...names.map((nm, i) => el("option", { value: String(i), text: nm || t("keeper.player_n", { n: i + 1 }) })));
    if (prev) first.value = prev;
  };
  for (const i of box.querySelectorAll("input")) i.addEventListener("input", refreshFirst);
  refreshFirst();
  $("kp-names-note").textContent = part ? t("keeper.teams_note") : "";
}

function namesEntered() {
  const n = playersOf(scoringOf());
  return Array.from({ length: n }, (_, i) => ($(`kp-name-${i}`)?.value || "").trim());
}

async function createSheet(ev) {
  ev.preventDefault();
  if (S.busy) return;
  const names = namesEntered().map((nm, i) => nm || (scoringOf() === "partnership" ? "ABCD"[i] : t("keeper.player_n", { n: i + 1 })));
  const preset = $("kp-preset").value;
  const scoring = scoringOf();
  const base = S.meta.presets[preset] || {};
  const wanted = { ...base, target: Number($("kp-target").value) || base.target, big_gin_bonus: $("kp-big-on").checked ? Number($("kp-big").value) : null };
  const { values } = constrain(wanted, scoring, S.meta);
  const rules = {};
  for (const [k, v] of Object.entries(values)) if (JSON.stringify(v) !== JSON.stringify(base[k])) rules[k] = v;
  const body = { scoring, preset, rules, players: names };
  const first = $("kp-first");
  if (first && first.value !== "") body.first_dealer = names[Number(first.value)];
  S.busy = true;
  $("kp-new-error").hidden = true;
  try {
    const r = await api("POST", "/api/sheets", body);
    if (!r.ok) { showError("kp-new-error", () => message(r.data)); return; }
    S.token = r.data.token;
    S.sheet = r.data;
    saved.set({ sheet_id: r.data.sheet_id, token: r.data.token });
    render();
    const firstInput = $("kp-tables").querySelector("input, select");
    if (firstInput) firstInput.focus();
  } catch { showError("kp-new-error", () => t("error.network")); } finally { S.busy = false; }
}

// ---------------------------------------------------------------- hand entry
const OUTCOMES = ["knock", "gin", "big_gin", "undercut", "dead", "points"];

function tablesToEnter() {
  const out = S.sheet.sheet;
  const nx = out.next;
  if (!nx) return [];
  return nx.tables || [nx.players];
}

function tableBlock(players, index, count) {
  const rules = S.sheet.sheet.rules;
  const id = (x) => `kp-t${index}-${x}`;
  const outcomes = OUTCOMES.filter((o) => o !== "big_gin" || rules.big_gin_bonus !== null);
  const legend = count > 1 ? t("keeper.table_n", { n: index + 1, a: players[0], b: players[1] }) : t("keeper.vs", { a: players[0], b: players[1] });
  const radio = (name, value, label, checked) => el("label", { class: "kp-radio" },
    el("input", { type: "radio", name, value, checked, "data-testid": `${id(name.split("-").pop())}-${value}` }), el("span", { text: label }));
  const who = (sid, label) => el("label", {}, el("span", { text: label }),
    el("select", { id: id(sid), "data-testid": id(sid) }, players.map((p) => el("option", { value: p, text: p }))));
  const num = (sid, label) => el("label", {}, el("span", { text: label }), el("input", { type: "number", id: id(sid), min: "0", max: "999", step: "1", inputmode: "numeric", "data-testid": id(sid) }));
  const txt = (sid, label, ph) => el("label", { class: "wide" }, el("span", { text: label }), el("input", { type: "text", id: id(sid), placeholder: ph, autocomplete: "off", spellcheck: "false", "data-testid": id(sid) }));
  const fs = el("fieldset", { class: "kp-table", "data-table": String(index) }, el("legend", { text: legend }),
    el("div", { class: "kp-outcomes", role: "radiogroup", "aria-label": t("keeper.outcome") }, outcomes.map((o, i) => radio(id("outcome"), o, t(`keeper.outcome.${o}`), i === 0))),
    el("div", { class: "form-grid kp-who" }, who("knocker", t("keeper.knocker")), rules.oklahoma ? txt("upcard", t("keeper.upcard"), "7D") : null),
    el("div", { class: "kp-modes", role: "radiogroup", "aria-label": t("keeper.mode") },
      radio(id("mode"), "counts", t("keeper.mode.counts"), S.modes[index] !== "cards"), radio(id("mode"), "cards", t("keeper.mode.cards"), S.modes[index] === "cards")),
    el("div", { class: "form-grid kp-counts" }, num("kd", t("keeper.knocker_deadwood")), num("dd", t("keeper.defender_deadwood"))),
    el("div", { class: "form-grid kp-cards" }, txt("kcards", t("keeper.knocker_cards"), "3S 4S 5S 9H 9D 9C JD QD KD 4H"), txt("dcards", t("keeper.defender_cards"), "6S 7S QC QH QS 4C 5C 6C AC 2D")),
    el("div", { class: "form-grid kp-points" }, who("winner", t("keeper.winner")), num("pts", t("keeper.points")),
      el("label", {}, el("span", { text: t("keeper.kind") }), el("select", { id: id("kind") }, ["knock", "gin", "big_gin", "undercut"].map((k) => el("option", { value: k, text: t(`kind.${k}`) }))))));
  // an error about the hand as it was sent goes once the hand is changed (another outcome,
  // counts instead of cards, a corrected field): it no longer describes what is on screen
  fs.addEventListener("change", () => { clearHandError(); syncBlock(fs, index); });
  syncBlock(fs, index);
  return fs;
}

function clearHandError() {
  const err = $("kp-hand-error");
  err.hidden = true;
  err.textContent = "";
}

function syncBlock(fs, index) {
  const outcome = fs.querySelector(`input[name="kp-t${index}-outcome"]:checked`).value;
  const mode = fs.querySelector(`input[name="kp-t${index}-mode"]:checked`).value;
  S.modes[index] = mode;  // kept for the next hand
  const knockish = ["knock", "gin", "big_gin", "undercut"].includes(outcome);
  fs.querySelector(".kp-who").hidden = !knockish;
  fs.querySelector(".kp-modes").hidden = !knockish;
  fs.querySelector(".kp-counts").hidden = !knockish || mode !== "counts";
  fs.querySelector(".kp-cards").hidden = !knockish || mode !== "cards";
  fs.querySelector(".kp-points").hidden = outcome !== "points";
  const kd = fs.querySelector(`#kp-t${index}-kd`).closest("label");
  kd.hidden = outcome === "gin" || outcome === "big_gin";
}

function readBlock(index) {
  const fs = document.querySelector(`.kp-table[data-table="${index}"]`);
  const v = (x) => $(`kp-t${index}-${x}`).value.trim();
  const outcome = fs.querySelector(`input[name="kp-t${index}-outcome"]:checked`).value;
  const mode = fs.querySelector(`input[name="kp-t${index}-mode"]:checked`).value;
  if (outcome === "dead") return { dead: true };
  if (outcome === "points") {
    const pts = v("pts");
    return { winner: v("winner"), points: pts === "" ? null : Number(pts), kind: v("kind") };
  }
  const h = { knocker: v("knocker"), result: outcome };
  if ($(`kp-t${index}-upcard`) && v("upcard")) h.upcard = v("upcard");
  if (mode === "cards") {
    h.knocker_cards = v("kcards");
    h.defender = v("dcards");
  } else {
    h.knocker_deadwood = outcome === "gin" || outcome === "big_gin" ? 0 : (v("kd") === "" ? null : Number(v("kd")));
    h.defender_deadwood = v("dd") === "" ? null : Number(v("dd"));
  }
  return h;
}

async function addHand(ev) {
  ev.preventDefault();
  if (S.busy || !S.sheet) return;
  const tables = tablesToEnter();
  const hands = tables.map((_, i) => readBlock(i));
  const hand = S.sheet.sheet.scoring === "partnership" ? { tables: hands } : hands[0];
  S.busy = true;
  $("kp-hand-error").hidden = true;
  try {
    const r = await api("POST", `/api/sheets/${S.sheet.sheet_id}/hands`, { hand, seq: S.sheet.seq });
    if (r.ok) {
      S.sheet = r.data;
      render();
      if (!S.sheet.sheet.over) announceLast();
    } else if (r.status === 404) {
      lost();
    } else {
      if (r.status === 409 && r.data && r.data.sheet) { S.sheet = { sheet_id: r.data.sheet_id, seq: r.data.seq, input: r.data.input, sheet: r.data.sheet }; render(); }
      const data = r.data;
      showError("kp-hand-error", () => message(data));
    }
  } catch { showError("kp-hand-error", () => t("error.network")); } finally { S.busy = false; }
}

function announceLast() {
  const out = S.sheet.sheet;
  const h = out.hands[out.hands.length - 1];
  if (!h) return;
  if (out.scoring === "partnership") say(() => (h.team ? t("keeper.added_team", { n: h.number, team: h.team }) : t("keeper.added_tie", { n: h.number })));
  else say(() => (h.winner ? t("keeper.added", { n: h.number, name: h.winner, points: h.points, kind: t(`kind.${h.kind}`) }) : t("keeper.added_dead", { n: h.number })));
}

async function undo() {
  if (S.busy || !S.sheet) return;
  S.busy = true;
  try {
    const r = await api("DELETE", `/api/sheets/${S.sheet.sheet_id}/hands/last`);
    if (r.ok) { S.sheet = r.data; render(); say(() => t("keeper.undone")); } else toast(message(r.data));
  } catch { toast(t("error.network")); } finally { S.busy = false; }
}

// ---------------------------------------------------------------- sheet
function modelOf(out) {
  if (out.scoring === "hollywood") return hollywoodFromKeeper(out);
  if (out.scoring === "three_player") return threeFromKeeper(out);
  return columnsFromKeeper(out);
}

function rulesText(out) {
  const r = out.rules;
  const preset = (S.sheet && S.sheet.input && S.sheet.input.rules && S.sheet.input.rules.preset) || "custom";
  const bits = [scoringName(out.scoring, t), presetName(preset, t), t("rules.target", { target: r.target })];
  if (r.oklahoma) bits.push(t("keeper.oklahoma_rule"));
  else if (r.knock_limit === 0) bits.push(t("rules.no_knocking"));
  else bits.push(t("rules.knock_limit", { limit: r.knock_limit }));
  bits.push(t("rules.gin_bonus", { n: r.gin_bonus }));
  if (r.knock_limit !== 0) bits.push(t("rules.undercut_bonus", { n: r.undercut_bonus }));
  if (r.big_gin_bonus !== null) bits.push(t("rules.big_gin_bonus", { n: r.big_gin_bonus }));
  bits.push(`${fieldLabel("box_bonus", t)} ${r.box_bonus}`, `${fieldLabel("game_bonus", t)} ${r.game_bonus}`, `${fieldLabel("shutout", t)}: ${choiceLabel("shutout", r.shutout, t)}`);
  return bits.join(" · ");
}

function render() {
  document.body.classList.remove("loading");
  const has = !!S.sheet;
  $("kp-new").hidden = has;
  $("kp-entry").hidden = !has || S.sheet.sheet.over;
  $("kp-sheet-card").hidden = !has;
  if (!has) return;
  const out = S.sheet.sheet;
  $("kp-rules").textContent = rulesText(out);
  $("kp-print-rules").textContent = `${out.players.join(" · ")} — ${rulesText(out)}`;
  if (!out.over) {
    const n = out.hands.length + 1;
    const nx = out.next || {};
    let title = t("keeper.hand_n", { n });
    if (out.scoring === "three_player") title += ` · ${t("keeper.deals_3p", { dealer: nx.dealer, a: nx.players[0], b: nx.players[1] })}`;
    else if (nx.dealer) title += ` · ${t("keeper.dealer", { name: nx.dealer })}`;
    $("kp-entry-h").textContent = title;
    const tables = tablesToEnter();
    $("kp-tables").replaceChildren(...tables.map((pl, i) => tableBlock(pl, i, tables.length)));
  }
  $("kp-undo").disabled = !out.hands.length;
  $("kp-sheet").replaceChildren(el("h3", { class: "kp-sheet-title", text: `${scoringName(out.scoring, t)} — ${out.players.join(", ")}` }), renderModel(modelOf(out), t));
  const totals = Object.entries(out.totals || {}).map(([k, v]) => `${k} ${v}`).join(" · ");
  say(out.over ? () => t("keeper.over", { totals }) : null);
}

async function exportCsv() {
  if (!S.sheet) return;
  try {
    const res = await fetch(`/api/sheets/${S.sheet.sheet_id}.csv`, { headers: { Authorization: `Bearer ${S.token}` }, credentials: "same-origin" });
    if (!res.ok) { toast(t("error.generic")); return; }
    const blob = await res.blob();
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: `gin-rummy-${S.sheet.sheet_id.slice(0, 8)}.csv` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 5000);
  } catch { toast(t("error.network")); }
}

function lost() {
  saved.set(null);
  S.sheet = null;
  S.token = null;
  toast(t("keeper.lost"));
  fillNewForm(true);
  render();
}

function newSheet() {
  S.sheet = null;
  S.token = null;
  saved.set(null);
  fillNewForm(true);
  render();
  $("kp-scoring").focus();
}

async function boot() {
  const metaP = fetch("/api/meta", { credentials: "same-origin" }).then((r) => r.json());
  await setLanguage(pageLanguage(), false);
  try { S.meta = await metaP; } catch { toast(t("error.network")); return; }
  $("lang-select").addEventListener("change", (e) => setLanguage(e.target.value));
  $("kp-scoring").addEventListener("change", scoringChanged);
  $("kp-preset").addEventListener("change", presetChanged);
  $("kp-target").addEventListener("input", noteNew);
  $("kp-big-on").addEventListener("change", () => { $("kp-big").disabled = !$("kp-big-on").checked; });
  $("kp-new-form").addEventListener("submit", createSheet);
  $("kp-hand-form").addEventListener("submit", addHand);
  $("kp-undo").addEventListener("click", undo);
  $("kp-csv").addEventListener("click", exportCsv);
  $("kp-print").addEventListener("click", () => window.print());
  $("kp-new-sheet").addEventListener("click", newSheet);
  fillNewForm(true);
  const s = saved.get();
  if (s && s.sheet_id && s.token) {
    S.token = s.token;
    try {
      const r = await api("GET", `/api/sheets/${s.sheet_id}`);
      if (r.ok) S.sheet = r.data;
      else if (r.status === 404) { saved.set(null); S.token = null; }
    } catch { toast(t("error.network")); }
  }
  render();
}

boot();
