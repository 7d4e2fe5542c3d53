/*
 * CoreDataBrowser — what is inside Binary and Transformable values, for both views.
 *
 * A native ES module: what it exports is listed here. Everything is built
 * with DOM nodes and textContent (through shared/visible-text.js); nothing is ever parsed as HTML, and the
 * value's bytes are never opened as a document (only raster images are shown, as <img>; the server serves
 * everything else as a sandboxed download).
 *
 * API (docs/API.md): GET /api/object/content?id=&attr= → {kind, size, summary, storage, externalName?, transformer?,
 * mimeType?, image?, pageCount?, tree?, text?, inner?, inflatedSize?, archivedClass?, truncated[], problems[]};
 * GET /api/object/blob?id=&attr= → the bytes (a single Range: bytes=a-b gives 206).
 *
 *   report(id, attr)         Promise of the content report, cached per (id, attr) while the page lives; at most
 *                            MAX_IN_FLIGHT requests at once, the rest queued
 *   label(report)            the one-line summary shown in cells ("PNG 48×72 · 10 KB", "external · 3.2 MB")
 *   lazySummary(node, id, attr)
 *                            replaces node's text with ‹label› once node scrolls into view (IntersectionObserver);
 *                            on failure the byte count already there stays
 *   urlOf(value)             the URL when a string is exactly one absolute URL (the rule of docs/API.md, the same
 *                            as the server's URLText for text inside Binary values), else null
 *   markURL(node, value, type)
 *                            labels node as a URL (class val-url: a "URL" badge before it, data-url-scheme, a
 *                            title) when a String/URI value is one; returns the URL or null. Any scheme is
 *                            labelled; none is made a link here
 *   webLink(value)           an "open ↗" link for a value that is one absolute http(s) URL, else null
 *   transformerNote(name)    what a Transformable attribute's value transformer says about its bytes
 *   viewer(id, attr, size)   a <div class="content-viewer">: summary (with the value transformer, if the model
 *                            names one) and Download link, the viewer for the kind
 *                            (image preview, tree, text with line numbers, what gzip/zlib inflate to), the
 *                            limits hit and problems found, and always a hex view paged with Range requests
 *
 * Classes: .content-viewer .cv-summary .cv-transformer .cv-download .cv-image .cv-tree .cv-node .cv-toggle .cv-lines
 *          .cv-inner .cv-issues .cv-hex .cv-hex-nav .cv-hex-range; .val-url (any labelled URL) .cv-weblink
 */

import { getBytes, getJSON, storeAPI } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { setVisibleText, visibleText } from '../../shared/visible-text.js';

const MAX_IN_FLIGHT = 3;
/** Bytes per hex page: 256 rows of 16. */
const HEX_PAGE = 4096;
/** Tree levels open at first. */
const OPEN_LEVELS = 2;
/** Lines of text shown with numbers; longer texts say how many more there are. */
const MAX_LINES = 5000;

const query = (id, attr) => `id=${encodeURIComponent(id)}&attr=${encodeURIComponent(attr)}`;
const blobPath = (id, attr) => `/api/object/blob?${query(id, attr)}`;
const blobURL = (id, attr) => storeAPI(blobPath(id, attr));

// ------------------------------------------------------------------------------------- Reports

const reports = new Map();
const waiting = [];
let inFlight = 0;

function pump() {
  while (inFlight < MAX_IN_FLIGHT && waiting.length) {
    const job = waiting.shift();
    inFlight += 1;
    getJSON(job.path).then(job.resolve, job.reject).finally(() => {
      inFlight -= 1;
      pump();
    });
  }
}

function report(id, attr) {
  const key = `${id}\u0000${attr}`;
  if (!reports.has(key)) {
    const promise = new Promise((resolve, reject) => {
      waiting.push({ path: `/api/object/content?${query(id, attr)}`, resolve, reject });
      pump();
    });
    // A failure is not remembered: the next look asks again.
    promise.catch(() => reports.delete(key));
    reports.set(key, promise);
  }
  return reports.get(key);
}

function label(r) {
  return (r.storage === 'external' ? 'external · ' : '') + r.summary;
}

// ------------------------------------------------------------------------------ Lazy summaries

const observer = 'IntersectionObserver' in window
  ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      fillSummary(entry.target);
    }
  }, { rootMargin: '200px' })
  : null;

