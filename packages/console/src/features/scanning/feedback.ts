/*
 * Sound for scans: a short high beep for an accepted scan, a low double buzz for a refused one.
 * Made with WebAudio, so there are no sound files to load.
 */

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext === 'undefined') return null;
  context ??= new window.AudioContext();
  if (context.state === 'suspended') void context.resume();
  return context;
}

function tone(ctx: AudioContext, frequency: number, start: number, duration: number, type: OscillatorType) {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.2, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

export function beep(outcome: 'success' | 'failure'): void {
  try {
    const ctx = audio();
    if (!ctx) return;
    const now = ctx.currentTime;
    if (outcome === 'success') tone(ctx, 1320, now, 0.12, 'sine');
    else {
      tone(ctx, 220, now, 0.16, 'square');
      tone(ctx, 220, now + 0.22, 0.16, 'square');
    }
  } catch {
    // Sound is a courtesy: a browser that refuses audio still shows the colour and the message.
  }
}
