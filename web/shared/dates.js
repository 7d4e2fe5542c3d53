/*
 * CoreDataBrowser — dates in local time or UTC, the zone always named (both views, the history page).
 *
 *   DATE_ZONE_KEY          localStorage key "cdb.dateZone" = "local" | "utc" (default local)
 *   readDateZone(), writeDateZone(zone)
 *   formatDate(iso, zone)  {text, title} or null when iso is not a date: "2024-03-01 14:05:09.123 UTC" /
 *                          "2024-03-01 15:05:09.123 GMT+1" (milliseconds only when the value has them); the
 *                          title names the other zone and the stored ISO value
 *   repaintDates(root, zone)
 *                          redraws the dates under root (elements with data-iso = the stored value) in zone
 *   wireDateZoneSelect(select, onChange)
 *                          a <select> with options local/utc: shows the stored choice, stores a new one, and
 *                          follows a change made in another tab; onChange(zone) re-renders the view's dates
 */

import { readStored, writeStored } from './storage.js';

const DATE_ZONE_KEY = 'cdb.dateZone';
const DATE_ZONES = ['local', 'utc'];

function readDateZone() {
  return readStored(DATE_ZONE_KEY) === 'utc' ? 'utc' : 'local';
}

function writeDateZone(zone) {
  writeStored(DATE_ZONE_KEY, zone === 'utc' ? 'utc' : 'local');
}

const pad = (n, width = 2) => String(n).padStart(width, '0');

/** ISO 8601's year: four digits, or a sign and six beyond 0000–9999. */
function formatYear(year) {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

/** "GMT+1", "GMT+5:30", "GMT-3", "GMT+0:53:28" (an old local mean time): the local offset at that instant. */
function offsetName(date) {
  const asUTC = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(),
    date.getSeconds(), date.getMilliseconds());
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const fixed = new Date(asUTC);
  fixed.setUTCFullYear(date.getFullYear());
  let seconds = Math.round((fixed.getTime() - date.getTime()) / 1000);
  const sign = seconds < 0 ? '-' : '+';
  seconds = Math.abs(seconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `GMT${sign}${h}${m || s ? `:${pad(m)}` : ''}${s ? `:${pad(s)}` : ''}`;
}

/** The browser's zone (its IANA name, '' when unknown), read once per page: building an Intl.DateTimeFormat costs
 *  more than drawing a grid row, and formatDate names the zone in the title of every date a page shows (a 500-row
 *  page of the Lab asked for it a thousand times). */
let zoneIdOfThisPage = null;

function localZoneId() {
  if (zoneIdOfThisPage === null) {
    try {
      zoneIdOfThisPage = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    } catch (_) {
      zoneIdOfThisPage = '';
    }
  }
  return zoneIdOfThisPage;
}

function formatIn(date, zone, withMs) {
  const utc = zone === 'utc';
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const month = (utc ? date.getUTCMonth() : date.getMonth()) + 1;
  const day = utc ? date.getUTCDate() : date.getDate();
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  const seconds = utc ? date.getUTCSeconds() : date.getSeconds();
  const ms = utc ? date.getUTCMilliseconds() : date.getMilliseconds();
  const fraction = withMs ? `.${pad(ms, 3)}` : '';
  return `${formatYear(year)}-${pad(month)}-${pad(day)} ${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction} `
    + (utc ? 'UTC' : offsetName(date));
}

/**
 * A stored date (ISO 8601 from the API) in the chosen zone: {text, title}, or null when it is not a date.
 * Milliseconds are shown when the value has them (the API leaves the fraction out when it is 0 ms).
 */
function formatDate(iso, zone) {
  if (typeof iso !== 'string') return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const withMs = /\.\d/.test(iso) || date.getUTCMilliseconds() !== 0;
  const chosen = zone === 'utc' ? 'utc' : 'local';
  const other = chosen === 'utc' ? 'local' : 'utc';
  const zoneId = localZoneId();
  const otherLabel = other === 'utc' ? '' : ` (local time${zoneId ? `, ${zoneId}` : ''})`;
  return {
    text: formatIn(date, chosen, withMs),
    title: `${formatIn(date, other, withMs)}${otherLabel}\nStored value: ${iso}`,
  };
}

/**
 * Redraws every date already on screen under root (elements with data-iso) in the zone: a change of zone
 * fetches nothing and re-renders nothing else (scroll positions, selections and loading states stay).
 */
function repaintDates(root, zone) {
  for (const node of root.querySelectorAll('[data-iso]')) {
    const shown = formatDate(node.dataset.iso, zone);
    if (!shown) continue;
    node.textContent = shown.text;
    node.title = shown.title;
  }
}

function wireDateZoneSelect(select, onChange) {
  const zoneId = localZoneId();
  for (const option of select.options) {
    if (option.value === 'local' && zoneId) option.title = `Local time of this browser (${zoneId})`;
  }
  select.value = readDateZone();
  select.addEventListener('change', () => {
    const zone = DATE_ZONES.includes(select.value) ? select.value : 'local';
    writeDateZone(zone);
    onChange(zone);
  });
  // Another tab (the other view) changed it: follow, so two open views never disagree.
  window.addEventListener('storage', (event) => {
    if (event.key !== DATE_ZONE_KEY && event.key !== null) return;
    const zone = readDateZone();
    if (select.value === zone) return;
    select.value = zone;
    onChange(zone);
  });
}

export {
  DATE_ZONE_KEY,
  readDateZone,
  writeDateZone,
  formatDate,
  repaintDates,
  wireDateZoneSelect,
};
