// Another seat's moves shown on the table: a card flying from the stock or the pile to its hand
// (face down unless it was face up) and back to the pile, a bubble for a pass, a knock or gin,
// at the chosen computer speed. DOM effects only; session.js says which move to show when.

import { $, cardEl } from "./page.js";
import { SPEEDS } from "./frame.js";
import { backEl } from "./render.js";

/** `ms` of showing another seat's move at the chosen computer speed (0 at "instant"). */
export function pace(settings, ms) {
  const f = SPEEDS[settings.speed];
  return Math.round(ms * (f === undefined ? 1 : f));
}

/** Cards may fly: the animations are on and the system does not ask for reduced motion. */
export function motionOK(settings) {
  return settings.animations && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

/**
 * Show one move of another seat (`ev`, a public event): its flight or its bubble. `t` names the
 * cards, `settings` give the speed, `sound(kind)` plays the knock's and gin's sounds.
 */
export async function showMove(ev, { t, settings, sound }) {
  const card = ev.card;
  const ms = (x) => pace(settings, x);
  switch (ev.type) {
    case "pass": return bubble(t("bubble.pass"), ms(700));
    case "knock": sound("knock"); return bubble(t("bubble.knock"), ms(900));
    case "gin": sound("gin"); return bubble(t("bubble.gin"), ms(900));
    case "big_gin": sound("gin"); return bubble(t("bubble.big_gin"), ms(900));
    case "draw_stock": return fly(backEl(), $("stock"), $("opp-hand"), ms);
    case "take":
    case "draw_discard": return fly(card ? cardEl(card, t) : backEl(), $("discard-pile"), $("opp-hand"), ms);
    case "discard": return fly(cardEl(card, t), $("opp-hand"), $("discard-pile"), ms);
    default: return sleep(ms(100));
  }
}

async function bubble(text, ms) {
  const b = $("opp-bubble");
  b.textContent = text;
  b.classList.add("show");
  await sleep(ms);
  b.classList.remove("show");
}

async function fly(node, from, to, ms) {
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const layer = $("flyers");
  node.style.left = `${a.left + 5}px`;
  node.style.top = `${a.top + 5}px`;
  layer.append(node);
  const w = node.offsetWidth || 60;
  const dx = b.left + b.width / 2 - w / 2 - a.left - 5;
  const dy = b.top + 5 - a.top - 5;
  try {
    await node.animate([
      { transform: "translate(0, 0) rotate(0deg)" },
      { transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? 8 : -8}deg)` },
    ], { duration: ms(420), easing: "cubic-bezier(.3,.7,.3,1)" }).finished;
  } catch { /* ignore */ }
  node.remove();
  await sleep(ms(90));
}
