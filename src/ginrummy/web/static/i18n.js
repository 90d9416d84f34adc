// Pure wording helpers: a catalog is a flat {key: text} object (web/locales/xx.json); "{name}" in a
// text is replaced by params.name. No DOM, no I/O: unit-tested by tests/js/i18n.test.mjs.

export const LANGUAGES = ["en", "id", "ms", "jv"];
export const LANGUAGE_NAMES = { en: "English", id: "Bahasa Indonesia", ms: "Bahasa Melayu", jv: "Basa Jawa" };

/** "big_gin_bonus" -> "Big gin bonus": the last resort for a key the catalog lacks. */
export function humanize(text) {
  const s = String(text ?? "").replace(/[_.-]+/g, " ").trim();
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

export function interpolate(text, params) {
  params = params || {};
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
}

/**
 * A translator over `catalog`. t(key, params, fallback): the catalog text, else `fallback`
 * (interpolated), else the humanized last part of the key. t.has(key) tells whether it exists.
 * A count of one (params.n or params.points === 1) takes the key's "_one" form when the catalog
 * has it ("1 point", not "1 points").
 */
export function makeT(catalog = {}) {
  const has = (k) => Object.prototype.hasOwnProperty.call(catalog, k);
  const t = (key, params, fallback) => {
    if (params && (params.n === 1 || params.points === 1) && has(`${key}_one`)) key = `${key}_one`;
    const text = has(key) ? catalog[key] : fallback;
    if (text === undefined) return humanize(key.split(".").pop());
    return interpolate(text, params);
  };
  t.has = has;
  t.catalog = catalog;
  return t;
}

/** Index printed in the card's corner ("A", "10", "K"...), from the catalog (rank.A ...). */
export function rankLabel(card, t) {
  const r = card[0];
  return t(`rank.${r}`, null, r === "T" ? "10" : r);
}

/** The spoken card: "7 of hearts" (en), "7 hati" (id)... */
export function cardName(card, t) {
  const r = card[0];
  return t("card.name", { rank: t(`rankName.${r}`, null, r === "T" ? "10" : r), suit: t(`suit.${card[1]}`) }, "{rank} {suit}");
}

export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

/** Short written card with a text suit symbol: "7♦" (U+FE0E keeps it out of emoji style). */
export function cardShort(card, t) {
  return `${rankLabel(card, t)}${SUIT_SYMBOL[card[1]]}\uFE0E`;
}

export function cardList(cards, t) {
  return cards.map((c) => cardName(c, t)).join(t("list.sep", null, ", "));
}

/** A disabled Knock/Gin reason ({code, ...}) worded from the catalog. */
export function reasonText(reason, t) {
  if (!reason || !reason.code) return "";
  return t(`reason.${reason.code}`, reason, humanize(reason.code));
}

/**
 * One move of the log in words, from the person's point of view: the one wording of a move at
 * every kind of table (against the computer, variants, tables of people), full sentences in the
 * page's language: "You discarded the 7 of hearts.", "Ayu discarded the jack of clubs.",
 * "Hand 2: Computer 2 deals.". `opts.n`: the hand's number (the deal's line); `opts.name(seat)`:
 * another seat's name (variants.js playerName; "Computer" without it). A stock card is named only
 * when the event carries it (the person's own draw).
 */
export function eventText(ev, you, t, opts = {}) {
  const { name, ...extra } = opts;
  const who = ev.seat === null || ev.seat === undefined ? "all" : ev.seat === you ? "you" : "other";
  const nameOf = (seat) => (name && name(seat)) || t("table.computer");
  const params = { ...extra };
  if (ev.card) params.card = cardName(ev.card, t);
  let type = ev.type;
  if (type === "draw_stock" && who === "you" && ev.card) type = "draw_stock_card";
  if (type === "deal") {
    if (ev.dealer === you) return t("ev.deal.you", params);
    return t("ev.deal.other", { ...params, name: nameOf(ev.dealer) });
  }
  if (who === "all" || ["dead_hand", "hand_over", "game_over"].includes(type)) return t(`ev.${type}`, params, ev.text || humanize(type));
  if (ev.by === "computer") {  // a computer played a person's seat: said as the computer's move
    if (type === "draw_stock_card") type = "draw_stock";
    params.name = who === "you" ? t("ev.computer_for_you") : t("ev.computer_for", { name: nameOf(ev.seat) });
    return t(`ev.other.${type}`, params, ev.text || humanize(type));
  }
  if (who === "other") params.name = nameOf(ev.seat);
  return t(`ev.${who}.${type}`, params, ev.text || humanize(type));
}

/** The knock limit of this hand and why: "Knock ≤ 10", "Knock ≤ 7 (Oklahoma: upcard 7♦)", "Gin only". */
export function knockLimitText(state, t) {
  const limit = state.knock_limit ?? state.rules?.knock_limit;
  const up = state.initial_upcard;
  const byUpcard = state.knock_limit_reason === "upcard" && up;
  const why = byUpcard ? t("rules.why_upcard", { card: cardShort(up, t) }) : "";
  if (!limit) {
    if (byUpcard) return `${t("rules.gin_only")} (${why})`;
    return t("rules.no_knocking");
  }
  const base = t("rules.knock_limit", { limit });
  return byUpcard ? `${base} (${why})` : base;
}

export function presetName(name, t) {
  return t(`preset.${name}`, null, humanize(name));
}

/** Compact always-visible summary parts of the table's rules. */
export function rulesSummary(state, t) {
  const r = state.rules || {};
  const parts = [presetName(r.preset || "custom", t), t("rules.target", { target: r.target ?? state.score?.target })];
  parts.push(knockLimitText(state, t));
  if (r.gin_bonus !== undefined && r.gin_bonus !== null) parts.push(t("rules.gin_bonus", { n: r.gin_bonus }));
  if (r.undercut_bonus !== undefined && r.undercut_bonus !== null) parts.push(t("rules.undercut_bonus", { n: r.undercut_bonus }));
  if (r.big_gin_bonus) parts.push(t("rules.big_gin_bonus", { n: r.big_gin_bonus }));
  return parts;
}

/** Headline of a hand result, e.g. "You knocked and won 12 points". */
export function resultHeadline(result, you, t) {
  if (!result) return "";
  if (result.winner === null || result.winner === undefined) return t(result.kind === "tie" ? "result.tie" : "result.dead");
  const who = result.winner === you ? "you" : "opp";
  return t(`result.${result.kind}.${who}`, { points: result.points }, `${humanize(result.kind)}: ${result.points}`);
}

export function breakdownLabel(item, t) {
  return t(`breakdown.${item.code}`, item, humanize(item.code));
}

export function levelName(level, t) {
  const id = typeof level === "object" && level ? level.name ?? level.id ?? "" : level;
  return t(`level.${id}`, null, typeof level === "object" && level?.label ? level.label : humanize(id));
}

export function fieldLabel(name, t) {
  return t(`field.${name}`, null, humanize(name));
}

export function choiceLabel(field, value, t) {
  return t(`choice.${field}.${value}`, null, humanize(String(value)));
}


// ---------------------------------------------------------------- the server's reasons
// The API words every error as a reason: {code, params} (docs/api.md "Reasons"); the texts are
// the catalog's err.<code> keys, the same ones the server words its `message` from
// (ginrummy.web.http.messages, which shows parameters the same way as paramText below).

const CHOICE_KEYS = ["level", "preset", "scoring", "quick"];

function named(value, t, prefixes) {
  for (const p of prefixes) if (t.has(`${p}.${value}`)) return t(`${p}.${value}`);
  return String(value);
}

/** One parameter of a reason as the person reads it: numbers the language's way, cards and
 * rules fields and choices by their names, lists listed, anything else as it is. */
export function paramText(name, value, params, t, lang = "en") {
  const sep = t("list.sep", null, ", ");
  if (typeof value === "boolean") return String(value);
  if (name === "seat" && Number.isInteger(value)) value += 1; // 0-based in the API, "Seat 1" on the page
  if (typeof value === "number") {
    try { return new Intl.NumberFormat(lang).format(value); } catch { return String(value); }
  }
  if (name === "card") return cardName(String(value), t);
  if (name === "cards" && Array.isArray(value)) return value.map((c) => cardName(String(c), t)).join(sep);
  if (name === "field") return named(value, t, ["errv.field", "field"]);
  if (["scoring", "preset", "level"].includes(name)) return named(value, t, [name]);
  if (name === "value" && params && params.field) return named(value, t, [`choice.${params.field}`]);
  if (name === "choices" && Array.isArray(value)) {
    const prefixes = (params && params.field ? [`choice.${params.field}`] : []).concat(CHOICE_KEYS);
    return value.map((v) => named(v, t, prefixes)).join(sep);
  }
  if (Array.isArray(value)) return value.map(String).join(sep);
  return String(value ?? "");
}

/** A reason of the server ({code, params}) in words; null when the catalog has no text for it. */
export function serverReasonText(reason, t, lang = "en") {
  if (!reason || !reason.code) return null;
  const params = reason.params || {};
  let key = `err.${reason.code}`;
  if (params.n === 1 && t.has(`${key}_one`)) key = `${key}_one`;
  if (!t.has(key)) return null;
  const shown = {};
  for (const [k, v] of Object.entries(params)) shown[k] = paramText(k, v, params, t, lang);
  let out = interpolate(t.catalog[key], shown);
  if (params.hand !== undefined && params.hand !== null) {
    const frameKey = params.table !== undefined && params.table !== null ? "err.at_table" : "err.at_hand";
    const frame = t.has(frameKey) ? t.catalog[frameKey] : "{hand}: {what}";
    const at = frame.indexOf("{what}");
    const place = { hand: shown.hand, table: shown.table };
    out = at < 0 ? out : interpolate(frame.slice(0, at), place) + out + interpolate(frame.slice(at + 6), place);
  }
  return out.trim() ? out : null;
}

/**
 * The words of an API error answer (`data`: its JSON): the reason in the page's language, else
 * the server's message (already in the request's language), else `fallbackKey`'s text.
 */
export function errorAnswerText(data, t, lang = "en", fallbackKey = "error.generic") {
  const d = data && data.detail;
  const reason = (d && !Array.isArray(d) && typeof d === "object" && d.reason) || (data && data.reason);
  const words = serverReasonText(reason, t, lang);
  if (words) return words;
  if (d && typeof d === "object" && !Array.isArray(d) && d.message) return d.message;
  if (data && data.message) return data.message;
  if (typeof d === "string") return d;
  return t(fallbackKey);
}
