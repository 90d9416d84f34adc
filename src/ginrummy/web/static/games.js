// The browser's games in progress (issue 13, item 5), drawn from what they are given: the
// question before "New game" leaves a game in play or a table of people waiting for its start
// (keep playing or waiting, keep it for later, or resign a game against the computer), and the
// list of games and waiting tables to resume in the new-game dialog, one line each. The list
// itself is kept in localStorage (storage.js); session.js asks the server about each game.
// `leaveView`, `gameLine` and `waitingSeats` are pure (tests/js/views.test.mjs).

import { levelName, presetName } from "./i18n.js";
import { scoreRows } from "./model.js";
import { $, el } from "./page.js";
import { hasPeople, isWaiting, seatsOf } from "./seats.js";
import { isVariant, playerName, scoringName } from "./variants.js";
import { reviewPage } from "./review_model.js";

/** The other people seated at the table of `st` (their display names). */
function otherPeople(st, t) {
  const you = st.you ?? 0;
  return seatsOf(st).filter((s) => s.kind === "person" && s.seat !== you && !s.left).map((s) => playerName(st, s.seat, t));
}

/**
 * Who sits at a waiting table and how many seats are open: "You, Bo, Computer (Easy) · 1 seat
 * open". `seatLabel(st, n)` names a seat (friends.js).
 */
export function waitingSeats(st, t, seatLabel) {
  const seats = seatsOf(st);
  const you = st.you ?? 0;
  const names = seats.filter((s) => s.kind !== "open").map((s) => (s.seat === you ? t("table.you") : seatLabel(st, s.seat)));
  const open = seats.filter((s) => s.kind === "open").length;
  const parts = [names.join(t("list.sep", null, ", "))];
  if (open) parts.push(t("resume.open_n", { n: open }));
  return parts.join(" · ");
}

/** The question before leaving the table of `st`: its title's and keep button's catalog keys, its text, whether resigning is offered. */
export function leaveView(st, t, seatLabel) {
  const waiting = isWaiting(st);
  const people = hasPeople(st);
  let text = waiting ? t("leave.waiting", { seats: waitingSeats(st, t, seatLabel) }) : t("leave.text", { n: st.hand_number ?? 1 });
  const others = otherPeople(st, t);
  if (!waiting && people && others.length) text += ` ${t("leave.people", { names: others.join(t("list.sep", null, ", ")) })}`;
  return { title: waiting ? "leave.title_table" : "leave.title", keep: waiting ? "leave.keep_waiting" : "leave.keep", text, resign: !people };
}

/** The question's words for the table shown (again after a change of language). */
export function drawLeave(p, seatLabel) {
  const { t, state: st } = p;
  if (!st) return;
  const v = leaveView(st, t, seatLabel);
  $("leave-h").dataset.i18n = v.title;
  $("leave-h").textContent = t(v.title);
  $("leave-keep").dataset.i18n = v.keep;
  $("leave-keep").textContent = t(v.keep);
  $("leave-text").textContent = v.text;
  $("leave-resign").hidden = !v.resign;
  $("leave-note").hidden = !v.resign;
}

/** Who the person plays against, in words: the other seats' names at a table of people. */
function opponents(st, t) {
  if (!hasPeople(st) || !Array.isArray(st.seats)) return t("table.computer");
  const you = st.you ?? 0;
  const names = st.seats.map((s, i) => ({ s, n: s.seat ?? i })).filter((x) => x.n !== you)
    .map((x) => x.s.name || (x.s.kind === "computer" ? t("table.computer") : t("friends.seat_n", { n: x.n + 1 })));
  return names.length ? names.join(t("list.sep", null, ", ")) : t("table.computer");
}

/** A partnership's hand and score seen from the person's team: "Hand 3 · Us (You, Di) 25, Them (Ann, Opponent C) 40". */
function teamsLine(st, t) {
  const you = st.you ?? 0;
  const mine = you % 2;
  const hp = st.score.hand_points || [0, 0];
  const team = (k) => [k, k + 2].sort((a, b) => (b === you) - (a === you)).map((p) => playerName(st, p, t)).join(t("list.sep", null, ", "));
  return t("resume.line_teams", {
    n: st.hand_number ?? 1, us: t("vt.team.us"), ours: team(mine), a: hp[mine] ?? 0, them: t("vt.team.them"), theirs: team(1 - mine), b: hp[1 - mine] ?? 0,
  });
}

/**
 * One line about a game in progress: its variant, the computer's level, the hand, the score; at
 * a table waiting for its start, who has joined and how many seats are open.
 */
export function gameLine(st, t, seatLabel) {
  const rules = st.rules || {};
  const what = [isVariant(st) ? scoringName(st.table.scoring, t) : presetName(rules.preset || "standard", t)];
  if (st.level && !hasPeople(st)) what.push(levelName(st.level, t));
  if (isWaiting(st)) return `${what.join(" · ")} — ${t("resume.waiting", { seats: waitingSeats(st, t, seatLabel) })}`;
  let where = t("table.hand_no", { n: st.hand_number ?? 1 });
  if (isVariant(st) && st.table.scoring === "partnership" && st.score) where = teamsLine(st, t);
  if (!isVariant(st) && st.score) {
    const sc = scoreRows(st.score, st.you ?? 0);
    where = t("resume.line", { n: st.hand_number ?? 1, you: sc.handPoints[0], opp: opponents(st, t), them: sc.handPoints[1] });
  }
  return `${what.join(" · ")} — ${where}`;
}

/**
 * The new-game dialog's list of this browser's games in progress (`items`: [{g, st}], each game
 * as the server answered its own token): a line, Resume, Review (once a hand of it is over:
 * the review page opens the last one finished) and Resign against the computer.
 */
export function drawResumeList(items, t, seatLabel) {
  const lis = items.map(({ g, st }) => el("li", { "data-game": g.game_id },
    el("span", { class: "resume-what", text: gameLine(st, t, seatLabel) }),
    el("span", { class: "resume-buttons" },
      el("button", { type: "button", class: "btn btn-gold small", "data-testid": "resume-game", text: t("resume.button") }),
      hasFinishedHand(st) ? el("a", { class: "btn small", href: reviewPage(g.game_id), "data-testid": "review-game", text: t("review.button") }) : null,
      hasPeople(st) ? null : el("button", { type: "button", class: "btn small", "data-testid": "resign-game", text: t("resume.resign") }))));
  $("resume-list").replaceChildren(...lis);
  $("new-resume").hidden = !lis.length;
}

/** Whether a game in progress has a finished hand to review. */
export function hasFinishedHand(st) {
  return !isWaiting(st) && (st.phase === "hand-over" || (st.hand_number ?? 1) > 1);
}

/** A listed game's Resign button while its resignation is asked for (off), or after it failed (on again). */
export function markResigning(gameId, busy) {
  const b = $("resume-list").querySelector(`li[data-game="${CSS.escape(gameId)}"] [data-testid=resign-game]`);
  if (b) b.disabled = busy;
}
