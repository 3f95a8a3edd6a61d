// Generates golden.jsonl: random RFC 5545 rules and their occurrences as
// computed by rrule-temporal, an implementation independent of the engine the
// calendar uses (rrule-go ports python-dateutil; rrule-temporal is written
// from the RFC on the Temporal API). See README.md beside this file.
//
// Each line: {"zone", "start" (wall clock in zone), "rule" (RRULE value),
// "to" (UTC bound, inclusive), "want" (UTC starts, YYYYMMDDTHHMMSSZ)}.
import { Temporal } from "temporal-polyfill";
import { RRuleTemporal } from "rrule-temporal";

let seed = 20261122;
function rnd() { // mulberry32: the same file from the same seed
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (a) => a[int(0, a.length - 1)];
const chance = (p) => rnd() < p;
const some = (gen, lo, hi) => { const s = new Set(); const n = int(lo, hi); for (let i = 0; i < n * 3 && s.size < n; i++) s.add(gen()); return [...s]; };
const signed = (hi) => (chance(0.3) ? -1 : 1) * int(1, hi);
const DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const pad = (n, w = 2) => String(n).padStart(w, "0");

// Zones and the days their clocks change (2024-2027), so that many series
// cross a DST change; Lord_Howe shifts by 30 minutes.
const ZONES = {
  "America/New_York": ["2024-03-10", "2024-11-03", "2025-03-09", "2025-11-02", "2026-03-08", "2026-11-01"],
  "Europe/London": ["2024-03-31", "2024-10-27", "2025-03-30", "2025-10-26", "2026-03-29", "2026-10-25"],
  "Australia/Sydney": ["2024-04-07", "2024-10-06", "2025-04-06", "2025-10-05", "2026-04-05", "2026-10-04"],
  "Australia/Lord_Howe": ["2024-04-07", "2024-10-06", "2025-04-06", "2025-10-05", "2026-04-05", "2026-10-04"],
  "UTC": ["2024-02-29", "2025-06-15", "2027-12-31"],
  "Asia/Tokyo": ["2024-02-28", "2026-01-01"],
};
// Wall clocks near the changes (skipped or repeated in some zones) and ordinary ones.
const TIMES = ["00:00:00", "01:00:00", "01:30:00", "01:45:00", "02:00:00", "02:15:00", "02:30:00", "03:00:00", "09:00:00", "19:00:00", "20:00:00", "23:30:00"];

function ruleFor() {
  const freq = pick(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
  const parts = [["FREQ", freq]];
  if (chance(0.4)) parts.push(["INTERVAL", String(int(2, 4))]);
  const by = {};
  const day = (ordMax) => (ordMax && chance(0.6) ? String(signed(ordMax)) : "") + pick(DAYS);
  switch (freq) {
    case "DAILY":
      if (chance(0.3)) by.BYMONTH = some(() => int(1, 12), 1, 4);
      if (chance(0.3)) by.BYMONTHDAY = some(() => signed(28), 1, 5);
      if (chance(0.4)) by.BYDAY = some(() => pick(DAYS), 1, 4);
      break;
    case "WEEKLY":
      if (chance(0.2)) by.BYMONTH = some(() => int(1, 12), 1, 6);
      if (chance(0.7)) by.BYDAY = some(() => pick(DAYS), 1, 4);
      break;
    case "MONTHLY":
      if (chance(0.2)) by.BYMONTH = some(() => int(1, 12), 1, 6);
      if (chance(0.4)) by.BYMONTHDAY = some(() => signed(by.BYMONTH ? 28 : 31), 1, 4);
      if (chance(0.5)) by.BYDAY = some(() => day(by.BYMONTH ? 4 : 5), 1, 3);
      break;
    case "YEARLY": {
      const mode = int(0, 4);
      if (mode === 0) { by.BYMONTH = some(() => int(1, 12), 1, 3); if (chance(0.6)) by.BYMONTHDAY = some(() => signed(28), 1, 3); else by.BYDAY = some(() => day(4), 1, 2); }
      if (mode === 1) { by.BYWEEKNO = some(() => signed(52), 1, 3); if (chance(0.7)) by.BYDAY = some(() => pick(DAYS), 1, 3); }
      if (mode === 2) { by.BYYEARDAY = some(() => signed(365), 1, 3); }
      if (mode === 3) { by.BYDAY = some(() => day(53), 1, 2); }
      if (mode === 4 && chance(0.5) && parts.length === 1) { by.BYMONTH = [2]; by.BYMONTHDAY = [29]; } // leap day, every year
      break;
    }
  }
  for (const k of ["BYMONTH", "BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY"]) if (by[k]) parts.push([k, by[k].join(",")]);
  if (freq !== "DAILY" && Object.keys(by).length && chance(0.35)) {
    // ±2 only where every period has two candidates, so no rule is empty.
    const two = by.BYDAY && !by.BYMONTHDAY && !by.BYYEARDAY && !by.BYWEEKNO && by.BYDAY.every((d) => /^[A-Z]{2}$/.test(d)) && (freq !== "WEEKLY" || by.BYDAY.length >= 2);
    parts.push(["BYSETPOS", two ? pick(["1", "-1", "2", "-2", "1,-1", "-2,2"]) : pick(["1", "-1"])]);
  }
  if ((freq === "WEEKLY" || by.BYWEEKNO) && chance(0.5)) parts.push(["WKST", pick(DAYS)]);
  return parts;
}

const str = (parts) => parts.map(([k, v]) => k + "=" + v).join(";");
const utc = (z) => new Date(z.epochMilliseconds).toISOString().replace(/[-:]/g, "").replace(/\.\d+/, ""); // YYYYMMDDTHHMMSSZ
const SPAN = { DAILY: { days: 120 }, WEEKLY: { years: 2 }, MONTHLY: { years: 6 }, YEARLY: { years: 30 } };
const MAX = 30;

const want = Number(process.argv[2] || 1500);
let made = 0;
while (made < want) {
  const zone = pick(Object.keys(ZONES));
  const change = Temporal.PlainDate.from(pick(ZONES[zone])).subtract({ days: int(0, 8) });
  const wall = change.toPlainDateTime(Temporal.PlainTime.from(pick(TIMES)));
  let parts = ruleFor();
  const freq = parts[0][1];
  try {
    // Anchor DTSTART on the rule's first instance (RFC 5545 leaves an
    // unsynchronised DTSTART undefined, and implementations differ there).
    if (process.env.DEBUG) console.error(zone, wall.toString(), str(parts));
    const draft = Temporal.ZonedDateTime.from(`${wall.toString()}[${zone}]`);
    const probe = new RRuleTemporal({ rruleString: str(parts), dtstart: draft, maxIterations: 20000 });
    const first = probe.all((d, i) => i < 1)[0];
    if (!first) continue;
    const start = first.toPlainDate().toPlainDateTime(wall.toPlainTime());
    const dtstart = Temporal.ZonedDateTime.from(`${start.toString()}[${zone}]`);
    const r = int(0, 2);
    if (r === 0) parts.push(["COUNT", String(int(1, 40))]);
    if (r === 1) parts.push(["UNTIL", utc(dtstart.add(SPAN[freq]).subtract({ days: int(0, 200) }))]);
    const rule = new RRuleTemporal({ rruleString: str(parts), dtstart, maxIterations: 20000 });
    const bound = dtstart.add(SPAN[freq]);
    let got = rule.all((d, i) => i <= MAX && d.epochMilliseconds <= bound.epochMilliseconds);
    got = got.filter((d) => d.epochMilliseconds <= bound.epochMilliseconds);
    let to = bound;
    if (got.length > MAX) { got = got.slice(0, MAX); to = got[MAX - 1]; }
    if (!got.length) continue;
    const s = `${start.year}-${pad(start.month)}-${pad(start.day)}T${wall.toPlainTime().toString()}`;
    console.log(JSON.stringify({ zone, start: s, rule: str(parts), to: utc(to), want: got.map(utc) }));
    made++;
  } catch (e) {
    if (process.env.DEBUG) console.error("ERR", e.stack.split("\n").slice(0, 9).join(" | "));
    continue; // a rule the library refuses is not a test case
  }
}
