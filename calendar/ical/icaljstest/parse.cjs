// Parses an iCalendar stream from stdin with ical.js (Mozilla's parser,
// the one Thunderbird uses) and prints what the Go tests compare, as JSON.
// Every VTIMEZONE of the stream is registered first, so zoned times are
// converted with the feed's own VTIMEZONE blocks (ical.js ships no zone
// data); a TZID without one is reported, never guessed.
'use strict';
const ICAL = require('ical.js');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  const root = new ICAL.Component(ICAL.parse(input));
  const zones = {};
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    zones[tz.tzid] = tz;
    ICAL.TimezoneService.register(tz, tz.tzid);
  }
  const time = (prop) => {
    if (!prop) return null;
    const t = prop.getFirstValue();
    const tzid = prop.getParameter('tzid') || null;
    if (t.isDate) return { date: t.toString(), tzid };
    if (tzid && !zones[tzid]) return { error: 'no VTIMEZONE for ' + tzid };
    return { utc: t.toJSDate().toISOString().replace('.000Z', 'Z'), tzid, local: t.toString() };
  };
  const text = (c, name) => {
    const p = c.getFirstProperty(name);
    return p ? { value: p.getFirstValue(), language: p.getParameter('language') || null } : null;
  };
  const names = (c) => ({
    name: c.name,
    props: c.getAllProperties().map((p) => p.name),
    children: c.getAllSubcomponents().map(names),
  });
  const events = root.getAllSubcomponents('vevent').map((ve) => {
    const org = ve.getFirstProperty('organizer');
    const geo = ve.getFirstPropertyValue('geo');
    const cats = [];
    for (const p of ve.getAllProperties('categories')) cats.push(...p.getValues());
    return {
      uid: ve.getFirstPropertyValue('uid'),
      summary: text(ve, 'summary'),
      description: text(ve, 'description'),
      location: text(ve, 'location'),
      url: ve.getFirstPropertyValue('url'),
      status: ve.getFirstPropertyValue('status'),
      sequence: ve.getFirstPropertyValue('sequence'),
      geo: geo || null,
      categories: cats,
      organizer: org ? { cn: org.getParameter('cn') || null, value: org.getFirstValue() } : null,
      start: time(ve.getFirstProperty('dtstart')),
      end: time(ve.getFirstProperty('dtend')),
      recurrenceId: time(ve.getFirstProperty('recurrence-id')),
    };
  });
  // Recurring events expanded by ical.js itself: each series with the
  // VEVENTs that override its occurrences (same UID, RECURRENCE-ID).
  const value = (t) => (t.isDate ? { date: t.toString() } : { utc: t.toJSDate().toISOString().replace('.000Z', 'Z') });
  const masters = new Map();
  const vevents = root.getAllSubcomponents('vevent');
  for (const ve of vevents) {
    if (!ve.hasProperty('recurrence-id')) masters.set(ve.getFirstPropertyValue('uid'), new ICAL.Event(ve));
  }
  for (const ve of vevents) {
    const m = ve.hasProperty('recurrence-id') && masters.get(ve.getFirstPropertyValue('uid'));
    if (m) m.relateException(ve);
  }
  const expanded = [];
  for (const [uid, ev] of masters) {
    if (!ev.isRecurring()) continue;
    const it = ev.iterator();
    for (let next, n = 0; (next = it.next()) && n < 5000; n++) {
      const d = ev.getOccurrenceDetails(next);
      expanded.push({ uid, recurrenceId: value(d.recurrenceId), start: value(d.startDate), end: value(d.endDate),
        summary: d.item.summary });
    }
  }
  const cal = {};
  for (const p of root.getAllProperties()) {
    const v = p.getFirstValue();
    cal[p.name] = v !== null && typeof v === 'object' ? v.toString() : v;
  }
  process.stdout.write(JSON.stringify({ calendar: cal, tree: names(root), events, expanded }));
});