function fillSummary(node) {
  report(node.dataset.contentId, node.dataset.contentAttr).then((r) => {
    if (!node.isConnected) return;
    setVisibleText(node, `‹${label(r)}›`);
    node.dataset.kind = r.kind;
    node.title = visibleText(`${label(r)} — ${r.size} bytes${r.storage === 'external' ? ` in ${r.externalName}` : ''}`);
  }).catch(() => { /* the byte count already shown stays */ });
}

function lazySummary(node, id, attr) {
  node.dataset.contentId = id;
  node.dataset.contentAttr = attr;
  if (observer) observer.observe(node);
  else fillSummary(node);
}

// ------------------------------------------------------------------------------------- Viewers

function viewer(id, attr, size) {
  const root = el('div', 'content-viewer');
  root.dataset.id = id;
  root.dataset.attr = attr;
  const head = el('div', 'cv-head');
  const summary = el('span', 'cv-summary', 'Looking inside…');
  const download = el('a', 'cv-download', 'Download');
  download.href = blobURL(id, attr);
  download.setAttribute('download', '');
  head.append(summary, download);
  const body = el('div', 'cv-body');
  root.append(head, body, hexView(id, attr, size));
  report(id, attr).then((r) => {
    setVisibleText(summary, label(r));
    root.dataset.kind = r.kind;
    if (r.transformer) {
      const note = el('span', 'cv-transformer');
      setVisibleText(note, transformerNote(r.transformer));
      summary.after(note);
    }
    body.append(...kindView(r, id, attr));
  }).catch((error) => {
    setVisibleText(summary, `Could not look inside: ${error.message}`);
    summary.classList.add('cv-error');
  });
  return root;
}

/** Foundation's own value transformers: what they store is a keyed archive. */
const FOUNDATION_TRANSFORMERS = new Set(['NSSecureUnarchiveFromData', 'NSKeyedUnarchiveFromData', 'NSUnarchiveFromData']);

function transformerNote(name) {
  return FOUNDATION_TRANSFORMERS.has(name)
    ? `Transformer: ${name} (Foundation's: stores a keyed archive)`
    : `Transformer: ${name} (the app's own: these bytes are what it wrote)`;
}

/** The nodes that show one report (also a nested one: what gzip/zlib inflate to). */
function kindView(r, id, attr) {
  const nodes = [];
  // HEIC is served as itself, but Chromium and Firefox cannot decode it: its dimensions only.
  if (r.mimeType && r.image && id && r.kind !== 'heic') {
    const figure = el('figure', 'cv-image');
    const img = document.createElement('img');
    img.src = blobURL(id, attr);
    img.alt = `${attr}: ${r.summary}`;
    img.decoding = 'async';
    figure.append(img, el('figcaption', null, `${r.image.width} × ${r.image.height} px`));
    nodes.push(figure);
  } else if (r.image) {
    const why = r.kind === 'heic' ? ' (HEIC: browsers cannot show it; Download opens it in an app that can)' : '';
    nodes.push(el('p', 'cv-note cv-dimensions', `${r.image.width} × ${r.image.height} px${why}`));
  }
  if (r.pageCount !== undefined && r.pageCount !== null) nodes.push(el('p', 'cv-note', `${r.pageCount} page${r.pageCount === 1 ? '' : 's'}`));
  if (r.archivedClass) nodes.push(el('p', 'cv-note', `Archived class: ${r.archivedClass}`));
  if (r.tree) nodes.push(treeView(r.tree));
  if (typeof r.text === 'string') nodes.push(textView(r.text));
  if (r.inner) {
    const inner = el('section', 'cv-inner');
    inner.append(el('h4', null, `Inflated: ${r.inflatedSize ?? r.inner.size} bytes — ${r.inner.summary}`), ...kindView(r.inner, null, null));
    nodes.push(inner);
  }
  const issues = [...(r.truncated || []), ...(r.problems || [])];
  if (issues.length) {
    const list = el('ul', 'cv-issues');
    for (const issue of issues) list.append(el('li', null, issue));
    nodes.push(list);
  }
  return nodes;
}

/** A collapsible tree: each node with children has a button that opens or closes it. */
function treeView(tree) {
  const root = el('ul', 'cv-tree');
  root.setAttribute('role', 'tree');
  root.append(treeNode(tree, 0));
  return root;
}

