/*
 * CoreDataBrowser — Lab view: the popover menus (a header's, the columns menu, a cell's).
 */

import { el, menuItem } from '../../shared/dom.js';
import * as facets from '../../features/facets/facets.js';
import { actions } from './actions.js';
import { attributesOf, countableRelationships, countedRelationship, isSortable, paintColumnWidths, saveCols } from './columns.js';
import { clamp, dom, shortType, state } from './state.js';

// ------------------------------------------------------------ Menus (popovers)

let openMenuState = null; // {name, node, returnFocus}

function openPopover(name, node, { x, y, alignRight = false, returnFocus }) {
  closeMenu();
  node.classList.add('cdb-popover');
  node.dataset.menu = name;
  node.setAttribute('role', 'menu');
  node.style.left = '0px';
  node.style.top = '0px';
  document.body.append(node);
  const rect = node.getBoundingClientRect();
  const left = alignRight ? x - rect.width : x;
  node.style.left = `${clamp(left, 8, window.innerWidth - rect.width - 8)}px`;
  node.style.top = `${clamp(y, 8, window.innerHeight - rect.height - 8)}px`;
  openMenuState = { name, node, returnFocus };
  const first = node.querySelector('.pop-item');
  if (first) first.focus({ preventScroll: true });
}

function closeMenu({ restoreFocus = false } = {}) {
  if (!openMenuState) return;
  const { node, returnFocus, name } = openMenuState;
  openMenuState = null;
  node.remove();
  if (name === 'columns') dom.columnsBtn.setAttribute('aria-expanded', 'false');
  if (restoreFocus && returnFocus && returnFocus.isConnected) returnFocus.focus({ preventScroll: true });
}

function menuButton(label, action, onSelect) {
  return menuItem('pop-item', label, action, closeMenu, onSelect);
}

function openHeaderMenu(name, x, y, th) {
  const menu = el('div');
  menu.append(el('div', 'pop-label', name));
  if (isSortable(name)) {
    menu.append(
      menuButton('Sort ascending ▲', 'sort-asc', () => actions.setSort(name, 'asc')),
      menuButton('Sort descending ▼', 'sort-desc', () => actions.setSort(name, 'desc')),
    );
  } else {
    menu.append(el('div', 'pop-label pop-note', 'Bytes have no order to sort by'));
  }
  if (state.sort === name) menu.append(menuButton('Clear sort', 'sort-clear', () => actions.setSort(null, 'asc')));
  if (facets.facetable(attributesOf(state.entity).find((a) => a.name === name)?.type)) {
    menu.append(menuButton('Facets…', 'facets', () => facets.open(name, th)));
  }
  // A count column shows while the grid is sorted by it: clearing the sort hides it, and it has no width or
  // place to keep.
  if (countedRelationship(name)) {
    openPopover('header', menu, { x, y, returnFocus: th });
    return;
  }
  menu.append(el('div', 'pop-sep'));
  menu.append(menuButton('Hide column', 'hide', () => actions.setColumnHidden(name, true)));
  if (typeof state.cols.widths[name] === 'number') {
    menu.append(menuButton('Reset width', 'reset-width', () => {
      delete state.cols.widths[name];
      saveCols();
      paintColumnWidths();
    }));
  }
  menu.append(menuButton('Reset all columns', 'reset', actions.resetColumns));
  openPopover('header', menu, { x, y, returnFocus: th });
}

function openColumnsMenu() {
  if (!state.cols) return;
  const menu = el('div');
  menu.append(el('div', 'pop-label', `${state.entity} columns`));
  const types = new Map(attributesOf(state.entity).map((a) => [a.name, a.type]));
  const hidden = new Set(state.cols.hidden);
  for (const name of state.cols.order) {
    const label = el('label', 'pop-item');
    label.setAttribute('role', 'menuitemcheckbox');
    label.setAttribute('aria-checked', String(!hidden.has(name)));
    const box = el('input');
    box.type = 'checkbox';
    box.checked = !hidden.has(name);
    box.dataset.col = name;
    box.addEventListener('change', () => {
      label.setAttribute('aria-checked', String(box.checked));
      actions.setColumnHidden(name, !box.checked);
    });
    label.append(box, el('span', null, name), el('span', 'pop-type', shortType(types.get(name))));
    menu.append(label);
  }
  const countable = countableRelationships(state.entity);
  if (countable.length) {
    // A to-many relationship's count is a column while the grid is sorted by it (most first).
    menu.append(el('div', 'pop-sep'), el('div', 'pop-label', 'Sort by a count'));
    for (const relationship of countable) {
      const button = menuButton(`Count of ${relationship.name}`, 'sort-count', () => actions.setSort(`${relationship.name}.@count`, 'desc'));
      button.dataset.count = relationship.name;
      menu.append(button);
    }
  }
  menu.append(el('div', 'pop-sep'));
  menu.append(
    menuButton('Show all', 'show-all', () => {
      state.cols.hidden = [];
      saveCols();
      actions.renderGrid();
    }),
    menuButton('Reset columns', 'reset', actions.resetColumns),
  );
  const rect = dom.columnsBtn.getBoundingClientRect();
  openPopover('columns', menu, { x: rect.right, y: rect.bottom + 4, alignRight: true, returnFocus: dom.columnsBtn });
  dom.columnsBtn.setAttribute('aria-expanded', 'true');
}

function wireMenus() {
  document.addEventListener('pointerdown', (event) => {
    if (!openMenuState) return;
    if (openMenuState.node.contains(event.target)) return;
    if (openMenuState.name === 'columns' && dom.columnsBtn.contains(event.target)) return;
    closeMenu();
  }, true);
  window.addEventListener('resize', () => closeMenu());
  window.addEventListener('blur', () => closeMenu());
}

function onMenuKeyDown(event) {
  const items = [...openMenuState.node.querySelectorAll('.pop-item')];
  const index = items.indexOf(document.activeElement);
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    const next = items[(index + step + items.length) % items.length];
    if (next) next.focus();
  } else if (event.key === 'Tab') {
    closeMenu();
  }
}

export {
  closeMenu,
  menuButton,
  onMenuKeyDown,
  openColumnsMenu,
  openHeaderMenu,
  openMenuState,
  openPopover,
  wireMenus,
};
