/*
 * CoreDataBrowser — which store the page shows, and links between views that keep it.
 *
 * A server may serve several stores (GET /api/stores). The page's `?store=` names one; its API calls then go to
 * /api/stores/<id>/…, and every link to a view keeps the parameter.
 *
 *   STORE_PARAM            "store"
 *   pageStore()            the page's store ID, or '' for the server's first store
 *   viewURL(path, params)  a view's URL (`/`, `/lab`, `/history`, `/model`) with params, keeping the page's store
 *   commitURL(url, mode)   writes a view's state into the address bar: "push" adds a history entry (navigation),
 *                          "replace" does not (refinements); the same URL again adds nothing
 */

const STORE_PARAM = 'store';

/** The page's store ID, or '' for the server's first store. */
function pageStore() {
  return new URLSearchParams(window.location.search).get(STORE_PARAM) || '';
}

/** A view's URL (`/`, `/lab`, `/history`, `/model`) with `params` (a URLSearchParams or an object; empty values
 *  left out), keeping the page's store. */
function viewURL(path, params) {
  const query = new URLSearchParams();
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params || {});
  for (const [key, value] of entries) {
    if (value !== '' && value !== null && value !== undefined) query.set(key, String(value));
  }
  const store = pageStore();
  if (store) query.set(STORE_PARAM, store);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Writes a view's state into the address bar: "push" adds a history entry, "replace" does not. */
function commitURL(url, mode) {
  if (url === window.location.pathname + window.location.search) return;
  if (mode === 'push') window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
}

export {
  STORE_PARAM,
  pageStore,
  viewURL,
  commitURL,
};
