// The browser's games in progress (issue 13, item 5): the list of their {game_id, token} kept in
// localStorage (model.js rememberGame), the question before "New game" leaves a game in play or a
// table of people waiting for its start (keep playing or waiting, keep it for later, or resign a
// game against the computer), the list of games and waiting tables to resume in the new-game
// dialog, and resigning (POST /api/games/{id}/resign: a lost game, docs/api.md).

import { levelName, presetName } from "./i18n.js";
import { forgetGameEntry, rememberGame, resumable, scoreRows } from "./model.js";
import { $, askConfirm, el, toast } from "./page.js";
import { hasPeople, isWaiting, seatsOf } from "./seats.js";
import { isVariant, playerName, scoringName } from "./variants.js";
import { S, api, detailMessage, store, t } from "./session.js";
import { deliver, friends, takeSeat } from "./app.js";
import { openNewGame } from "./dialogs.js";

export const KEY_GAMES = "ginrummy.games";
/** At most this many games are looked up for the resume list when the dialog opens. */
const SHOWN = 8;

const games = () => store.get(KEY_GAMES, []) || [];

/** Remember a game of this browser (its seat's token) as one that may be resumed. */
export function keepGame(game) {
  if (game && game.game_id && game.token) store.set(KEY_GAMES, rememberGame(games(), game));
}

/** Forget a game (over, resigned, or unknown to the server). */
export function dropGame(gameId) {
  store.set(KEY_GAMES, forgetGameEntry(games(), gameId));
}

/**
 * "New game": ask first while the table shown is one to come back to (a game in play, or a table
 * of people waiting for its start: model.js resumable); else the new-game dialog.
 */
export function askNewGame() {
  if (!S.game || !resumable(S.state)) { openNewGame(); return; }
  renderLeave();
  const dlg = $("dlg-leave");
  if (!dlg.open) dlg.showModal();
  $("leave-keep").focus();
}

/** The question's words for the table shown (again after a change of language). */
export function renderLeave() {
  const st = S.state;
  if (!st) return;
  const waiting = isWaiting(st);
  const people = hasPeople(st);
  const title = waiting ? "leave.title_table" : "leave.title";
  $("leave-h").dataset.i18n = title;
  $("leave-h").textContent = t(title);
  const keep = waiting ? "leave.keep_waiting" : "leave.keep";
  $("leave-keep").dataset.i18n = keep;
  $("leave-keep").textContent = t(keep);
  let text = waiting ? t("leave.waiting", { seats: waitingSeats(st) }) : t("leave.text", { n: st.hand_number ?? 1 });
  const others = otherPeople(st);
  if (!waiting && people && others.length) text += ` ${t("leave.people", { names: others.join(t("list.sep", null, ", ")) })}`;
  $("leave-text").textContent = text;
  $("leave-resign").hidden = people;
  $("leave-note").hidden = people;
}

/** The other people seated at the table of `st` (their display names). */
function otherPeople(st) {
  const you = st.you ?? 0;
  return seatsOf(st).filter((s) => s.kind === "person" && s.seat !== you && !s.left).map((s) => playerName(st, s.seat, t));
}

/** Who sits at a waiting table and how many seats are open: "You, Bo, Computer (Easy) · 1 seat open". */
export function waitingSeats(st) {
  const seats = seatsOf(st);
  const you = st.you ?? 0;
  const names = seats.filter((s) => s.kind !== "open").map((s) => (s.seat === you ? t("table.you") : friends.seatLabel(st, s.seat)));
  const open = seats.filter((s) => s.kind === "open").length;
  const parts = [names.join(t("list.sep", null, ", "))];
  if (open) parts.push(t("resume.open_n", { n: open }));
  return parts.join(" · ");
}

/** Resign the game `game` ({game_id, token}); its state, or null (a toast said why). */
async function resign(game) {
  try {
    const r = await api("POST", `/api/games/${game.game_id}/resign`, undefined, game.token);
    if (r.status === 404) { dropGame(game.game_id); return null; }
    if (!r.ok) { toast(detailMessage(r.data)); return null; }
    dropGame(game.game_id);
    return r.data;
  } catch {
    toast(t("error.network"));
    return null;
  }
}

