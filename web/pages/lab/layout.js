/*
 * CoreDataBrowser — Lab view: the panes' sizes (the four splitters, shared/splitters.js), kept in localStorage
 * "cdb.lab.panes", following the window for panes never dragged.
 */

import { wireSplitter } from '../../shared/splitters.js';
import { readStoredJSON, writeStoredJSON } from '../../shared/storage.js';
import { CENTER_MIN_WIDTH, LAYOUT_PADDING_PX, PANE_DEFAULT, PANE_MIN, SPLITTER_PX, STORAGE, clamp, dom, isPlainObject, paneDefaults, state } from './state.js';

// ------------------------------------------------------------ Splitters and pane sizes

const SPLITS = {
  sidebar: { axis: 'x', sign: 1, min: PANE_MIN.sidebar },
  detail: { axis: 'x', sign: -1, min: PANE_MIN.detail },
  bottom: { axis: 'y', sign: -1, min: PANE_MIN.subHeight },
  bottomLeft: { axis: 'x', sign: 1, min: PANE_MIN.subWidth },
};

/** The largest size a pane may take with every other pane at least at its minimum. */
function paneMax(name) {
  const sizes = state.panes;
  const innerWidth = dom.layout.clientWidth - 2 * LAYOUT_PADDING_PX;
  switch (name) {
    case 'sidebar': return innerWidth - 2 * SPLITTER_PX - sizes.detail - CENTER_MIN_WIDTH;
    case 'detail': return innerWidth - 2 * SPLITTER_PX - sizes.sidebar - CENTER_MIN_WIDTH;
    case 'bottom': return dom.center.clientHeight - SPLITTER_PX - PANE_MIN.gridHeight;
    case 'bottomLeft': return dom.center.clientWidth - SPLITTER_PX - PANE_MIN.subWidth;
    default: return Infinity;
  }
}

function clampPane(name, value) {
  const min = SPLITS[name].min;
  return Math.round(clamp(value, min, Math.max(min, paneMax(name))));
}

function applyPaneSizes() {
  const { sidebar, detail, bottom, bottomLeft } = state.panes;
  dom.paneSidebar.style.flexBasis = `${sidebar}px`;
  dom.paneDetail.style.flexBasis = `${detail}px`;
  dom.bottomRow.style.flexBasis = `${bottom}px`;
  dom.paneRel.style.flex = bottomLeft === null ? '' : `0 0 ${bottomLeft}px`;
}

/** Clamps every pane to the plan's minimums and to what the window leaves. */
function clampPanes() {
  const sizes = state.panes;
  sizes.sidebar = clampPane('sidebar', sizes.sidebar);
  sizes.detail = clampPane('detail', sizes.detail);
  applyPaneSizes(); // the center's size depends on the two side panes
  sizes.bottom = clampPane('bottom', sizes.bottom);
  if (sizes.bottomLeft !== null) sizes.bottomLeft = clampPane('bottomLeft', sizes.bottomLeft);
  applyPaneSizes();
}

function loadPanes() {
  const raw = readStoredJSON(STORAGE.panes);
  const sizes = { ...PANE_DEFAULT };
  if (isPlainObject(raw)) {
    for (const name of Object.keys(SPLITS)) {
      if (typeof raw[name] === 'number' && Number.isFinite(raw[name])) sizes[name] = raw[name];
    }
  }
  state.panes = sizes;
  clampPanes();
}

function savePanes() {
  writeStoredJSON(STORAGE.panes, state.panes);
}

function measuredPane(name) {
  const node = { sidebar: dom.paneSidebar, detail: dom.paneDetail, bottom: dom.bottomRow, bottomLeft: dom.paneRel }[name];
  const rect = node.getBoundingClientRect();
  return SPLITS[name].axis === 'x' ? rect.width : rect.height;
}

function wireSplitters() {
  for (const splitter of dom.splitters) {
    const name = splitter.dataset.split;
    const split = SPLITS[name];
    if (!split) continue;
    wireSplitter(splitter, {
      axis: split.axis,
      sign: split.sign,
      start: () => measuredPane(name),
      resize: (size) => {
        state.panes[name] = clampPane(name, size);
        applyPaneSizes();
      },
      done: savePanes,
      reset: () => {
        state.panes[name] = PANE_DEFAULT[name];
        clampPanes();
      },
      bodyClasses: ['is-dragging', split.axis === 'x' ? 'is-dragging-col' : 'is-dragging-row'],
    });
  }
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      // Panes the user never dragged follow the window; dragged ones keep their size (clamped to fit).
      const stored = readStoredJSON(STORAGE.panes);
      if (!isPlainObject(stored)) state.panes = paneDefaults();
      clampPanes();
    });
  });
}

export {
  loadPanes,
  wireSplitters,
};
