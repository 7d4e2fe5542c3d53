/*
 * CoreDataBrowser — long values in a detail pane (both views).
 *
 *   LONG_VALUE_CHARS, isLongValue(value), longValue(value, render)
 *                          a string over 2,000 characters: its start, cut by height too (a few lines, tokens.css
 *                          .long-value), "N characters" and a Show all / Show less button; shown whole it scrolls
 *                          inside a box of at most 60% of the window, never making the pane 188,000 px tall.
 *                          render(text) makes the node for a piece of text (the view's own style)
 */

import { el } from './dom.js';
import { formatCount } from './paging.js';

const LONG_VALUE_CHARS = 2000;

function isLongValue(value) {
  return typeof value === 'string' && value.length > LONG_VALUE_CHARS;
}

function longValue(value, render) {
  const holder = el('div', 'long-value is-clamped');
  holder.dataset.length = String(value.length);
  const text = el('div', 'long-value-text');
  text.append(render(value.slice(0, LONG_VALUE_CHARS)));
  const button = el('button', 'show-all-value', 'Show all');
  button.type = 'button';
  button.setAttribute('aria-expanded', 'false');
  button.addEventListener('click', () => {
    const opening = holder.classList.contains('is-clamped');
    text.replaceChildren(render(opening ? value : value.slice(0, LONG_VALUE_CHARS)));
    text.scrollTop = 0;
    holder.classList.toggle('is-clamped', !opening);
    holder.classList.toggle('is-open', opening);
    button.textContent = opening ? 'Show less' : 'Show all';
    button.setAttribute('aria-expanded', String(opening));
  });
  const bar = el('div', 'long-value-bar');
  bar.append(el('span', 'long-value-count', `${formatCount(value.length)} characters`), button);
  holder.append(text, bar);
  return holder;
}

export {
  LONG_VALUE_CHARS,
  isLongValue,
  longValue,
};