function wireLeave() {
  $("leave-keep").addEventListener("click", () => $("dlg-leave").close());
  $("leave-later").addEventListener("click", () => { $("dlg-leave").close(); openNewGame(); });
  $("leave-resign").addEventListener("click", async (e) => {
    const b = e.currentTarget;
    if (!S.game) return;
    b.disabled = true;
    const state = await resign(S.game);
    b.disabled = false;
    if (!state) return;
    $("dlg-leave").close();
    await deliver(state, { animate: false });
    openNewGame();
  });
}

/** Who the person plays against, in words: the other seats' names at a table of people. */
function opponents(st) {
  if (!hasPeople(st) || !Array.isArray(st.seats)) return t("table.computer");
  const you = st.you ?? 0;
  const names = st.seats.map((s, i) => ({ s, n: s.seat ?? i })).filter((x) => x.n !== you)
    .map((x) => x.s.name || (x.s.kind === "computer" ? t("table.computer") : t("friends.seat_n", { n: x.n + 1 })));
  return names.length ? names.join(t("list.sep", null, ", ")) : t("table.computer");
}

/**
 * One line about a game in progress: its variant, the computer's level, the hand, the score; at
 * a table waiting for its start, who has joined and how many seats are open.
 */
function gameLine(st) {
  const rules = st.rules || {};
  const what = [isVariant(st) ? scoringName(st.table.scoring, t) : presetName(rules.preset || "standard", t)];
  if (st.level && !hasPeople(st)) what.push(levelName(st.level, t));
  if (isWaiting(st)) return `${what.join(" · ")} — ${t("resume.waiting", { seats: waitingSeats(st) })}`;
  let where = t("table.hand_no", { n: st.hand_number ?? 1 });
  if (!isVariant(st) && st.score) {
    const sc = scoreRows(st.score, st.you ?? 0);
    where = t("resume.line", { n: st.hand_number ?? 1, you: sc.handPoints[0], opp: opponents(st), them: sc.handPoints[1] });
  }
  return `${what.join(" · ")} — ${where}`;
}

/**
 * Fill the new-game dialog's list of this browser's games in progress (each asked of the
 * server with its own token; those over, resigned or unknown are forgotten): Resume, Resign.
 */
export async function renderResumeList() {
  const box = $("new-resume");
  const list = $("resume-list");
  const entries = games().slice(0, SHOWN);  // the game just left for later is among them
  box.hidden = true;
  list.replaceChildren();
  const found = await Promise.all(entries.map(async (g) => {
    try {
      const r = await api("GET", `/api/games/${g.game_id}`, undefined, g.token);
      if (r.status === 404) { dropGame(g.game_id); return null; }
      if (!r.ok || !r.data) return null;
      if (!resumable(r.data)) { dropGame(g.game_id); return null; }
      return { g, st: r.data };
    } catch { return null; }
  }));
  const items = found.filter(Boolean).map(({ g, st }) => {
    const label = gameLine(st);
    const li = el("li", { "data-game": g.game_id }, el("span", { class: "resume-what", text: label }));
    const resume = el("button", { type: "button", class: "btn btn-gold small", "data-testid": "resume-game", text: t("resume.button") });
    resume.addEventListener("click", () => { dropGame(g.game_id); keepGame(g); takeSeat(g, st); });
    li.append(el("span", { class: "resume-buttons" }, resume));
    if (!hasPeople(st)) {
      const give = el("button", { type: "button", class: "btn small", "data-testid": "resign-game", text: t("resume.resign") });
      give.addEventListener("click", async () => {
        if (!await askConfirm({ title: t("resume.confirm_title"), text: t("resume.confirm_text"), ok: t("resume.resign"), cancel: t("resume.keep") })) return;
        give.disabled = true;
        if (await resign(g)) li.remove();
        else give.disabled = false;
        box.hidden = !list.children.length;
      });
      li.lastChild.append(give);
    }
    return li;
  });
  list.replaceChildren(...items);
  box.hidden = !items.length;
}

export function wireGames() {
  wireLeave();
}