function treeNode(node, depth) {
  const item = el('li', 'cv-node');
  item.setAttribute('role', 'treeitem');
  item.dataset.type = node.type;
  const line = el('div', 'cv-line');
  const children = Array.isArray(node.children) ? node.children : [];
  const hidden = typeof node.childCount === 'number' ? node.childCount - children.length : 0;
  if (children.length) {
    const toggle = el('button', 'cv-toggle', depth < OPEN_LEVELS ? '▾' : '▸');
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', String(depth < OPEN_LEVELS));
    toggle.setAttribute('aria-label', `${depth < OPEN_LEVELS ? 'Collapse' : 'Expand'} ${node.label ?? node.type}`);
    line.append(toggle);
  }
  if (node.label !== undefined && node.label !== null) line.append(el('span', 'cv-key', node.label), el('span', 'cv-sep', ': '));
  line.append(el('span', 'cv-type', node.type));
  if (node.value !== undefined && node.value !== null) line.append(el('span', 'cv-sep', ' '), el('span', 'cv-val', node.value));
  if (node.note) line.append(el('span', 'cv-note-inline', ` (${node.note})`));
  item.append(line);
  if (children.length) {
    const list = el('ul', 'cv-children');
    list.setAttribute('role', 'group');
    let built = false;
    const build = () => {
      if (built) return;
      built = true;
      for (const child of children) list.append(treeNode(child, depth + 1));
      if (hidden > 0) list.append(el('li', 'cv-more', `… ${hidden} more not shown`));
    };
    if (depth < OPEN_LEVELS) build();
    else list.hidden = true;
    item.append(list);
    const toggle = line.querySelector('.cv-toggle');
    toggle.addEventListener('click', () => {
      const open = list.hidden;
      if (open) build();
      list.hidden = !open;
      toggle.textContent = open ? '▾' : '▸';
      toggle.setAttribute('aria-expanded', String(open));
      toggle.setAttribute('aria-label', `${open ? 'Collapse' : 'Expand'} ${node.label ?? node.type}`);
    });
  }
  return item;
}

/**
 * Text with line numbers (an <ol>: the numbers are the list's own). A final line break ends the last line rather
 * than starting one; an empty line holds a <br> so it keeps its height (a zero-width space would be shown as
 * the ⟨U+200B⟩ marker it is).
 */
function textView(text) {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const list = el('ol', 'cv-lines');
  for (const line of lines.slice(0, MAX_LINES)) {
    const item = el('li', null, line);
    if (line === '') item.append(document.createElement('br'));
    list.append(item);
  }
  if (lines.length <= MAX_LINES) return list;
  const holder = el('div');
  holder.append(list, el('p', 'cv-note', `… ${lines.length - MAX_LINES} more lines`));
  return holder;
}

// ------------------------------------------------------------------------------------ Hex view

const hex2 = (n) => n.toString(16).toUpperCase().padStart(2, '0');
const hex8 = (n) => n.toString(16).toUpperCase().padStart(8, '0');

