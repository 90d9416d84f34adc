// Tiny synthesised sounds (WebAudio; no audio files). Every call is safe when audio is unavailable.
let ctx = null;

function audio() {
  if (!ctx) {
    const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function blip(ac, at, freq, dur, gain, type = "triangle") {
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  o.frequency.exponentialRampToValueAtTime(Math.max(40, freq * 0.6), at + dur);
  g.gain.setValueAtTime(gain, at);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  o.connect(g).connect(ac.destination);
  o.start(at);
  o.stop(at + dur + 0.02);
}

const SOUNDS = {
  select: [[0, 1800, 0.025, 0.05]],
  draw: [[0, 900, 0.04, 0.09]],
  discard: [[0, 520, 0.05, 0.12]],
  knock: [[0, 180, 0.08, 0.35, "sine"], [0.16, 170, 0.08, 0.35, "sine"]],
  gin: [[0, 523, 0.12, 0.12], [0.1, 659, 0.12, 0.12], [0.2, 784, 0.2, 0.14]],
  error: [[0, 220, 0.12, 0.08, "square"]],
};

export function playSound(kind, enabled = true) {
  if (!enabled || !SOUNDS[kind]) return;
  try {
    const ac = audio();
    if (!ac) return;
    const t0 = ac.currentTime + 0.005;
    for (const [dt, f, d, g, type] of SOUNDS[kind]) blip(ac, t0 + dt, f, d, g, type);
  } catch {
    /* no sound is fine */
  }
}
