/*
 * CoreDataBrowser — the one client of the JSON API (docs/API.md), for every page.
 *
 *   ApiError               a request the server refused (`status`, and `body`: the whole error object, e.g. a refused
 *                          write's `fields` or versions) or could not be sent (`status` 0)
 *   getJSON(path, signal)  GETs JSON; a non-2xx answer throws ApiError(message, status, body) with the server's
 *                          {"error": …} message, an unreachable server ApiError(…, 0); an abort passes through
 *   getBytes(path, range, signal)
 *                          GETs raw bytes (a Uint8Array): `range` {start, end} (inclusive) asks for those bytes only;
 *                          refusals and an unreachable server throw as getJSON's do
 *   openStream(path, signal)
 *                          GETs a response to read as it arrives (an export): the Response once its status says it
 *                          is the file; refusals and an unreachable server throw as getJSON's do
 *   sendJSON(method, path, body)
 *                          the same for a write (POST/PATCH/DELETE), `body` sent as JSON when given; `path` as
 *                          apiPath gives it
 *   apiPath(path, params)  `path?query` with the parameters that have a value, for the page's store
 *   storeAPI(path)         `/api/x…` as the page's store's path (`/api/stores/<id>/x…`)
 *   entityFromId(uri), shortId(uri)
 *                          "x-coredata://<store>/Book/p12" -> "Book" (or null) and -> "p12"
 *   isAbort(err)           whether err is a fetch aborted because a newer one replaced it
 *   restartFetch(slots, name)
 *                          a pane's next fetch: aborts the one still running in slots[name] (an older page or
 *                          record must never be drawn over a newer one) and returns its new AbortController
 */

import { noteAnswer, noteUnreachable } from './connection.js';
import { pageStore } from './url.js';

/** A request the server refused (`status`) or could not be sent (`status` 0). */
class ApiError extends Error {
  constructor(message, status, body = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    /** The error's JSON object as the server sent it ({} when there was none). */
    this.body = body && typeof body === 'object' ? body : {};
  }
}

/** `/api/x…` as the page's store's path (`/api/stores/<id>/x…`); a path already naming a store, or
 *  `/api/stores` itself, is left as it is. */
function storeAPI(path) {
  const store = pageStore();
  if (!store || !path.startsWith('/api/') || path === '/api/stores' || path.startsWith('/api/stores?')
      || path.startsWith('/api/stores/')) return path;
  return `/api/stores/${encodeURIComponent(store)}/${path.slice('/api/'.length)}`;
}

/** GETs JSON from the API (one client for every view), from the page's store. */
function getJSON(path, signal) {
  return request(storeAPI(path), { signal, headers: { Accept: 'application/json' } });
}

/** A write to the API: `body`, when given, is sent as JSON (the server refuses writes of any other type). */
function sendJSON(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return request(storeAPI(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** How many API requests are in flight, kept on `<html data-api-pending>`: a test waits for "every request the
 *  page started has answered" on it instead of pausing. */
function countPending(delta) {
  const root = document.documentElement;
  root.dataset.apiPending = String((Number(root.dataset.apiPending) || 0) + delta);
}

/** One request, counted while it runs, and its answer read by `read` (JSON or bytes); a refusal is an ApiError with the
 *  server's message and error object. Never from or into the browser's cache: store data stays off the disk (the
 *  server says no-store too). */
async function request(url, init, read = readJSON) {
  countPending(1);
  try {
    return await answer(url, init, read);
  } finally {
    countPending(-1);
  }
}

async function answer(url, init, read) {
  let response;
  try {
    response = await fetch(url, { ...init, cache: 'no-store' });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    noteUnreachable();
    throw new ApiError(`Cannot reach the server (${err.message})`, 0);
  }
  noteAnswer();
  if (!response.ok) {
    const body = parseJSON(await response.text());
    const message = body && typeof body === 'object' && typeof body.error === 'string' && body.error
      ? body.error
      : `${response.status} ${response.statusText}`.trim();
    throw new ApiError(message, response.status, body);
  }
  return read(response);
}

function parseJSON(text) {
  try {
    return text ? JSON.parse(text) : null;
  } catch (_) {
    return null;
  }
}

async function readJSON(response) {
  const body = parseJSON(await response.text());
  if (body === null) throw new ApiError('The server sent a response that is not JSON', response.status);
  return body;
}

async function readBytes(response) {
  return new Uint8Array(await response.arrayBuffer());
}

/** A response whose body the caller reads as it arrives (an export, which may be large), from the page's store. */
function openStream(path, signal) {
  return request(storeAPI(path), { signal }, (response) => response);
}

/** Raw bytes from the API (a blob attribute's), from the page's store; `range` asks for a part of them. */
function getBytes(path, range, signal) {
  const headers = range ? { Range: `bytes=${range.start}-${range.end}` } : {};
  return request(storeAPI(path), { signal, headers }, readBytes);
}

/** `path?query` with the parameters that have a value (empty strings, null and undefined are left out), for the
 *  page's store. */
function apiPath(path, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== '' && value !== null && value !== undefined) query.set(key, String(value));
  }
  const text = query.toString();
  const storePath = storeAPI(path);
  return text ? `${storePath}?${text}` : storePath;
}

/** "x-coredata://<store>/Book/p12" -> "Book" (or null). */
function entityFromId(id) {
  const m = /\/([^/]+)\/p\d+$/.exec(id);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch (_) {
    return null; // a malformed escape in a pasted URL is shown as an error by the server, not thrown here
  }
}

/** "x-coredata://<store>/Book/p12" -> "p12" (the ID itself when it is not of that form). */
function shortId(id) {
  const m = /\/(p\d+)$/.exec(id);
  return m ? m[1] : id;
}

/** A fetch aborted because a newer one replaced it: not an error to show. */
const isAbort = (err) => err && err.name === 'AbortError';

function restartFetch(slots, name) {
  if (slots[name]) slots[name].abort();
  slots[name] = new AbortController();
  return slots[name];
}

export {
  ApiError,
  getBytes,
  getJSON,
  openStream,
  sendJSON,
  apiPath,
  storeAPI,
  entityFromId,
  shortId,
  isAbort,
  restartFetch,
};
