/*
 * CoreDataBrowser — Inspector view: the moves a lower module starts and a higher one carries out (the toolbar
 * reloads the page of records, a row opens its record, the detail pane lists a relationship's records or opens an
 * entity). The modules are layered state → toolbar → record-list → detail → editing → entities → inspector.js, and
 * import only downward; inspector.js fills this table in when it loads, before any event can call into it.
 */

import { actionTable } from '../../shared/action-table.js';

const actions = actionTable('Inspector', [
  'editingButtons', 'loadDetail', 'loadPage', 'renderRecords', 'resumeEditing', 'selectEntity', 'showList',
]);

export {
  actions,
};
