/*
 * CoreDataBrowser — Lab view: the page's own keys (outside the grid and the menus).
 */

import { onGridKeyDown } from './grid-selection.js';
import { closeMenu, onMenuKeyDown, openMenuState } from './menus.js';
import { dom } from './state.js';
import { applySearch } from './toolbar.js';

// ------------------------------------------------------------ Keyboard (global)

function onDocumentKeyDown(event) {
  if (openMenuState) {
    if (event.key === 'Escape') {
      event.preventDefault();
      closeMenu({ restoreFocus: true });
    } else {
      onMenuKeyDown(event);
    }
    return;
  }
  if (event.key === 'Escape') {
    if (dom.detailBody.contains(document.activeElement) || dom.paneRel.contains(document.activeElement)) {
      dom.gridScroll.focus();
    } else if (document.activeElement === dom.search && dom.search.value) {
      dom.search.value = '';
      applySearch();
    }
    return;
  }
  // "/" focuses the search box, as in the Inspector (unless the user is typing somewhere).
  const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement?.tagName);
  if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    dom.search.focus();
    dom.search.select();
    return;
  }
  // Arrow keys with nothing focused (e.g. after a reload) drive the grid.
  if (document.activeElement === document.body && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
    dom.gridScroll.focus({ preventScroll: true });
    onGridKeyDown(event);
  }
}

export {
  onDocumentKeyDown,
};
