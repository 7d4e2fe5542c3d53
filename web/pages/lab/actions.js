/*
 * CoreDataBrowser — Lab view: the moves a lower module starts and a higher one carries out (reload or redraw the
 * grid, write the URL, select or mark a row, draw a record's content, open a cell's menu, change a column). The
 * modules are layered state → columns → menus → toolbar → record-detail → sidebar → navigation → json-view →
 * record-content → grid-selection → grid → editing → grid-columns → keyboard, layout → lab.js, and import only
 * downward; lab.js fills this table in first thing, before any module is wired or any event can call into it.
 */

import { actionTable } from '../../shared/action-table.js';

const actions = actionTable('Lab', [
  'loadGrid', 'markSelectedRow', 'openCellMenu', 'refresh', 'renderContent', 'renderGrid', 'resetColumns',
  'selectRecord', 'setColumnHidden', 'setGridEntity', 'setSort', 'syncURL',
]);

export {
  actions,
};
