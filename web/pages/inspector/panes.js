/*
 * CoreDataBrowser — Inspector view: the three panes' widths (the two splitters, shared/splitters.js), kept in
 * localStorage "cdb.inspector.panes".
 */

import { wireSplitter } from '../../shared/splitters.js';
import { readStoredJSON, writeStoredJSON } from '../../shared/storage.js';
import { dom } from './state.js';

const PANES_KEY = 'cdb.inspector.panes';
const PANE_DEFAULTS = { left: 240, right: 420 };
const PANE_MIN = { left: 160, middle: 280, right: 240 };

// ---------------------------------------------------------------------------------------------
// Resizable panes
// ---------------------------------------------------------------------------------------------

let paneSizes = { ...PANE_DEFAULTS };

function readPaneSizes() {
  const stored = readStoredJSON(PANES_KEY); // null when missing or malformed: the defaults
  const sizes = { ...PANE_DEFAULTS };
  if (stored && typeof stored === 'object') {
    if (Number.isFinite(stored.left)) sizes.left = stored.left;
    if (Number.isFinite(stored.right)) sizes.right = stored.right;
  }
  return sizes;
}

function savePaneSizes() {
  // Refused storage (private mode): sizes then last for this page only.
  writeStoredJSON(PANES_KEY, { left: Math.round(paneSizes.left), right: Math.round(paneSizes.right) });
}

/** Keeps every pane at or above its minimum width within the layout's current width. */
function clampPaneSizes(sizes) {
  const style = window.getComputedStyle(dom.layout);
  const inner = dom.layout.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - dom.splitterLeft.offsetWidth - dom.splitterRight.offsetWidth;
  let left = Math.max(PANE_MIN.left, sizes.left);
  let right = Math.max(PANE_MIN.right, sizes.right);
  const spare = inner - PANE_MIN.middle;
  if (left + right > spare) {
    // Shrink the one being squeezed last, but never below its minimum.
    right = Math.max(PANE_MIN.right, spare - left);
    left = Math.max(PANE_MIN.left, spare - right);
  }
  return { left, right };
}

function restorePaneSizes() {
  paneSizes = readPaneSizes();
  applyPaneSizes();
}

function applyPaneSizes() {
  const { left, right } = clampPaneSizes(paneSizes);
  dom.layout.style.setProperty('--left-w', `${Math.round(left)}px`);
  dom.layout.style.setProperty('--right-w', `${Math.round(right)}px`);
}

/** The left splitter sizes the entities pane, the right one the detail pane (dragging right shrinks it). */
function setupSplitter(splitter, side) {
  let dragStart = null; // the sizes when the drag began: the other pane is clamped from them, not from the last move
  wireSplitter(splitter, {
    axis: 'x',
    sign: side === 'left' ? 1 : -1,
    start: () => {
      dragStart = clampPaneSizes(paneSizes);
      return dragStart[side];
    },
    resize: (size) => {
      paneSizes = clampPaneSizes({ ...dragStart, [side]: size });
      applyPaneSizes();
    },
    done: savePaneSizes,
    reset: () => {
      paneSizes = { ...paneSizes, [side]: PANE_DEFAULTS[side] };
      applyPaneSizes();
    },
    bodyClasses: ['is-resizing'],
  });
}

export {
  applyPaneSizes,
  restorePaneSizes,
  setupSplitter,
};
