import type { Knex } from 'knex';

// GoHighLevel's request budget for one location, kept in PostgreSQL so every API process draws
// on the same one. The row holds the budget GoHighLevel last announced (X-RateLimit-Max per
// X-RateLimit-Interval-Milliseconds, and the daily figures) and the send times within the last
// interval; a sender takes the row under FOR UPDATE, and may send only while fewer than the
// announced maximum were sent in the last interval (plus a margin for the time a request takes
// to arrive). That holds for any window GoHighLevel counts in, fixed or sliding. Until the first
// answer announces the budget, the smallest documented one is assumed (25 per 10 s).

export interface GhlClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): the jitter of a wait after a 429. */
  random(): number;
}

export const systemClock: GhlClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: () => Math.random(),
};

/** The smallest budget GoHighLevel documents: trial and sandbox private-integration tokens. */
export const GHL_ASSUMED_BUDGET = { max: 25, intervalMs: 10_000 } as const;

/** Extra time counted in every interval: a request sent at t may arrive somewhat later. */
export function safetyMarginMs(intervalMs: number): number {
  return Math.max(250, Math.ceil(intervalMs * 0.05));
}

/** After a 429 without Retry-After: the whole interval, plus up to a fifth of it at random. */
export function pauseAfter429Ms(intervalMs: number, random: number): number {
  return intervalMs + Math.floor(intervalMs * 0.2 * random);
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The next UTC midnight after `ms`: when a spent daily budget is tried again. */
export function nextUtcMidnight(ms: number): Date {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
}

interface BudgetRow {
  key: string;
  burst_max: number;
  interval_ms: number;
  sent_at: unknown;
  paused_until: string | number;
  daily_limit: number | null;
  daily_remaining: number | null;
  daily_day: string | null;
}

function sentTimes(value: unknown): number[] {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? list.map(Number).filter(Number.isFinite) : [];
}

/** The daily budget is spent until `resumesAt`. */
export class DailyBudgetSpent extends Error {
  override name = 'DailyBudgetSpent';
  constructor(readonly resumesAt: Date) {
    super('GoHighLevel daily budget spent');
  }
}

export interface RateHeaders {
  max?: number;
  remaining?: number;
  intervalMs?: number;
  dailyLimit?: number;
  dailyRemaining?: number;
}

function headerNumber(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The X-RateLimit-* headers of an answer. */
export function readRateHeaders(headers: Headers): RateHeaders {
  return {
    max: headerNumber(headers, 'x-ratelimit-max'),
    remaining: headerNumber(headers, 'x-ratelimit-remaining'),
    intervalMs: headerNumber(headers, 'x-ratelimit-interval-milliseconds'),
    dailyLimit: headerNumber(headers, 'x-ratelimit-limit-daily'),
    dailyRemaining: headerNumber(headers, 'x-ratelimit-daily-remaining'),
  };
}

export class RateBudget {
  constructor(
    private readonly db: Knex,
    private readonly key: string,
    private readonly clock: GhlClock = systemClock,
  ) {}

  private async locked<T>(
    work: (row: BudgetRow, trx: Knex.Transaction, now: number) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (trx) => {
      await trx.raw(
        `INSERT INTO ghl_rate_budget (key, burst_max, interval_ms) VALUES (?, ?, ?)
         ON CONFLICT (key) DO NOTHING`,
        [this.key, GHL_ASSUMED_BUDGET.max, GHL_ASSUMED_BUDGET.intervalMs],
      );
      const row = (await trx<BudgetRow>('ghl_rate_budget')
        .where({ key: this.key })
        .forUpdate()
        .first()) as BudgetRow;
      return work(row, trx, this.clock.now());
    });
  }

  /**
   * Waits until one more request fits the budget, and counts it. Throws DailyBudgetSpent when
   * GoHighLevel announced that none is left today.
   */
  async take(): Promise<void> {
    for (;;) {
      const wait = await this.locked(async (row, trx, now) => {
        const today = utcDay(now);
        let dailyRemaining = row.daily_day === today ? row.daily_remaining : null;
        if (dailyRemaining !== null && dailyRemaining <= 0) throw new DailyBudgetSpent(nextUtcMidnight(now));
        const pausedUntil = Number(row.paused_until);
        if (pausedUntil > now) return pausedUntil - now;
        const window = row.interval_ms + safetyMarginMs(row.interval_ms);
        const sent = sentTimes(row.sent_at).filter((t) => t > now - window);
        if (sent.length >= row.burst_max) {
          // The oldest send that must leave the window before another fits.
          const oldest = sent[sent.length - row.burst_max] ?? now;
          return Math.max(1, oldest + window - now);
        }
        sent.push(now);
        if (dailyRemaining !== null) dailyRemaining -= 1;
        await trx('ghl_rate_budget')
          .where({ key: this.key })
          .update({
            sent_at: JSON.stringify(sent),
            daily_remaining: dailyRemaining,
            daily_day: dailyRemaining === null ? null : today,
            updated_at: trx.fn.now(),
          });
        return 0;
      });
      if (wait === 0) return;
      await this.clock.sleep(wait);
    }
  }

  /**
   * Takes in what an answer announced: the budget itself, and how much of it is used, which may
   * be more than this product's own sends (the budget is shared by every app of the location).
   */
  async observe(headers: RateHeaders): Promise<void> {
    const { max, intervalMs, remaining, dailyLimit, dailyRemaining } = headers;
    if ([max, intervalMs, remaining, dailyLimit, dailyRemaining].every((v) => v === undefined)) return;
    // Most answers only confirm what the row holds: checked without a lock first.
    const current = await this.db<BudgetRow>('ghl_rate_budget').where({ key: this.key }).first();
    if (current && !this.changes(current, headers, this.clock.now())) return;
    await this.locked(async (row, trx, now) => {
      const burstMax = max !== undefined && max >= 1 ? Math.floor(max) : row.burst_max;
      const interval = intervalMs !== undefined && intervalMs >= 1 ? Math.floor(intervalMs) : row.interval_ms;
      const window = interval + safetyMarginMs(interval);
      const sent = sentTimes(row.sent_at).filter((t) => t > now - window);
      if (remaining !== undefined) {
        // Used as GoHighLevel counts it, beyond what this product sent: counted as sent now.
        const used = Math.max(0, burstMax - remaining);
        for (let i = sent.length; i < used; i++) sent.push(now);
      }
      const today = utcDay(now);
      const known = row.daily_day === today ? row.daily_remaining : null;
      const daily =
        dailyRemaining === undefined
          ? known
          : known === null
            ? dailyRemaining
            : Math.min(known, dailyRemaining);
      await trx('ghl_rate_budget')
        .where({ key: this.key })
        .update({
          burst_max: burstMax,
          interval_ms: interval,
          sent_at: JSON.stringify(sent),
          daily_limit: dailyLimit ?? row.daily_limit,
          daily_remaining: daily,
          daily_day: daily === null ? null : today,
          updated_at: trx.fn.now(),
        });
    });
  }

  /** Whether an answer's figures would change the row. */
  private changes(row: BudgetRow, headers: RateHeaders, now: number): boolean {
    const { max, intervalMs, remaining, dailyLimit, dailyRemaining } = headers;
    if (max !== undefined && max >= 1 && Math.floor(max) !== row.burst_max) return true;
    if (intervalMs !== undefined && intervalMs >= 1 && Math.floor(intervalMs) !== row.interval_ms)
      return true;
    if (dailyLimit !== undefined && dailyLimit !== row.daily_limit) return true;
    const known = row.daily_day === utcDay(now) ? row.daily_remaining : null;
    if (dailyRemaining !== undefined && (known === null || dailyRemaining < known)) return true;
    if (remaining !== undefined) {
      const window = row.interval_ms + safetyMarginMs(row.interval_ms);
      const sent = sentTimes(row.sent_at).filter((t) => t > now - window).length;
      if (row.burst_max - remaining > sent) return true;
    }
    return false;
  }

  /**
   * After a 429: every sender of the location pauses for `retryAfterMs`, or, without it, for the
   * announced interval with jitter. Returns how long.
   */
  async pause(retryAfterMs: number | undefined): Promise<number> {
    return this.locked(async (row, trx, now) => {
      const wait = retryAfterMs ?? pauseAfter429Ms(row.interval_ms, this.clock.random());
      await trx('ghl_rate_budget')
        .where({ key: this.key })
        .update({ paused_until: Math.max(Number(row.paused_until), now + wait), updated_at: trx.fn.now() });
      return wait;
    });
  }

  /** Whether GoHighLevel announced that today's budget is spent (and until when). */
  async dailySpentUntil(): Promise<Date | undefined> {
    const row = await this.db<BudgetRow>('ghl_rate_budget').where({ key: this.key }).first();
    const now = this.clock.now();
    if (!row || row.daily_day !== utcDay(now) || row.daily_remaining === null || row.daily_remaining > 0)
      return undefined;
    return nextUtcMidnight(now);
  }
}
