// Review my game (issue 20), the talk to the server: a review (or a tried move's answer) asked
// for again until it is made, honouring the server's Retry-After (docs/api.md "Review": 202 with
// its progress while it is made, 503 busy while the pool is full), and the "Try again" exercise.
// The review page (review.js) and the replay page (replay.js) use it; it draws nothing itself.

import { apiRequest } from "./page.js";
import { exercisePath, pollDelay, practicePath, reviewPath } from "./review_model.js";

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * Ask `method path` (with `body`) until the server answers something else than 202 or 503: each
 * 202's `{status, progress}` and each 503 go to `onWait(data, status)`; `isCurrent()` false
 * stops the asking (the page asked for something else meanwhile): resolves null then. The
 * answer `{status, ok, data}` otherwise.
 */
export async function untilMade(method, path, token, { body, onWait = () => {}, isCurrent = () => true, maxTries = 900 } = {}) {
  for (let i = 0; i < maxTries; i += 1) {
    const r = await apiRequest(method, path, body, token);
    if (!isCurrent()) return null;
    if (r.status !== 202 && !(r.status === 503 && r.data && r.data.detail && r.data.detail.code === "busy")) return r;
    onWait(r.data, r.status);
    await sleep(pollDelay(r.retryAfter));
    if (!isCurrent()) return null;
  }
  return { status: 0, ok: false, data: null };
}

/** The review of a game (`hand` null) or of one finished hand, once made. */
export const fetchReview = (gameId, hand, token, opts) => untilMade("GET", reviewPath(gameId, hand), token, opts);

/**
 * The review in its stages (docs/api.md "Review"): while the search's review stands for the one
 * its mistakes are being checked for by play-outs (a 200 with `checking`), each such answer goes
 * to `onChecking(answer)` and the review is asked for again after its Retry-After; resolves with
 * the checked review's answer (or an error's), null when `isCurrent()` turns false.
 */
export async function fetchCheckedReview(gameId, hand, token, { onChecking = () => {}, maxTries = 900, ...opts } = {}) {
  const isCurrent = opts.isCurrent || (() => true);
  for (let i = 0; i < maxTries; i += 1) {
    const r = await fetchReview(gameId, hand, token, opts);
    if (r === null || !(r.ok && r.data && r.data.review && r.data.checking)) return r;
    onChecking(r);
    await sleep(pollDelay(r.retryAfter));
    if (!isCurrent()) return null;
  }
  return { status: 0, ok: false, data: null };
}

/** The "Try again" exercise of the decision at `step` of hand `hand` (its position). */
export const fetchExercise = (gameId, hand, step, token) => apiRequest("GET", exercisePath(gameId, hand, step), undefined, token);

/** How `action` tried at the exercise compares, once graded. */
export const tryMove = (gameId, hand, step, action, token, opts) => untilMade("POST", exercisePath(gameId, hand, step), token, { ...opts, body: { action } });

/** The browser's own mistakes to practise (its cookie: no token), newest first. */
export const fetchPractice = () => apiRequest("GET", practicePath());

/** A position to practise as the exercise (by the browser's cookie: a game over keeps no token). */
export const fetchPracticeExercise = (gameId, hand, step) => apiRequest("GET", practicePath(gameId, hand, step));

/** How `action` tried at a position to practise compares, once graded. */
export const tryPracticeMove = (gameId, hand, step, action, opts) => untilMade("POST", practicePath(gameId, hand, step), null, { ...opts, body: { action } });