/** Offset, hex and ASCII columns of one page, fetched with a Range request (never the whole value). */
function hexView(id, attr, size) {
  const section = el('section', 'cv-hexview');
  const nav = el('div', 'cv-hex-nav');
  const range = el('span', 'cv-hex-range');
  const pre = el('pre', 'cv-hex');
  const buttons = {};
  // Short labels in glyphs every font has (‹ › « », as the Lab's pager), named by their titles: the nav stays
  // one row in the Inspector's narrow detail pane.
  for (const [name, text, title] of [['first', '«', 'First page'], ['previous', '‹', 'Previous page'],
    ['next', '›', 'Next page'], ['last', '»', 'Last page']]) {
    const button = el('button', `cv-hex-${name}`, text);
    button.type = 'button';
    button.title = title;
    button.setAttribute('aria-label', `${title} of the bytes`);
    buttons[name] = button;
  }
  nav.append(el('span', 'cv-hex-title', 'Bytes'), buttons.first, buttons.previous, range, buttons.next, buttons.last);
  section.append(nav, pre);
  const lastPage = Math.max(0, Math.floor((Math.max(size, 1) - 1) / HEX_PAGE));
  let page = 0;
  let token = 0;

  async function show(target) {
    page = Math.min(Math.max(0, target), lastPage);
    const start = page * HEX_PAGE;
    const end = Math.min(size, start + HEX_PAGE) - 1;
    buttons.first.disabled = buttons.previous.disabled = page === 0;
    buttons.next.disabled = buttons.last.disabled = page === lastPage;
    section.dataset.offset = String(start);
    if (size === 0) {
      setVisibleText(range, 'empty (0 bytes)');
      pre.textContent = '';
      return;
    }
    setVisibleText(range, `${start.toLocaleString()}–${(end + 1).toLocaleString()} of ${size.toLocaleString()} bytes`);
    const mine = ++token;
    try {
      const bytes = await getBytes(blobPath(id, attr), { start, end });
      if (mine !== token) return;
      const rows = [];
      for (let offset = 0; offset < bytes.length; offset += 16) {
        const slice = bytes.subarray(offset, offset + 16);
        const hex = Array.from(slice, hex2).join(' ').padEnd(47, ' ');
        const ascii = Array.from(slice, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
        rows.push(`${hex8(start + offset)}  ${hex}  ${ascii}`);
      }
      pre.textContent = rows.join('\n');
    } catch (error) {
      if (mine === token) pre.textContent = `Could not read these bytes: ${error.message}`;
    }
  }

  buttons.first.addEventListener('click', () => show(0));
  buttons.previous.addEventListener('click', () => show(page - 1));
  buttons.next.addEventListener('click', () => show(page + 1));
  buttons.last.addEventListener('click', () => show(lastPage));
  show(0);
  return section;
}

// ------------------------------------------------------------------------------------------ URLs

/** Schemes whose URLs have no "//" authority (RFC 3986 §3): as URLText.swift's list. */
const SCHEMES_WITHOUT_AUTHORITY = new Set(['mailto', 'tel', 'sms', 'data', 'urn', 'about', 'geo', 'facetime', 'maps']);
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):([^]*)$/;

/**
 * The URL when `value` is exactly one absolute URL (RFC 3986 §4.3), else null: a scheme, then "//" and an
 * authority (file:/// too) or one of the schemes without one; no whitespace anywhere; at most 8,192 characters;
 * and the browser's URL parser accepts it. "javascript:…" is no URL by this rule (no authority, not listed).
 */
function urlOf(value) {
  if (typeof value !== 'string' || value.length === 0 || value.length > 8192 || /\s/.test(value)) return null;
  const match = SCHEME.exec(value);
  if (!match) return null;
  const scheme = match[1].toLowerCase();
  const rest = match[2];
  if (rest.startsWith('//')) {
    if (rest.length === 2 && scheme !== 'file') return null;
  } else if (!SCHEMES_WITHOUT_AUTHORITY.has(scheme) || rest === '') {
    return null;
  }
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const isWeb = (url) => url.protocol === 'http:' || url.protocol === 'https:';

/** Attribute types whose string values may be labelled (an unknown type, '', is a string the schema omits). */
const TEXT_TYPES = new Set(['String', 'URI', '']);

/**
 * Labels `node` (which shows `value`, an attribute of `type`) as a URL of any scheme; only webLink ever makes
 * one clickable.
 */
function markURL(node, value, type = '') {
  if (!TEXT_TYPES.has(type || '')) return null;
  const url = urlOf(value);
  if (!url) return null;
  node.classList.add('val-url');
  node.dataset.urlScheme = url.protocol.slice(0, -1);
  node.title = visibleText(`URL (${url.protocol}) ${value}${isWeb(url) ? '' : ' — only http and https URLs open as links'}`);
  return url;
}

/**
 * A link that opens `value` in a new tab when it is exactly one absolute http(s) URL, else null. Other schemes
 * (javascript:, data:, file:, an app's own) are never made clickable; the value itself is always shown as text.
 */
function webLink(value) {
  const url = urlOf(value);
  if (!url || !isWeb(url)) return null;
  const link = el('a', 'cv-weblink', 'open ↗');
  link.href = url.href;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.title = visibleText(`Open ${url.href} in a new tab`);
  return link;
}

export {
  report,
  label,
  lazySummary,
  transformerNote,
  viewer,
  urlOf,
  markURL,
  webLink,
  HEX_PAGE,
};
