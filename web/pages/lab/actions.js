/*
 * CoreDataBrowser — Lab view: the moves a lower module starts and a higher one carries out (reload or redraw the
 * grid, write the URL, select or mark a row, draw a record's content, open a cell's menu, change a column). The
 * modules are layered state → columns → menus → toolbar → record-detail → sidebar → navigation → json-view →
 * record-content → grid-selection → grid → editing → grid-columns → keyboard, layout → lab.js, and import only
 * downward; lab.js fills this table in first thing, before any module is wired or any event can call into it.
 */

function notYet(name) {
  return () => { throw new Error(`Lab action ${name} called before lab.js set it`); };
}

const actions = {
  loadGrid: notYet('loadGrid'),
  markSelectedRow: notYet('markSelectedRow'),
  openCellMenu: notYet('openCellMenu'),
  refresh: notYet('refresh'),
  renderContent: notYet('renderContent'),
  renderGrid: notYet('renderGrid'),
  resetColumns: notYet('resetColumns'),
  selectRecord: notYet('selectRecord'),
  setColumnHidden: notYet('setColumnHidden'),
  setGridEntity: notYet('setGridEntity'),
  setSort: notYet('setSort'),
  syncURL: notYet('syncURL'),
};

export {
  actions,
};
