/*
 * CoreDataBrowser — DOM helpers every page uses. Nodes are built with textContent; nothing is parsed as HTML.
 *
 *   el(tag, className, text)
 *                          createElement + className + text (through setVisibleText, so invisible characters in
 *                          user data show as markers)
 *   focusWithin(pane, selector)
 *                          after a relationship was followed from the keyboard: focuses the first `selector` in
 *                          the pane (the followed record's related items), else the pane, never the page
 *   markChange(node, kind, label)
 *                          marks a row, cell or attribute as created, changed or deleted since the person looked
 *   menuItem(className, label, action, close, onSelect)
 *                          a menu's button[role=menuitem][data-action]: a click closes the menu, then does onSelect()
 *   floatingPanel(id, className, label, onClose)
 *                          {node, show(returnTo), close()}: a hidden section role=dialog on the page that Escape
 *                          closes, giving focus back (the facet and "Copy as Swift" panels)
 */

import { setVisibleText } from './visible-text.js';

/** createElement + className + text; never HTML. The text goes through setVisibleText, so a bidi override or a
 *  zero-width character in user data shows as a marker wherever it is written. */
/** The page's element with this id (null when it has none). */
const byId = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) setVisibleText(node, text);
  return node;
}


function focusWithin(pane, selector) {
  if (!pane || !pane.isConnected) return;
  const target = pane.querySelector(selector) || pane;
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: false });
}
// ---------------------------------------------------------------------------------------------
// What changed since the person looked (both views, after a Live or Refresh redraw of the same list)
// ---------------------------------------------------------------------------------------------

/** Marks a row, cell or attribute as created, changed or deleted since the person looked, and says so. */
function markChange(node, kind, label) {
  node.dataset.change = kind;
  node.title = node.title ? `${node.title} · ${label}` : label;
  node.setAttribute('aria-description', label);
}

// ---------------------------------------------------------------------------------------------
// Floating panels (facets, "Copy as Swift"): a dialog of the page that Escape closes
// ---------------------------------------------------------------------------------------------

/** An element the page names on its own (a dialog, a region, a drawer): its id, its ARIA role (none when null) and
 *  its accessible name. */
function namedPart(tag, className, id, role, label) {
  const node = el(tag, className);
  node.id = id;
  if (role) node.setAttribute('role', role);
  node.setAttribute('aria-label', label);
  return node;
}

/** A hidden <section role=dialog id=…> added to the page: show(returnTo) opens it, close() hides it (Escape too),
 *  calls onClose and gives focus back to returnTo. */
function floatingPanel(id, className, label, onClose) {
  const node = namedPart('section', className, id, 'dialog', label);
  node.hidden = true;
  let returnTo = null;
  const close = () => {
    if (node.hidden) return;
    node.hidden = true;
    if (onClose) onClose();
    if (returnTo && returnTo.isConnected) returnTo.focus();
  };
  node.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  });
  document.body.append(node);
  return {
    node,
    close,
    show(from) {
      returnTo = from || document.activeElement;
      node.hidden = false;
    },
  };
}

/** A floatingPanel made the first time it is needed: node() makes it (once) and gives its element; close() does
 *  nothing before that. */
function deferredPanel(id, className, label, onClose) {
  let shell = null;
  return {
    node() {
      if (!shell) shell = floatingPanel(id, className, label, onClose);
      return shell.node;
    },
    close() {
      if (shell) shell.close();
    },
    show(from) {
      shell.show(from);
    },
  };
}

function menuItem(className, label, action, close, onSelect) {
  const button = el('button', className, label);
  button.type = 'button';
  button.dataset.action = action;
  button.setAttribute('role', 'menuitem');
  button.addEventListener('click', () => {
    close();
    onSelect();
  });
  return button;
}

export {
  byId,
  deferredPanel,
  el,
  focusWithin,
  markChange,
  menuItem,
  namedPart,
  floatingPanel,
};
