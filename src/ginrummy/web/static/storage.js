// What the game page keeps in this browser (localStorage): the game shown (`ginrummy.current`,
// which the replay page reads too), the settings, the new-game dialog's last choices, the
// person's display name, the list of games in progress (model.js rememberGame), the finished
// games' tokens (their reviews and replays) and the seats this browser holds at tables of
// people (seats.js rememberSeat). Private browsing without storage:
// nothing is kept, nothing fails.

import { forgetGameEntry, rememberGame } from "./model.js";
import { forgetSeat, heldSeat, rememberSeat } from "./seats.js";

export const KEY_CURRENT = "ginrummy.current";
export const KEY_SETTINGS = "ginrummy.settings";
export const KEY_NEW = "ginrummy.newgame";
export const KEY_GAMES = "ginrummy.games";
export const KEY_TABLES = "ginrummy.tables";
export const KEY_NAME = "ginrummy.name";
export const KEY_FINISHED = "ginrummy.finished";
/** How many finished games this browser keeps the tokens of (their reviews and replays). */
export const FINISHED_KEPT = 50;

export const storage = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  set(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
  },
};

/** The browser's games in progress ({game_id, token, at}, newest first). */
export const savedGames = () => storage.get(KEY_GAMES, []) || [];

/** Remember a game of this browser (its seat's token) as one that may be resumed. */
export function keepGame(game) {
  if (game && game.game_id && game.token) storage.set(KEY_GAMES, rememberGame(savedGames(), game));
}

/**
 * Remember a finished game of this browser ({game_id, token}, newest first, the last
 * FINISHED_KEPT): its review and replay stay reachable after a new game, while the list of
 * games in progress forgets it.
 */
export function keepFinished(game) {
  if (game && game.game_id && game.token) {
    storage.set(KEY_FINISHED, rememberGame(storage.get(KEY_FINISHED, []) || [], game, Date.now(), FINISHED_KEPT));
  }
}

/** Forget a game (over, resigned, or unknown to the server). */
export function dropGame(gameId) {
  storage.set(KEY_GAMES, forgetGameEntry(savedGames(), gameId));
}

/** What the new-game and invite dialogs start from: the choices last dealt and the person's name. */
export function remembered() {
  return { newGame: storage.get(KEY_NEW, {}) || {}, name: storage.get(KEY_NAME, "") || "" };
}

// ---------------------------------------------------------------- seats at tables of people
const tables = () => storage.get(KEY_TABLES, {}) || {};

/** Remember the seat this browser took ({game_id, token, seat, name?}). */
export const keepSeat = (entry) => storage.set(KEY_TABLES, rememberSeat(tables(), entry));

/** Forget this browser's seat at `gameId`. */
export const dropSeat = (gameId) => storage.set(KEY_TABLES, forgetSeat(tables(), gameId));

/** The seat this browser holds at `gameId` ({game_id, token, seat}) or null. */
export const savedSeat = (gameId) => heldSeat(tables(), gameId);
