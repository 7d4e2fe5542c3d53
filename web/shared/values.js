/*
 * CoreDataBrowser — how an attribute value is shown, in both views (docs/API.md "Values").
 *
 * The attribute's type decides, not the JSON kind: a JSON string may be text, an integer beyond JavaScript's safe
 * range, a Decimal, a non-finite double or a date. Everything is written with textContent (setVisibleText).
 *
 *   describeValue(value, type, zone)
 *                          {text, kinds, title, iso}: the text shown, its kinds (null, true, false, binary, error,
 *                          number, bigint, decimal, nonfinite, date, uuid, string, empty, other; each becomes the
 *                          class val-KIND), a tooltip when the text alone does not say enough, and for a date the
 *                          stored ISO value (data-iso, repainted in the other zone by dates.js repaintDates)
 *   renderValue(value, type, zone)
 *                          <span class="val val-KIND…"> of it (the Inspector's list and detail)
 *   paintValue(node, value, type, zone)
 *                          writes it into node (a Lab grid cell, detail row or content box): text, val-KIND
 *                          classes, title (the text itself when long and no other), data-iso; returns the description
 *   isBinary(value)        a Binary or Transformable value (the API sends its size, not its bytes)
 *   isCutText(value)       the start of a long text a list sends ({type:"text", truncated, preview, bytes}): shown
 *                          as its start, "…" and a mark with the whole size (span.val-cut-mark); the record's
 *                          detail has it whole
 *   formatBytes(n)         "812 B", "4.0 KB", "10.0 MB"
 */

import { formatDate } from './dates.js';
import { el } from './dom.js';
import { formatCount } from './paging.js';
import { setVisibleText, visibleText } from './visible-text.js';

const INTEGER_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64']);
const FLOAT_TYPES = new Set(['Double', 'Float']);
const NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

/** A title longer than this many characters of text is worth a tooltip of the whole (a cell cuts it). */
const TITLE_FROM_TEXT_CHARS = 40;

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function isBinary(value) {
  return isPlainObject(value) && value.type === 'binary';
}

function isCutText(value) {
  return isPlainObject(value) && value.type === 'text' && value.truncated === true && typeof value.preview === 'string';
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The mark of a cut text: its whole size, and what the list shows of it. */
function cutMark(value) {
  const whole = Number.isFinite(value.bytes) ? formatBytes(value.bytes) : 'long';
  const shownBytes = new TextEncoder().encode(value.preview).length;
  return { text: whole, title: `Text of ${whole} (${formatCount(value.bytes)} bytes): the list shows its first `
    + `${formatBytes(shownBytes)}. Open the record for the whole value.` };
}

function describeValue(value, type, zone) {
  const shown = (kinds, text, title) => ({ kinds: kinds.split(' '), text, title });
  if (value === null || value === undefined) return shown('null', 'null');
  if (typeof value === 'object') {
    if (value.type === 'binary') {
      const bytes = Number.isFinite(value.bytes) ? value.bytes : '?';
      return shown('binary', `‹binary, ${formatCount(bytes)} byte${bytes === 1 ? '' : 's'}›`, `${type || 'Binary'} value; contents are not sent`);
    }
    if (value.type === 'error') {
      const message = typeof value.message === 'string' ? value.message : 'undecodable value';
      return shown('error', `⚠ ${message}`, `The store could not decode this value: ${message}`);
    }
    if (isCutText(value)) {
      const mark = cutMark(value);
      return { ...shown('string cut', `${value.preview}…`, mark.title), mark: mark.text };
    }
    return shown('other', JSON.stringify(value));
  }
  if (typeof value === 'boolean') return shown(value ? 'true' : 'false', value ? 'true' : 'false');
  if (INTEGER_TYPES.has(type)) {
    // Integers beyond ±(2^53−1) arrive as strings: show the exact digits, never a rounded Number.
    if (typeof value === 'string') return shown('number bigint', value, 'Exact integer (beyond JavaScript’s safe range)');
    return shown('number', String(value));
  }
  if (FLOAT_TYPES.has(type)) {
    if (typeof value === 'string') {
      return NON_FINITE.has(value) ? shown('nonfinite', value, 'Non-finite floating-point value') : shown('other', value);
    }
    return shown('number', String(value));
  }
  if (type === 'Decimal') return shown('number decimal', String(value));
  if (type === 'Date' && typeof value === 'string') {
    // Local time or UTC (the top bar's "Dates" choice), the zone named in the text; the title gives the
    // other zone and the stored value.
    const date = formatDate(value, zone);
    if (!date) return shown('date', value, 'Not a date the browser can read: shown as stored');
    return { ...shown('date', date.text, date.title), iso: value };
  }
  if (type === 'UUID') return shown('uuid', String(value));
  if (typeof value === 'number') return shown('number', String(value));
  if (typeof value === 'string') return value === '' ? shown('empty', '', 'Empty string') : shown('string', value);
  return shown('other', String(value));
}

const kindClasses = (kinds) => kinds.map((kind) => `val-${kind}`);

function renderValue(value, type, zone) {
  const shown = describeValue(value, type, zone);
  // An empty string is "" in the Inspector's text; the Lab's .val-empty draws the quotes with CSS.
  const node = el('span', ['val', ...kindClasses(shown.kinds)].join(' '), shown.kinds[0] === 'empty' ? '""' : shown.text);
  if (shown.title) node.title = visibleText(shown.title);
  if (shown.iso) node.dataset.iso = shown.iso;
  if (shown.mark) node.prepend(el('span', 'val-cut-mark', shown.mark));
  return node;
}

function paintValue(node, value, type, zone) {
  const shown = describeValue(value, type, zone);
  setVisibleText(node, shown.text);
  node.classList.add(...kindClasses(shown.kinds));
  if (shown.title) node.title = visibleText(shown.title);
  else if (shown.text.length > TITLE_FROM_TEXT_CHARS) node.title = visibleText(shown.text);
  if (shown.iso) node.dataset.iso = shown.iso;
  // First, so a narrow cell that cuts the text still shows that it is cut and how long the whole is.
  if (shown.mark) node.prepend(el('span', 'val-cut-mark', shown.mark));
  return shown;
}

export {
  describeValue,
  renderValue,
  paintValue,
  isBinary,
  isCutText,
  formatBytes,
};
