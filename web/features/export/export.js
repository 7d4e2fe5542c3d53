/*
 * CoreDataBrowser — "Export view": every record of the list on screen as a CSV or NDJSON file, for both views.
 *
 * A native ES module: what it exports is listed here.
 *
 * API (docs/API.md): GET /api/entities/:name/export?format=csv|ndjson[&bom=1]&search=&searchAttr=&sort=&order=
 * &relatedTo=&via= streams the file (chunked); X-Total-Count says how many rows it holds when that was cheap to
 * know; a failure midway ends the body without its last chunk, which fetch reports as a network error.
 *
 *   attach(button, describe)  turns `button` into the "Export view ▾" menu (CSV, CSV for Excel, NDJSON).
 *                             describe() → {entity, params, total} for the list on screen, or null when there is
 *                             none; params are the list's query parameters, total the number of rows it shows
 *                             (the progress's denominator when the server sends no X-Total-Count)
 *
 * The file is read with fetch so the panel can show rows and bytes as they arrive and Cancel can stop it; when
 * it is complete it is saved under the server's file name. A cut file is never saved: the panel says where
 * it stopped and why.
 *
 * Elements: #export-menu (role=menu; .export-choice[data-format][data-bom]) and #export-panel (role=status;
 * data-state = running | done | failed | cancelled; .export-text, .export-cancel, .export-close).
 */

import { ApiError, apiPath, openStream } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { formatBytes } from '../../shared/values.js';
import { setVisibleText } from '../../shared/visible-text.js';

const CHOICES = [
  { format: 'csv', bom: false, label: 'CSV', hint: 'RFC 4180, UTF-8' },
  { format: 'csv', bom: true, label: 'CSV for Excel', hint: 'with a UTF-8 byte-order mark' },
  { format: 'ndjson', bom: false, label: 'NDJSON', hint: 'one JSON record per line' },
];
const TOTAL_HEADER = 'X-Total-Count';
const LF = 0x0a;
const QUOTE = 0x22;

let menu = null;
let panel = null;
/** The running export ({controller, name, counter}), or null. One export at a time. */
let running = null;

const count = (n) => n.toLocaleString('en-US');

function exportPath(entity, params, choice) {
  return apiPath(`/api/entities/${encodeURIComponent(entity)}/export`,
    { ...params, format: choice.format, bom: choice.bom ? '1' : '' });
}

/** The file name of Content-Disposition (RFC 6266: filename* first), else `fallback`. */
function filenameOf(response, fallback) {
  const header = response.headers.get('Content-Disposition') || '';
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch (_) { /* a malformed escape: try the plain name */ }
  }
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain ? plain[1] : fallback;
}

/** Counts records as bytes arrive: NDJSON lines, or CSV rows (line feeds outside quoted fields, header
 *  excluded). Quotes are ASCII, so counting them byte by byte is exact in UTF-8. */
