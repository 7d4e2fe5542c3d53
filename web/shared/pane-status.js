/*
 * CoreDataBrowser — a pane's status, for every view: what the pane holds on its data-state (what the CSS dims and a
 * test waits on), aria-busy while it loads, and the status line that says it.
 *
 *   showPaneStatus(pane, line, state, kind, message, status)
 *       state    loading | ready | empty | error (the pane's data-state)
 *       kind     loading | empty | error | hint: the line's data-kind (its look), or null to hide the line
 *       message  the line's text, invisible characters shown as markers (it may quote a search text or a value)
 *       status   for an error the server answered, its HTTP status, on a line of its own
 *   showPaneError(pane, line, err)   an error (an ApiError, or anything thrown) as the pane's status
 */

import { el } from './dom.js';
import { setVisibleText } from './visible-text.js';

function showPaneStatus(pane, line, state, kind = null, message = '', status = 0) {
  pane.dataset.state = state;
  pane.setAttribute('aria-busy', state === 'loading' ? 'true' : 'false');
  if (!kind) {
    line.hidden = true;
    line.replaceChildren();
    delete line.dataset.kind;
    return;
  }
  line.hidden = false;
  line.dataset.kind = kind;
  setVisibleText(line, message);
  if (status) line.append(el('span', 'pane-status-code', `HTTP ${status}`));
}

function showPaneError(pane, line, err) {
  showPaneStatus(pane, line, 'error', 'error', err && err.message ? err.message : String(err), err && err.status);
}

export {
  showPaneError,
  showPaneStatus,
};
