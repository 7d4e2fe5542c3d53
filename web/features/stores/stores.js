/*
 * The store switcher, on every view: when the server serves several stores (GET /api/stores), a menu in the top
 * bar lists them (grouped: a simulator's device, then its app) and switching loads the same view on the other
 * store (`?store=<id>`; the entity, record and filters belong to a store, so they are left behind). When the
 * server was started on a folder of stores, "Rescan" asks it to look for stores added since.
 *
 * The view tabs keep the page's store, so Inspector ⇄ Lab ⇄ History stay on it. One store: nothing is shown.
 *
 * DOM: inserted after the top bar's .view-tabs: #store-switcher (a select), #store-rescan (a button).
 */

import { getJSON } from '../../shared/api.js';
import { el } from '../../shared/dom.js';
import { pageStore, viewURL } from '../../shared/url.js';

/** The view tabs keep the page's store. */
function keepStoreInTabs() {
  for (const tab of document.querySelectorAll('.view-tabs a[data-view]')) {
    tab.href = viewURL(new URL(tab.getAttribute('href'), window.location.origin).pathname);
  }
}

/** The menu's options, grouped by each store's group path; a store that cannot be opened says so. */
function fillMenu(select, stores, current) {
  const groups = new Map();
  for (const store of stores) {
    const key = (store.group || []).join(' ▸ ');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(store);
  }
  const children = [];
  for (const [label, members] of groups) {
    const options = members.map((store) => {
      const option = el('option', null, store.error ? `${store.name} (cannot be opened)` : store.name);
      option.value = store.id;
      option.title = store.error || store.path || store.name;
      option.selected = store.id === current;
      return option;
    });
    if (label) {
      const group = el('optgroup');
      group.label = label;
      group.append(...options);
      children.push(group);
    } else {
      children.push(...options);
    }
  }
  select.replaceChildren(...children);
  select.title = `${stores.length} stores on this server`;
}

async function start() {
  keepStoreInTabs();
  let list;
  try {
    list = await getJSON('/api/stores');
  } catch (_) {
    return;  // an older server, or offline: the view says so itself
  }
  if (list.stores.length < 2 && !list.refreshable) return;
  const current = pageStore() || (list.stores[0] && list.stores[0].id);
  const select = el('select', 'control store-switcher');
  select.id = 'store-switcher';
  select.setAttribute('aria-label', 'Store');
  fillMenu(select, list.stores, current);
  select.addEventListener('change', () => {
    const query = new URLSearchParams({ store: select.value });
    window.location.assign(`${window.location.pathname}?${query}`);
  });
  const holder = el('span', 'store-switch');
  holder.append(select);
  if (list.refreshable) {
    const rescan = el('button', 'control', '↻ Rescan');
    rescan.id = 'store-rescan';
    rescan.type = 'button';
    rescan.title = 'Look for stores added since the server started';
    rescan.addEventListener('click', async () => {
      rescan.disabled = true;
      try {
        const fresh = await getJSON('/api/stores?refresh=1');
        fillMenu(select, fresh.stores, select.value || current);
        rescan.title = `Found ${fresh.stores.length} stores`;
      } catch (err) {
        rescan.title = `Rescan failed: ${err.message}`;
      } finally {
        rescan.disabled = false;
      }
    });
    holder.append(rescan);
  }
  const tabs = document.querySelector('.view-tabs');
  if (tabs) tabs.after(holder);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