function rowCounter(format) {
  let inQuotes = false;
  let lines = 0;
  return {
    add(bytes) {
      for (let i = 0; i < bytes.length; i += 1) {
        const byte = bytes[i];
        if (format === 'csv' && byte === QUOTE) inQuotes = !inQuotes;
        else if (byte === LF && !inQuotes) lines += 1;
      }
    },
    get rows() {
      return format === 'csv' ? Math.max(0, lines - 1) : lines;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Panel
// ---------------------------------------------------------------------------------------------

function ensurePanel() {
  if (panel) return panel;
  panel = el('div', 'export-panel');
  panel.id = 'export-panel';
  panel.setAttribute('role', 'status');
  panel.hidden = true;
  const text = el('span', 'export-text');
  const bar = el('progress', 'export-progress');
  bar.max = 1;
  const cancel = el('button', 'export-cancel', 'Cancel');
  cancel.type = 'button';
  cancel.addEventListener('click', cancelRunning);
  const close = el('button', 'export-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', () => { panel.hidden = true; });
  panel.append(text, bar, cancel, close);
  document.body.append(panel);
  return panel;
}

function showPanel(state, message, fraction) {
  const node = ensurePanel();
  node.hidden = false;
  node.dataset.state = state;
  // The file name may quote the search: markers, not bidi tricks.
  setVisibleText(node.querySelector('.export-text'), message);
  const bar = node.querySelector('.export-progress');
  bar.hidden = state !== 'running';
  if (fraction === null || fraction === undefined) bar.removeAttribute('value');
  else bar.value = Math.min(1, fraction);
  node.querySelector('.export-cancel').hidden = state !== 'running';
  node.querySelector('.export-close').hidden = state === 'running';
}

// ---------------------------------------------------------------------------------------------
// Running an export
// ---------------------------------------------------------------------------------------------

/** Stops the running export at once: the request is aborted and whatever arrived is dropped. */
function cancelRunning() {
  if (!running) return;
  const { controller, counter } = running;
  running = null;
  controller.abort();
  showPanel('cancelled', `Export of ${controller.name} cancelled after ${count(counter.rows)} rows; nothing was saved.`);
}

async function run(request, choice) {
  cancelRunning();
  const controller = new AbortController();
  const fallbackName = `${request.entity}.${choice.format}`;
  controller.name = fallbackName;
  const counter = rowCounter(choice.format);
  running = { controller, counter };
  let name = fallbackName;
  let bytes = 0;
  showPanel('running', `Exporting ${name}…`, null);
  try {
    let response;
    try {
      response = await openStream(exportPath(request.entity, request.params, choice), controller.signal);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.status) throw err; // unreachable: said below
      if (controller.signal.aborted) return;
      // The server's own message when it sent one ({"error": …}), else the status line.
      showPanel('failed', `Export failed: ${typeof err.body.error === 'string' ? `${err.status} · ` : ''}${err.message}`);
      return;
    }
    name = filenameOf(response, fallbackName);
    controller.name = name;
    const announced = Number.parseInt(response.headers.get(TOTAL_HEADER) || '', 10);
    const total = Number.isFinite(announced) ? announced : (Number.isFinite(request.total) ? request.total : null);
    const parts = [];
    const reader = response.body.getReader();
    let painted = 0;
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (controller.signal.aborted) return;
        // A body that ends without its last chunk: the server stopped midway (see docs/API.md).
        showPanel('failed', `Export of ${name} stopped after ${count(counter.rows)} rows (${formatBytes(bytes)}): `
          + 'the server ended the file early, so it was not saved. Try again; if it keeps stopping, the server log says why.');
        return;
      }
      if (controller.signal.aborted) return;
      if (chunk.done) break;
      parts.push(chunk.value);
      bytes += chunk.value.length;
      counter.add(chunk.value);
      const now = performance.now();
      if (now - painted > 100) {
        painted = now;
        const of = total !== null ? ` of ${count(total)}` : '';
        showPanel('running', `Exporting ${name}: ${count(counter.rows)}${of} rows · ${formatBytes(bytes)}`,
          total ? counter.rows / total : null);
      }
    }
    save(new Blob(parts, { type: response.headers.get('Content-Type') || 'application/octet-stream' }), name);
    const note = total !== null && total !== counter.rows
      ? ` (the list counted ${count(total)}: the store changed while it was read)` : '';
    showPanel('done', `Saved ${name}: ${count(counter.rows)} rows · ${formatBytes(bytes)}${note}`);
  } catch (err) {
    // A cancelled export has said so already (cancelRunning).
    if (!controller.signal.aborted) {
      // An unreachable server's ApiError says so ("Cannot reach the server (…)").
      const message = err instanceof ApiError ? err.message : `Cannot reach the server (${err && err.message ? err.message : err})`;
      showPanel('failed', `Export failed: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
    }
  } finally {
    if (running && running.controller === controller) running = null;
  }
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once click() returned a task later.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// ---------------------------------------------------------------------------------------------
// Menu
// ---------------------------------------------------------------------------------------------

function closeMenu(button) {
  if (menu) menu.hidden = true;
  button.setAttribute('aria-expanded', 'false');
}

function attach(button, describe) {
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  menu = el('div', 'export-menu');
  menu.id = 'export-menu';
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  for (const choice of CHOICES) {
    const item = el('button', 'export-choice');
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.dataset.format = choice.format;
    item.dataset.bom = choice.bom ? '1' : '0';
    item.append(el('span', 'export-choice-label', choice.label), el('span', 'export-choice-hint', choice.hint));
    item.addEventListener('click', () => {
      closeMenu(button);
      const request = describe();
      if (request) run(request, choice);
    });
    menu.append(item);
  }
  document.body.append(menu);

  button.addEventListener('click', (event) => {
    event.stopPropagation();
    if (!menu.hidden) return closeMenu(button);
    const box = button.getBoundingClientRect();
    menu.style.top = `${box.bottom + 4}px`;
    menu.style.left = `${Math.max(4, Math.min(box.left, window.innerWidth - 240))}px`;
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    menu.querySelector('.export-choice').focus();
  });
  document.addEventListener('click', (event) => {
    if (!menu.hidden && !menu.contains(event.target)) closeMenu(button);
  });
  menu.addEventListener('keydown', (event) => {
    const items = [...menu.querySelectorAll('.export-choice')];
    const index = items.indexOf(document.activeElement);
    if (event.key === 'Escape') {
      closeMenu(button);
      button.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
      items[next].focus();
    }
  });
}

export {
  attach,
  CHOICES,
};
