/*
 * CoreDataBrowser — what makes a wide record fit on one screen, in both views' detail panes.
 *
 * A real entity may have 70 attributes, half of them nil, and the relationships below them three screens down;
 * names that share a long prefix (croppingQuadBottomLeftX, croppingQuadBottomLeftY…) looked identical once cut to
 * the column. So each detail gets:
 *   detailJumpBar(root, sections, emptyCount)  a bar at the top of the detail: one button per section that scrolls
 *                                   it into view (the relationships a click away however long the attributes), and
 *                                   "Hide empty", which hides nil attributes and empty relationships (remembered
 *                                   for both views in cdb.detailHideEmpty) by a class on `root`
 *   markEmpty(node, isEmpty)        marks a row or block that "Hide empty" hides
 *   isEmptyValue(value)             nil (what "empty" means for an attribute)
 *   nameWithBreaks(name)            the whole name, with line-break chances between its words (camelCase humps,
 *                                   underscores, digits), so a long name wraps at a word and is never cut
 *
 * Elements: nav.detail-jump (button.detail-jump-to[data-jump], label.detail-hide-empty > input#detail-hide-empty);
 * the sections it jumps to carry data-section (the same id); `root` gets .is-hiding-empty; hidden rows carry .is-empty.
 */
import { el } from './dom.js';
import { readStored, writeStored } from './storage.js';

const HIDE_EMPTY_KEY = 'cdb.detailHideEmpty';

export function isEmptyValue(value) {
  return value === null || value === undefined;
}

export function markEmpty(node, isEmpty) {
  node.classList.toggle('is-empty', Boolean(isEmpty));
}

/** The name as text nodes with <wbr> between its words: "croppingQuadBottomLeftX" may wrap before "Bottom". */
export function nameWithBreaks(name) {
  const fragment = document.createDocumentFragment();
  const words = String(name).split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=_)|(?<=[A-Za-z])(?=[0-9])/);
  words.forEach((word, index) => {
    if (index) fragment.append(document.createElement('wbr'));
    fragment.append(word);
  });
  return fragment;
}

/**
 * The jump bar for a detail `root`: `sections` is [{id, label, count}] in page order (each section element carries
 * data-section=id); `emptyCount` is how many rows "Hide empty" would hide.
 */
export function detailJumpBar(root, sections, emptyCount) {
  const bar = el('nav', 'detail-jump');
  bar.setAttribute('aria-label', 'Sections of the record');
  for (const { id, label, count } of sections) {
    const jump = el('button', 'detail-jump-to', `${label} (${count.toLocaleString()})`);
    jump.type = 'button';
    jump.dataset.jump = id;
    jump.addEventListener('click', () => {
      const target = root.querySelector(`[data-section="${id}"]`);
      if (target) target.scrollIntoView({ block: 'start' });
    });
    bar.append(jump);
  }
  const toggle = el('label', 'detail-hide-empty');
  const box = el('input');
  box.type = 'checkbox';
  box.id = 'detail-hide-empty';
  box.checked = readStored(HIDE_EMPTY_KEY) === '1';
  toggle.title = 'Hide nil attributes and empty relationships (remembered)';
  toggle.append(box, ` Hide empty (${emptyCount.toLocaleString()})`);
  const apply = () => root.classList.toggle('is-hiding-empty', box.checked);
  box.addEventListener('change', () => {
    writeStored(HIDE_EMPTY_KEY, box.checked ? '1' : '0');
    apply();
  });
  apply();
  bar.append(toggle);
  return bar;
}
