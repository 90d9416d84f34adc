// What the game page keeps in this browser (localStorage): the game shown (`ginrummy.current`,
// which the replay page reads too), the settings, the new-game dialog's last choices, and the
// list of games in progress (model.js rememberGame). Private browsing without storage: nothing
// is kept, nothing fails.

import { forgetGameEntry, rememberGame } from "./model.js";

export const KEY_CURRENT = "ginrummy.current";
export const KEY_SETTINGS = "ginrummy.settings";
export const KEY_NEW = "ginrummy.newgame";
export const KEY_GAMES = "ginrummy.games";

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

/** Forget a game (over, resigned, or unknown to the server). */
export function dropGame(gameId) {
  storage.set(KEY_GAMES, forgetGameEntry(savedGames(), gameId));
}
