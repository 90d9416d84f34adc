// The browser's games in progress (issue 13, item 5): the list of their {game_id, token} kept in
// localStorage (model.js rememberGame), the question before "New game" leaves a game in play
// (keep playing, keep it for later, or resign it), the list of games to resume in the new-game
// dialog, and resigning (POST /api/games/{id}/resign: a lost game, docs/api.md).

import { levelName, presetName } from "./i18n.js";
import { forgetGameEntry, gameInPlay, rememberGame, scoreRows } from "./model.js";
import { $, el, toast } from "./page.js";
import { hasPeople } from "./seats.js";
import { isVariant, scoringName } from "./variants.js";
import { S, api, detailMessage, store, t } from "./session.js";
import { deliver, takeSeat } from "./app.js";
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

/** "New game": ask first while a game is in play; else the new-game dialog. */
export function askNewGame() {
  if (!gameInPlay(S.state) || !S.game) { openNewGame(); return; }
  const st = S.state;
  $("leave-text").textContent = t("leave.text", { n: st.hand_number ?? 1 });
  const canResign = !hasPeople(st);
  $("leave-resign").hidden = !canResign;
  $("leave-note").hidden = !canResign;
  const dlg = $("dlg-leave");
  if (!dlg.open) dlg.showModal();
  $("leave-keep").focus();
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

/** One line about a game in progress: its variant, the computer's level, the hand, the score. */
/** Who the person plays against, in words: the other seats' names at a table of people. */
function opponents(st) {
  if (!hasPeople(st) || !Array.isArray(st.seats)) return t("table.computer");
  const you = st.you ?? 0;
  const names = st.seats.map((s, i) => ({ s, n: s.seat ?? i })).filter((x) => x.n !== you)
    .map((x) => x.s.name || (x.s.kind === "computer" ? t("table.computer") : t("friends.seat_n", { n: x.n + 1 })));
  return names.length ? names.join(t("list.sep", null, ", ")) : t("table.computer");
}

function gameLine(st) {
  const rules = st.rules || {};
  const what = [isVariant(st) ? scoringName(st.table.scoring, t) : presetName(rules.preset || "standard", t)];
  if (st.level && !hasPeople(st)) what.push(levelName(st.level, t));
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
      if (!gameInPlay(r.data)) { dropGame(g.game_id); return null; }
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
        if (!window.confirm(t("resume.confirm"))) return;
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
